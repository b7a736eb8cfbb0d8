import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { outboxMessages } from '../../db/schema.ts';
import type { Messaging, OutgoingEmail } from '../types.ts';

/** Something that delivers an email for real (the SMTP mailer); throws when delivery fails. */
export type EmailDelivery = {
  deliver: (message: OutgoingEmail) => Promise<void>;
  close: () => void;
};

export type OutboxMessagingOptions = {
  /** When set, every email is also delivered through it; the outbox row records sentAt or the error. */
  email?: EmailDelivery | undefined;
  /** Told about a failed delivery (the message itself stays in the outbox). Never given the message text. */
  onDeliveryError?: ((error: unknown, outboxId: number) => void) | undefined;
  now?: () => Date;
};

/** A short, single-line description of a delivery error for the outbox row. */
function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.replace(/\s+/g, ' ').slice(0, 500);
}

/**
 * Delivers a stored email again (a retry after a failed delivery): nothing when it was sent meanwhile or
 * is not an email; on success the row gets sentAt, on failure its error is updated and the error thrown
 * (the caller's job queue tries again later).
 */
export async function redeliverEmail(db: Db, email: EmailDelivery, outboxId: number, now: () => Date = () => new Date()): Promise<void> {
  const [row] = await db.select().from(outboxMessages).where(eq(outboxMessages.id, outboxId)).limit(1);
  if (!row || row.channel !== 'email' || row.sentAt !== null) return;
  try {
    await email.deliver({ to: row.recipient, subject: row.subject ?? '', text: row.body });
  } catch (error) {
    await db.update(outboxMessages).set({ error: describeError(error) }).where(eq(outboxMessages.id, outboxId));
    throw error;
  }
  await db.update(outboxMessages).set({ sentAt: now(), error: null }).where(eq(outboxMessages.id, outboxId));
}

/**
 * The default messaging adapter: every email and SMS becomes a row in `outbox_messages` (support and
 * tests read them there). With an email delivery configured (SMTP), email also goes out; a failure is
 * recorded on the row and does not lose the message or fail the caller.
 */
export function createOutboxMessaging(db: Db, options: OutboxMessagingOptions = {}): Messaging {
  const now = options.now ?? (() => new Date());

  async function store(row: { channel: 'email' | 'sms'; recipient: string; subject: string | null; body: string }) {
    const [stored] = await db.insert(outboxMessages).values(row).returning({ id: outboxMessages.id });
    return stored!.id;
  }

  return {
    async sendEmail(message) {
      const id = await store({ channel: 'email', recipient: message.to, subject: message.subject, body: message.text });
      if (!options.email) return;
      try {
        await options.email.deliver(message);
        await db.update(outboxMessages).set({ sentAt: now(), error: null }).where(eq(outboxMessages.id, id));
      } catch (error) {
        await db.update(outboxMessages).set({ error: describeError(error) }).where(eq(outboxMessages.id, id));
        options.onDeliveryError?.(error, id);
      }
    },

    async sendSms(message) {
      // No SMS provider yet: the outbox is the delivery (support can read it); a provider plugs in here.
      await store({ channel: 'sms', recipient: message.to, subject: null, body: message.text });
    },
  };
}
