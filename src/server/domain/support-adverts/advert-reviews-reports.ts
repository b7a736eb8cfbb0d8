import { desc, eq } from 'drizzle-orm';
import type { AdvertReportItem, AdvertReviewItem } from '#lib/schemas/support-adverts.ts';
import { contentReports, reviews } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { findSupportAdvert } from './find-advert.ts';

/** advertreviews (Support: advert:moderate:any): every review of the advert, any status, newest first. */
export async function listAdvertReviews(ctx: DomainContext, id: number): Promise<AdvertReviewItem[]> {
  const advert = await findSupportAdvert(ctx, id);
  const rows = await ctx.db.select().from(reviews).where(eq(reviews.advertId, advert.id)).orderBy(desc(reviews.createdAt), desc(reviews.id));
  return rows.map((row) => ({
    id: row.id,
    authorName: row.authorName,
    rating: row.rating,
    text: row.text,
    status: row.status,
    replyText: row.replyText,
    removalRequested: row.removalRequestedAt !== null,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  }));
}

/** advertreports (Support: advert:moderate:any): every report about the advert, open or decided, newest first. */
export async function listAdvertReports(ctx: DomainContext, id: number): Promise<AdvertReportItem[]> {
  const advert = await findSupportAdvert(ctx, id);
  const rows = await ctx.db.select().from(contentReports).where(eq(contentReports.advertId, advert.id)).orderBy(desc(contentReports.createdAt), desc(contentReports.id));
  return rows.map((row) => ({
    id: row.id,
    reason: row.reason,
    priority: row.priority,
    status: row.status,
    decision: row.decision,
    reporterName: row.reporterName,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  }));
}
