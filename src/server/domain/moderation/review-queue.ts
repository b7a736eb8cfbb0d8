import { and, count, eq, isNotNull, isNull, min, ne, notInArray, sql } from 'drizzle-orm';
import { REVIEW_FIELDS, type ReviewQueueAnswer, type ReviewQueueItem, type ReviewQueueKind } from '#lib/schemas/review.ts';
import { anyOf } from '../../db/any-of.ts';
import { accounts, adverts, cities, pictures, videos } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { requirePermission } from '../permissions.ts';
import { PROFILE_STATUS, kindOf } from '../adverts/statuses.ts';
import { MODERATION } from '../media/pictures.ts';
import { riskSignalsFor } from './risk-signals.ts';
import { pendingReviewFields } from './review-fields.ts';

/** Videos: 0 pending moderation; 2 Ready (only a converted video can be looked at). */
const VIDEO_PENDING = 0;
const VIDEO_READY = 2;

type Candidate = { id: number; since: Date };

const asDate = (value: Date | string | null): Date => (value instanceof Date ? value : new Date(value ?? 0));

/** The adverts waiting in a queue, with when each started waiting. */
async function candidatesOf(ctx: DomainContext, kind: ReviewQueueKind): Promise<Candidate[]> {
  const { db } = ctx;
  if (kind === 'new') {
    const rows = await db
      .select({ id: adverts.id, since: adverts.createdAt })
      .from(adverts)
      .where(and(eq(adverts.status, PROFILE_STATUS.New), isNull(adverts.deletedAt)));
    return rows;
  }
  if (kind === 'changes') {
    // Approved adverts with proposals (a new advert's values are reviewed in the 'new' queue).
    const rows = await db
      .select({ id: adverts.id, since: sql<Date | string>`coalesce(${adverts.pendingSince}, ${adverts.updatedAt})` })
      .from(adverts)
      .where(
        and(
          isNotNull(adverts.pendingChanges),
          sql`${adverts.pendingChanges} <> '{}'::jsonb`,
          notInArray(adverts.status, [PROFILE_STATUS.New, PROFILE_STATUS.Deleted]),
          isNull(adverts.deletedAt),
        ),
      );
    return rows.map((row) => ({ id: row.id, since: asDate(row.since) }));
  }
  const [pictureRows, videoRows] = await Promise.all([
    db
      .select({ id: pictures.advertId, since: min(pictures.createdAt) })
      .from(pictures)
      .innerJoin(adverts, eq(adverts.id, pictures.advertId))
      .where(and(eq(pictures.moderationStatus, MODERATION.pending), isNull(pictures.deletedAt), isNull(adverts.deletedAt), ne(adverts.status, PROFILE_STATUS.Deleted)))
      .groupBy(pictures.advertId),
    db
      .select({ id: videos.advertId, since: min(videos.createdAt) })
      .from(videos)
      .innerJoin(adverts, eq(adverts.id, videos.advertId))
      .where(
        and(
          eq(videos.moderationStatus, VIDEO_PENDING),
          eq(videos.status, VIDEO_READY),
          isNull(videos.deletedAt),
          isNull(adverts.deletedAt),
          ne(adverts.status, PROFILE_STATUS.Deleted),
        ),
      )
      .groupBy(videos.advertId),
  ]);
  const since = new Map<number, Date>();
  for (const row of [...pictureRows, ...videoRows]) {
    if (row.id === null) continue;
    const at = asDate(row.since);
    const known = since.get(row.id);
    if (!known || at < known) since.set(row.id, at);
  }
  return [...since].map(([id, at]) => ({ id, since: at }));
}

/**
 * reviewqueue (Support: advert:moderate:any): new adverts (the default), approved adverts with pending
 * changes, or adverts with pending pictures or videos; adverts with a risk signal first, then the one
 * that has waited longest. `since`: created (new), when changes started waiting (`pending_since`), or
 * the oldest pending picture or video.
 */
export async function listReviewQueue(ctx: DomainContext, input: { skip: number; take: number; kind: ReviewQueueKind }): Promise<ReviewQueueAnswer> {
  requirePermission(ctx.actor, 'advert:moderate:any');
  const candidates = await candidatesOf(ctx, input.kind);
  const risks = await riskSignalsFor(
    ctx.db,
    candidates.map((c) => c.id),
  );
  const flagged = (id: number) => (risks.get(id)?.risk.length ?? 0) > 0;
  const ordered = candidates.sort(
    (a, b) => Number(flagged(b.id)) - Number(flagged(a.id)) || a.since.getTime() - b.since.getTime() || a.id - b.id,
  );
  const page = ordered.slice(input.skip, input.skip + input.take);
  if (!page.length) return { total: ordered.length, items: [] };
  const ids = page.map((c) => c.id);
  const [rows, pictureCounts, videoCounts] = await Promise.all([
    ctx.db
      .select({ advert: adverts, email: accounts.email, city: cities.name })
      .from(adverts)
      .innerJoin(accounts, eq(accounts.id, adverts.accountId))
      .leftJoin(cities, eq(cities.id, adverts.cityId))
      .where(anyOf(adverts.id, ids)),
    ctx.db
      .select({ id: pictures.advertId, n: count() })
      .from(pictures)
      .where(and(anyOf(pictures.advertId, ids), eq(pictures.moderationStatus, MODERATION.pending), isNull(pictures.deletedAt)))
      .groupBy(pictures.advertId),
    ctx.db
      .select({ id: videos.advertId, n: count() })
      .from(videos)
      .where(and(anyOf(videos.advertId, ids), eq(videos.moderationStatus, VIDEO_PENDING), eq(videos.status, VIDEO_READY), isNull(videos.deletedAt)))
      .groupBy(videos.advertId),
  ]);
  const byId = new Map(rows.map((row) => [row.advert.id, row]));
  const pictureCount = new Map(pictureCounts.map((row) => [row.id, Number(row.n)]));
  const videoCount = new Map(videoCounts.map((row) => [row.id, Number(row.n)]));
  const items: ReviewQueueItem[] = page.flatMap((candidate) => {
    const row = byId.get(candidate.id);
    if (!row) return [];
    const { advert } = row;
    return [
      {
        advertId: advert.id,
        name: advert.name,
        accountEmail: row.email,
        kind: kindOf(advert),
        city: row.city,
        createdAt: advert.createdAt.toISOString(),
        since: candidate.since.toISOString(),
        validationStatus: advert.validationStatus,
        ageVerified: advert.ageVerifiedAt !== null,
        // A new advert is reviewed as a whole: every field.
        pendingFields: advert.status === PROFILE_STATUS.New ? [...REVIEW_FIELDS] : pendingReviewFields(advert.pendingChanges),
        pendingPictures: pictureCount.get(advert.id) ?? 0,
        pendingVideos: videoCount.get(advert.id) ?? 0,
        risk: risks.get(advert.id)?.risk ?? [],
      },
    ];
  });
  return { total: ordered.length, items };
}
