import { and, eq, isNull, notInArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { outboxMessages } from '../../db/schema.ts';
import type { Messaging, OutgoingEmail } from '../types.ts';
import { SMS_FINAL_STATES, type DeliveryReport, type SmsDelivery } from './gatewayapi-sms.ts';

/** Something that delivers an email for real (the SMTP mailer); throws when delivery fails. */
export type EmailDelivery = {
  deliver: (message: OutgoingEmail) => Promise<void>;
  close: () => void;
};

export type OutboxMessagingOptions = {
  /** When set, every email is also delivered through it; the outbox row records sentAt or the error. */
  email?: EmailDelivery | undefined;
  /** When set, every SMS is also sent through it (the SMS provider); the row records sentAt and the provider's id, or the error. */
  sms?: SmsDelivery | undefined;
  /**
   * Whether the outbox may keep the clear text of a message no real provider delivers (development and
   * tests: the outbox is the developer's mailbox). Off in production: such a row keeps its secrets masked
   * only, as no one but the recipient may read them. A delivered message always keeps them masked.
   */
  keepUndeliveredSecrets?: boolean | undefined;
  /** Told about a failed delivery (the message itself stays in the outbox). Never given the message text. */
  onDeliveryError?: ((error: unknown, outboxId: number, channel: 'email' | 'sms') => void) | undefined;
  now?: () => Date;
};

/** What stands in the outbox for a link or code that grants access. */
export const MASKED_SECRET = '[hidden: sent only to the recipient]';

/** The text with every secret (link, code) of the message masked. */
export function maskSecrets(text: string, secrets: readonly string[] | undefined): string {
  let masked = text;
  for (const secret of secrets ?? []) if (secret.length > 0) masked = masked.split(secret).join(MASKED_SECRET);
  return masked;
}

/** A short, single-line description of a delivery error for the outbox row. */
function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.replace(/\s+/g, ' ').slice(0, 500);
}

/** The real deliveries a server has: SMTP for email, the SMS provider for SMS (either may be missing). */
export type Deliveries = { email?: EmailDelivery | undefined; sms?: SmsDelivery | undefined };

/**
 * Delivers a stored message again (a retry after a failed delivery): nothing when it was sent meanwhile or
 * its channel has no provider; on success the row gets sentAt (and the SMS provider's id) and keeps only the
 * masked text, on failure its error is updated and the error thrown (the caller's job queue tries again later).
 */
export async function redeliverMessage(db: Db, deliveries: Deliveries, outboxId: number, now: () => Date = () => new Date()): Promise<void> {
  const [row] = await db.select().from(outboxMessages).where(eq(outboxMessages.id, outboxId)).limit(1);
  if (!row || row.sentAt !== null) return;
  const { email, sms } = deliveries;
  let providerId: string | null = null;
  try {
    if (row.channel === 'email' && email) await email.deliver({ to: row.recipient, subject: row.subject ?? '', text: row.body });
    else if (row.channel === 'sms' && sms) providerId = (await sms.deliver({ to: row.recipient, text: row.body }, String(row.id))).providerId;
    else return;
  } catch (error) {
    await db.update(outboxMessages).set({ error: describeError(error) }).where(eq(outboxMessages.id, outboxId));
    throw error;
  }
  await db
    .update(outboxMessages)
    .set({ sentAt: now(), error: null, body: row.maskedBody, providerId })
    .where(eq(outboxMessages.id, outboxId));
}

/**
 * A delivery report of the SMS provider, on the row it names (its id and our reference must both match):
 * its state and time. A final state is kept; a transient one arriving after it is ignored, as the provider
 * asks. Answers whether a row took it.
 */
export async function recordDeliveryReport(db: Db, report: DeliveryReport): Promise<boolean> {
  const outboxId = Number(report.reference);
  if (!Number.isSafeInteger(outboxId) || outboxId <= 0) return false;
  const updated = await db
    .update(outboxMessages)
    .set({ deliveryStatus: report.status, deliveryStatusAt: report.at, ...(report.failed ? { error: `${report.status}${report.error ? `: ${report.error}` : ''}` } : {}) })
    .where(
      and(
        eq(outboxMessages.id, outboxId),
        eq(outboxMessages.channel, 'sms'),
        eq(outboxMessages.providerId, report.providerId),
        // A transient state never replaces a final one.
        report.final ? undefined : or(isNull(outboxMessages.deliveryStatus), notInArray(outboxMessages.deliveryStatus, [...SMS_FINAL_STATES])),
      ),
    )
    .returning({ id: outboxMessages.id });
  return updated.length > 0;
}

/**
 * The default messaging adapter: every email and SMS becomes a row in `outbox_messages`, with its
 * secrets (links and codes that grant access) also stored masked (`masked_body`). With an email delivery
 * configured (SMTP), email also goes out, and with an SMS provider, SMS; the row keeps the clear text only
 * until it is delivered (a failed delivery is retried from it), then only the masked text. A failure is recorded on the row and
 * does not lose the message or fail the caller. Without a real provider the clear text is kept only when
 * `keepUndeliveredSecrets` (development and tests).
 */
export function createOutboxMessaging(db: Db, options: OutboxMessagingOptions = {}): Messaging {
  const now = options.now ?? (() => new Date());

  async function store(
    row: { channel: 'email' | 'sms'; recipient: string; subject: string | null; text: string; secrets: readonly string[] | undefined },
    willDeliver: boolean,
  ) {
    const maskedBody = maskSecrets(row.text, row.secrets);
    const keepClear = willDeliver || options.keepUndeliveredSecrets === true;
    const [stored] = await db
      .insert(outboxMessages)
      .values({ channel: row.channel, recipient: row.recipient, subject: row.subject, body: keepClear ? row.text : maskedBody, maskedBody })
      .returning({ id: outboxMessages.id });
    return { id: stored!.id, maskedBody };
  }

  return {
    smsReachesPhones: options.sms !== undefined || options.keepUndeliveredSecrets === true,

    async sendEmail(message) {
      const email = options.email;
      const { id, maskedBody } = await store(
        { channel: 'email', recipient: message.to, subject: message.subject, text: message.text, secrets: message.secrets },
        email !== undefined,
      );
      if (!email) return;
      try {
        await email.deliver(message);
        // Delivered: the recipient has the secrets; the outbox keeps them masked only.
        await db.update(outboxMessages).set({ sentAt: now(), error: null, body: maskedBody }).where(eq(outboxMessages.id, id));
      } catch (error) {
        await db.update(outboxMessages).set({ error: describeError(error) }).where(eq(outboxMessages.id, id));
        options.onDeliveryError?.(error, id, 'email');
      }
    },

    async sendSms(message) {
      // Without an SMS provider, in development and tests the outbox is the delivery (the developer's
      // phone); in production the code is kept masked only and never reaches anyone (docs/security.md).
      const sms = options.sms;
      const { id, maskedBody } = await store({ channel: 'sms', recipient: message.to, subject: null, text: message.text, secrets: message.secrets }, sms !== undefined);
      if (!sms) return;
      try {
        const { providerId } = await sms.deliver(message, String(id));
        await db.update(outboxMessages).set({ sentAt: now(), error: null, body: maskedBody, providerId }).where(eq(outboxMessages.id, id));
      } catch (error) {
        await db.update(outboxMessages).set({ error: describeError(error) }).where(eq(outboxMessages.id, id));
        options.onDeliveryError?.(error, id, 'sms');
      }
    },
  };
}
