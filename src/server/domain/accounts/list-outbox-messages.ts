import { count, desc, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { OutboxQueryInput } from '#lib/schemas/account.ts';
import { outboxMessages } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { requirePermission } from '../permissions.ts';

/** How a message fared: `stored` (the outbox is its delivery: SMS, or email without SMTP), `sent`, `failed`. */
export type OutboxStatus = 'stored' | 'sent' | 'failed';

export type OutboxEntry = {
  id: number;
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  body: string;
  createdAt: string;
  status: OutboxStatus;
  /** The delivery error of a failed email. */
  error: string | null;
};

/**
 * GET /api/support/outbox: the email and SMS messages the site sent (verification and reset messages,
 * notices), newest first, with `outbox:read:any` (Administration). Links and codes that grant access are
 * never shown to anyone but their recipient: a delivered message keeps them masked only, and outside
 * development and tests (`revealUndelivered` off) every message is shown masked. In development and tests
 * the outbox is the developer's mailbox (and the browser tests'): a message no real provider delivered
 * (every SMS, email without SMTP) is shown as sent.
 */
export async function listOutboxMessages(
  ctx: DomainContext,
  input: OutboxQueryInput,
  options: { revealUndelivered: boolean },
): Promise<{ total: number; items: OutboxEntry[] }> {
  requirePermission(ctx.actor, 'outbox:read:any');
  const where = input.To ? eq(outboxMessages.recipient, input.To) : undefined;
  const [rows, [counted]] = await Promise.all([
    ctx.db
      .select()
      .from(outboxMessages)
      .where(where)
      .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
      .offset(input.Skip)
      .limit(input.Take),
    ctx.db.select({ n: count() }).from(outboxMessages).where(where),
  ]);
  return {
    total: counted?.n ?? 0,
    items: rows.map((row) => ({
      id: row.id,
      channel: row.channel === 'sms' ? 'sms' : 'email',
      to: row.recipient,
      subject: row.subject,
      // A delivered row's body is already masked; without a provider it is clear in development and tests.
      body: options.revealUndelivered ? row.body : row.maskedBody,
      createdAt: row.createdAt.toISOString(),
      status: row.sentAt ? 'sent' : row.error ? 'failed' : 'stored',
      error: row.error,
    })),
  };
}

/** How long the outbox keeps a message: its codes and links are long dead, and support needs no more. */
export const OUTBOX_KEEP_DAYS = 30;

/** Deletes the outbox messages older than OUTBOX_KEEP_DAYS (the main job's schedule); answers how many. */
export async function pruneOutbox(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - OUTBOX_KEEP_DAYS * 86_400_000);
  const deleted = await db.delete(outboxMessages).where(lt(outboxMessages.createdAt, before)).returning({ id: outboxMessages.id });
  return deleted.length;
}
