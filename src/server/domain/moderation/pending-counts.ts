import { and, count, eq, inArray, isNotNull, isNull, min, ne, sql } from 'drizzle-orm';
import { adverts, contentReports, pictures, reviews, statementsOfReasons, verifications, videos } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { requirePermission } from '../permissions.ts';
import { OPEN_REPORT_STATUSES } from '../reports/content-reports.ts';
import { reviewWaitsForSupport } from '../reviews/pending-reviews.ts';
import type { PendingCount, PendingCounts } from '#lib/schemas/moderation.ts';

/** Priority 2: Urgent. */
const URGENT = 2;

const iso = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();

/** Adds two queues' figures (media: pictures and videos). */
function merge(a: PendingCount, b: PendingCount): PendingCount {
  const oldest = [a.oldest, b.oldest].filter((v): v is string => v !== null).sort()[0] ?? null;
  return { count: a.count + b.count, oldest };
}

/**
 * GET /api/support/pendingcounts: what waits in each moderation queue, for support's dashboard
 * (the Support role: advert:moderate:any). Each figure is one indexed count; the queues themselves list
 * oldest first.
 */
export async function getPendingCounts(ctx: DomainContext): Promise<PendingCounts> {
  requirePermission(ctx.actor, 'advert:moderate:any');
  const { db } = ctx;
  const figure = (row: { count: number; oldest: Date | string | null } | undefined): PendingCount => ({
    count: Number(row?.count ?? 0),
    oldest: iso(row?.oldest),
  });

  const [newAdverts, verificationRows, changes, pictureRows, videoRows, reportRows, reviewRows, appealRows] = await Promise.all([
    db
      .select({ count: count(), oldest: min(adverts.createdAt) })
      .from(adverts)
      .where(and(eq(adverts.status, 0), isNull(adverts.deletedAt))),
    db
      .select({ count: count(), oldest: min(verifications.createdAt) })
      .from(verifications)
      .where(eq(verifications.status, 1)),
    // Approved adverts (a new advert is reviewed whole); waiting since pending_since (the last edit for rows without one).
    db
      .select({ count: count(), oldest: sql<Date | string | null>`min(coalesce(${adverts.pendingSince}, ${adverts.updatedAt}))` })
      .from(adverts)
      .where(
        and(
          isNotNull(adverts.pendingChanges),
          sql`${adverts.pendingChanges} <> '{}'::jsonb`,
          ne(adverts.status, 3),
          ne(adverts.status, 0),
          isNull(adverts.deletedAt),
        ),
      ),
    // Pictures uploaded during sign-up have no advert until the advert is created.
    db
      .select({ count: count(), oldest: min(pictures.createdAt) })
      .from(pictures)
      .where(and(eq(pictures.moderationStatus, 0), isNull(pictures.deletedAt), isNotNull(pictures.advertId))),
    db
      .select({ count: count(), oldest: min(videos.createdAt) })
      .from(videos)
      // Only videos that finished converting can be looked at.
      .where(and(eq(videos.moderationStatus, 0), eq(videos.status, 2), isNull(videos.deletedAt))),
    db
      .select({
        count: count(),
        oldest: min(contentReports.createdAt),
        urgent: sql<number>`count(*) filter (where ${contentReports.priority} = ${URGENT})`,
      })
      .from(contentReports)
      .where(inArray(contentReports.status, OPEN_REPORT_STATUSES)),
    // Pending reviews and approved ones the advertiser asked to remove (the pending-reviews/ queue).
    db
      .select({ count: count(), oldest: sql<Date | string | null>`min(coalesce(${reviews.removalRequestedAt}, ${reviews.createdAt}))` })
      .from(reviews)
      .where(reviewWaitsForSupport),
    db
      .select({ count: count(), oldest: min(statementsOfReasons.appealedAt) })
      .from(statementsOfReasons)
      .where(and(isNotNull(statementsOfReasons.appealedAt), isNull(statementsOfReasons.appealDecidedAt))),
  ]);

  return {
    newAdverts: figure(newAdverts[0]),
    verifications: figure(verificationRows[0]),
    pendingChanges: figure(changes[0]),
    pendingMedia: merge(figure(pictureRows[0]), figure(videoRows[0])),
    reports: { ...figure(reportRows[0]), urgent: Number(reportRows[0]?.urgent ?? 0) },
    pendingReviews: figure(reviewRows[0]),
    appeals: figure(appealRows[0]),
  };
}
