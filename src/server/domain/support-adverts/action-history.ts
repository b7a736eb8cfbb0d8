import { and, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { ActionHistoryItem, HistoryActor } from '#lib/schemas/support-adverts.ts';
import { auditLog, contentReports, notifications, pictures, reviews, statementsOfReasons, supportUsers, verifications, videos } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { findSupportAdvert, paged } from './find-advert.ts';
import { textArray } from '../../db/any-of.ts';

/** `target_type = type and target_id = any(ids)` (target ids are text in the audit log). */
function targets(type: string, ids: readonly number[]): SQL | undefined {
  if (ids.length === 0) return undefined;
  for (const id of ids) if (!Number.isSafeInteger(id)) throw new TypeError(`not an id: ${String(id)}`);
  return and(eq(auditLog.targetType, type), sql`${auditLog.targetId} = any(${textArray(ids.map(String))})`);
}

const ids = (rows: { id: number }[]) => rows.map((row) => row.id);

/**
 * actionhistories (Support: advert:moderate:any): the audit entries about the advert, newest first, paged:
 * those whose target is the advert or its account, or one of its pictures, videos, reviews, verifications,
 * reports, statements of reasons or messages (deleted ones included), and everything the advertiser's
 * account did (which covers what is gone for good, like a removed price). Each names its actor: a support
 * user, the advertiser, a support user signed in as the advertiser, or the system. Read only: no call of the
 * product edits or deletes audit entries.
 */
export async function listActionHistory(
  ctx: DomainContext,
  input: { Id: number; Skip: number; Take: number },
): Promise<{ total: number; items: ActionHistoryItem[] }> {
  const advert = await findSupportAdvert(ctx, input.Id);
  const accountId = advert.accountId;
  const [pictureRows, videoRows, reviewRows, verificationRows, reportRows, statementRows, notificationRows] = await Promise.all([
    ctx.db.select({ id: pictures.id }).from(pictures).where(eq(pictures.advertId, advert.id)),
    ctx.db.select({ id: videos.id }).from(videos).where(eq(videos.advertId, advert.id)),
    ctx.db.select({ id: reviews.id }).from(reviews).where(eq(reviews.advertId, advert.id)),
    ctx.db.select({ id: verifications.id }).from(verifications).where(or(eq(verifications.advertId, advert.id), eq(verifications.accountId, accountId))),
    ctx.db.select({ id: contentReports.id }).from(contentReports).where(eq(contentReports.advertId, advert.id)),
    ctx.db.select({ id: statementsOfReasons.id }).from(statementsOfReasons).where(or(eq(statementsOfReasons.advertId, advert.id), eq(statementsOfReasons.accountId, accountId))),
    ctx.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.accountId, accountId)),
  ]);
  const where = or(
    targets('advert', [advert.id]),
    targets('account', [accountId]),
    targets('picture', ids(pictureRows)),
    targets('video', ids(videoRows)),
    targets('review', ids(reviewRows)),
    targets('verification', ids(verificationRows)),
    targets('report', ids(reportRows)),
    targets('statement', ids(statementRows)),
    targets('notification', ids(notificationRows)),
    and(eq(auditLog.actorType, 'advertiser'), eq(auditLog.actorId, accountId)),
  );
  const [totals, rows] = await Promise.all([
    ctx.db.select({ total: count() }).from(auditLog).where(where),
    ctx.db.select().from(auditLog).where(where).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).offset(input.Skip).limit(input.Take),
  ]);
  const supportIds = [...new Set(rows.flatMap((row) => [row.actorType === 'support' ? row.actorId : null, row.impersonatedBy]).filter((id): id is number => id !== null))];
  const names = new Map(
    supportIds.length === 0
      ? []
      : (await ctx.db.select({ id: supportUsers.id, name: supportUsers.name }).from(supportUsers).where(inArray(supportUsers.id, supportIds))).map((u) => [u.id, u.name]),
  );
  const nameOf = (id: number | null) => (id === null ? '' : (names.get(id) ?? `#${id}`));
  const actorOf = (row: typeof auditLog.$inferSelect): HistoryActor => {
    if (row.impersonatedBy !== null) return { type: 'impersonation', name: nameOf(row.impersonatedBy) };
    if (row.actorType === 'support') return { type: 'support', name: nameOf(row.actorId) };
    if (row.actorType === 'advertiser') return { type: 'advertiser' };
    if (row.actorType === 'system') return { type: 'system' };
    return { type: 'visitor' };
  };
  return paged(
    totals[0]?.total,
    rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      actor: actorOf(row),
      action: row.action,
      targetType: row.targetType,
      targetId: row.targetId,
      before: row.before,
      after: row.after,
      reason: row.reason,
      ip: row.ip,
    })),
  );
}
