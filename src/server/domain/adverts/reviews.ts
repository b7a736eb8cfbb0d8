import { and, desc, eq } from 'drizzle-orm';
import { reviews, type Review } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { getOwnAdvert, publishAdvertChange } from './own-advert.ts';
import type { ProfileReview } from '#lib/schemas/backend-answers.ts';

/** Review status: 0 Pending, 1 Approved, 2 Hidden, 3 Rejected (schema). */
export const REVIEW_STATUS = { Pending: 0, Approved: 1, Hidden: 2, Rejected: 3 } as const;

export type { ProfileReview };

function viewOf(review: Review): ProfileReview {
  return {
    id: review.id,
    authorName: review.authorName,
    rating: review.rating,
    text: review.text,
    status: review.status,
    reply: review.replyText,
    replyAt: review.replyAt?.toISOString() ?? null,
    removalRequested: review.removalRequestedAt !== null,
    createdAt: review.createdAt.toISOString(),
  };
}

/** profilereviews: every review of the caller's advert (approved, pending, hidden, rejected), newest first. */
export async function listProfileReviews(ctx: DomainContext): Promise<ProfileReview[]> {
  const advert = await getOwnAdvert(ctx);
  const rows = await ctx.db.select().from(reviews).where(eq(reviews.advertId, advert.id)).orderBy(desc(reviews.createdAt), desc(reviews.id));
  return rows.map(viewOf);
}

/** One review of the caller's advert; another advert's review answers 404. */
async function getOwnReview(ctx: DomainContext, advertId: number, reviewId: number): Promise<Review> {
  const [review] = await ctx.db.select().from(reviews).where(and(eq(reviews.id, reviewId), eq(reviews.advertId, advertId)));
  if (!review) throw notFound('Review');
  return review;
}

/**
 * addreview: the advertiser's one public reply to a review of their advert (not to a rejected one). A
 * second reply is refused (409); the reply shows on the advert with the review.
 */
export async function replyToReview(ctx: DomainContext, input: { ReviewId: number; Text: string }): Promise<ProfileReview> {
  const advert = await getOwnAdvert(ctx);
  const review = await getOwnReview(ctx, advert.id, input.ReviewId);
  if (review.replyText !== null) {
    throw new AppError('CONFLICT', 'You have already replied to this review', [{ field: 'Text', message: 'alreadyReplied' }]);
  }
  if (review.status === REVIEW_STATUS.Rejected) throw new AppError('CONFLICT', 'This review was rejected by support');
  const now = ctx.now();
  const [updated] = await ctx.db
    .update(reviews)
    .set({ replyText: input.Text, replyAt: now })
    .where(and(eq(reviews.id, review.id), eq(reviews.advertId, advert.id)))
    .returning();
  await writeAudit(ctx, { action: 'review.reply', targetType: 'review', targetId: review.id, before: { reply: null }, after: { reply: input.Text } });
  if (review.status === REVIEW_STATUS.Approved) await publishAdvertChange(ctx, advert.id, 'review.reply');
  return viewOf(updated!);
}

/**
 * deletereview: asks support to remove a review (it is marked, never deleted here; support decides in
 * its pending-reviews queue). Asking again changes nothing.
 */
export async function requestReviewRemoval(ctx: DomainContext, input: { ReviewId: number; Reason: string }): Promise<ProfileReview> {
  const advert = await getOwnAdvert(ctx);
  const review = await getOwnReview(ctx, advert.id, input.ReviewId);
  if (review.removalRequestedAt !== null) return viewOf(review);
  const [updated] = await ctx.db
    .update(reviews)
    .set({ removalRequestedAt: ctx.now() })
    .where(and(eq(reviews.id, review.id), eq(reviews.advertId, advert.id)))
    .returning();
  await writeAudit(ctx, {
    action: 'review.removal_requested',
    targetType: 'review',
    targetId: review.id,
    before: { removalRequestedAt: null },
    after: { removalRequestedAt: updated!.removalRequestedAt },
    reason: input.Reason || null,
  });
  return viewOf(updated!);
}
