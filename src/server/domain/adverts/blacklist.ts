import { and, desc, eq, isNull } from 'drizzle-orm';
import { normaliseDanishPhone } from '#lib/schemas/advert-edit.ts';
import { adverts, blacklistEntries, type BlacklistEntry } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requireAdvertiserAccountId } from './own-advert.ts';

export type BlacklistEntryView = { id: number; phone: string; note: string | null; createdAt: string };

const MAX_ENTRIES = 500;

function viewOf(entry: BlacklistEntry): BlacklistEntryView {
  return { id: entry.id, phone: entry.phone, note: entry.note, createdAt: entry.createdAt.toISOString() };
}

/** profileblacklist: the caller's own list of client phone numbers, newest first. */
export async function listBlacklist(ctx: DomainContext): Promise<BlacklistEntryView[]> {
  const accountId = requireAdvertiserAccountId(ctx);
  const rows = await ctx.db
    .select()
    .from(blacklistEntries)
    .where(eq(blacklistEntries.accountId, accountId))
    .orderBy(desc(blacklistEntries.createdAt), desc(blacklistEntries.id));
  return rows.map(viewOf);
}

/** addtoblacklist: a phone number (already normalised to 8 digits) with a private note; duplicates 409. */
export async function addToBlacklist(ctx: DomainContext, input: { Phone: string; Note: string }): Promise<BlacklistEntryView> {
  const accountId = requireAdvertiserAccountId(ctx);
  const existing = await ctx.db.select().from(blacklistEntries).where(eq(blacklistEntries.accountId, accountId));
  if (existing.some((entry) => entry.phone === input.Phone)) {
    throw new AppError('CONFLICT', 'This number is already on your list', [{ field: 'Phone', message: 'duplicate' }]);
  }
  if (existing.length >= MAX_ENTRIES) throw new AppError('INVALID', 'Your list is full', [{ field: 'Phone', message: 'tooMany' }]);
  const [created] = await ctx.db
    .insert(blacklistEntries)
    .values({ accountId, phone: input.Phone, note: input.Note || null, createdAt: ctx.now() })
    .returning();
  await writeAudit(ctx, { action: 'blacklist.add', targetType: 'blacklist_entry', targetId: created!.id, after: viewOf(created!) });
  return viewOf(created!);
}

/** removefromblacklist: takes a number off the caller's list (another account's entry answers 404). */
export async function removeFromBlacklist(ctx: DomainContext, id: number): Promise<void> {
  const accountId = requireAdvertiserAccountId(ctx);
  const [deleted] = await ctx.db
    .delete(blacklistEntries)
    .where(and(eq(blacklistEntries.id, id), eq(blacklistEntries.accountId, accountId)))
    .returning();
  if (!deleted) throw notFound('Blacklist entry');
  await writeAudit(ctx, { action: 'blacklist.remove', targetType: 'blacklist_entry', targetId: id, before: viewOf(deleted) });
}

/**
 * Whether the owner of an advert has blacklisted a phone number (any Danish way of writing it). For
 * visitors' reviews: a review from a blacklisted number is refused (the support issue adds the form).
 */
export async function isBlacklisted(ctx: DomainContext, advertId: number, phone: string): Promise<boolean> {
  const normalised = normaliseDanishPhone(phone);
  if (!normalised) return false;
  const [row] = await ctx.db
    .select({ id: blacklistEntries.id })
    .from(blacklistEntries)
    .innerJoin(adverts, eq(adverts.accountId, blacklistEntries.accountId))
    .where(and(eq(adverts.id, advertId), isNull(adverts.deletedAt), eq(blacklistEntries.phone, normalised)))
    .limit(1);
  return row !== undefined;
}
