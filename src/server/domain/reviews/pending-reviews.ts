/**
 * Support's queue of reviews (issue 6, pending-reviews/): visitors' reviews waiting for approval, and
 * approved reviews the advertiser asked support to remove (deletereview), oldest first. Support approves or
 * rejects a pending review (with a reason, kept for the record), and removes or keeps one the advertiser
 * asked to remove. What changes the public profile (approve, remove) refreshes the advert's search rows and
 * schedules the rebuild of its page (publishAdvertChange). Neither decision is a decision against the
 * advertiser (a removal is theirs to ask; a visitor's review is not their content), so no statement of
 * reasons is issued; the advertiser is told of an approval and of the answer to their removal request (a
 * notification and an email), not of a rejected review they never saw. Every decision is audited.
 */
import { and, asc, count, eq, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { maskPhone } from '#lib/format.ts';
import {
  REVIEW_DECISIONS,
  type DecideReviewInput,
  type PendingReviewDetail,
  type PendingReviewItem,
  type ReviewDecision,
} from '#lib/schemas/reviews.ts';
import { adverts, reviews, supportUsers, type Advert, type Review } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requirePermission } from '../permissions.ts';
import { isAdvertPublic } from '../adverts/visibility.ts';
import { REVIEW_STATUS } from '../adverts/reviews.ts';
import { publishAdvertChange } from '../adverts/own-advert.ts';
import { advertPath } from '../search/advert-card.ts';
import type { Messaging } from '../../adapters/types.ts';
import { reviewDecisionText } from '../moderation/moderation-texts.ts';
import { noticeToAdvertiser } from '../moderation/statements.ts';

const PERMISSION = 'reviews:moderate:any';

/** An approved review whose removal the advertiser asked for after support's last decision on it. */
const removalOpen: SQL = and(
  eq(reviews.status, REVIEW_STATUS.Approved),
  isNotNull(reviews.removalRequestedAt),
  or(isNull(reviews.decidedAt), lt(reviews.decidedAt, reviews.removalRequestedAt)),
) as SQL;

/** What waits for support: pending reviews and open removal requests (also counted on the dashboard). */
export const reviewWaitsForSupport: SQL = or(eq(reviews.status, REVIEW_STATUS.Pending), removalOpen) as SQL;

function isRemovalOpen(review: Review): boolean {
  return (
    review.status === REVIEW_STATUS.Approved &&
    review.removalRequestedAt !== null &&
    (review.decidedAt === null || review.decidedAt < review.removalRequestedAt)
  );
}

const kindOf = (review: Review): PendingReviewItem['kind'] => (review.status === REVIEW_STATUS.Pending ? 'new' : 'removal');

type Row = { review: Review; advert: Advert; deciderName: string | null };

function toItem({ review, advert }: Row): PendingReviewItem {
  return {
    id: review.id,
    kind: kindOf(review),
    advertId: advert.id,
    advertName: advert.name,
    authorName: review.authorName,
    rating: review.rating,
    text: review.text,
    status: review.status,
    createdAt: review.createdAt.toISOString(),
    removalRequestedAt: review.removalRequestedAt?.toISOString() ?? null,
  };
}

const asDecision = (value: string | null): ReviewDecision | null =>
  (REVIEW_DECISIONS as readonly string[]).includes(value ?? '') ? (value as ReviewDecision) : null;

async function toDetail(ctx: DomainContext, row: Row): Promise<PendingReviewDetail> {
  const { review, advert } = row;
  const others = await ctx.db
    .select({ status: reviews.status, n: count() })
    .from(reviews)
    .where(and(eq(reviews.advertId, advert.id), sql`${reviews.id} <> ${review.id}`))
    .groupBy(reviews.status);
  const countOf = (status: number) => Number(others.find((o) => o.status === status)?.n ?? 0);
  const open = review.status === REVIEW_STATUS.Pending || isRemovalOpen(review);
  return {
    ...toItem(row),
    authorPhone: review.authorPhone ? maskPhone(review.authorPhone) : null,
    reply: review.replyText,
    open,
    decision: asDecision(review.decision),
    decisionReason: review.decisionReason,
    decidedBy: review.decidedBy !== null ? { id: review.decidedBy, name: row.deciderName ?? '' } : null,
    decidedAt: review.decidedAt?.toISOString() ?? null,
    advert: {
      id: advert.id,
      name: advert.name,
      status: advert.status,
      url: isAdvertPublic(advert, ctx.now()) ? advertPath(advert) : null,
    },
    otherReviews: { approved: countOf(REVIEW_STATUS.Approved), pending: countOf(REVIEW_STATUS.Pending) },
  };
}

function selectRows(ctx: DomainContext) {
  return ctx.db
    .select({ review: reviews, advert: adverts, deciderName: supportUsers.name })
    .from(reviews)
    .innerJoin(adverts, eq(adverts.id, reviews.advertId))
    .leftJoin(supportUsers, eq(supportUsers.id, reviews.decidedBy));
}

/** pendingreviews (Support): pending reviews and open removal requests, oldest first (by when they came). */
export async function listPendingReviews(ctx: DomainContext, input: { skip: number; take: number }): Promise<{ total: number; items: PendingReviewItem[] }> {
  requirePermission(ctx.actor, PERMISSION);
  const waitingSince = sql`coalesce(${reviews.removalRequestedAt}, ${reviews.createdAt})`;
  const [totals, rows] = await Promise.all([
    ctx.db.select({ total: count() }).from(reviews).where(reviewWaitsForSupport),
    selectRows(ctx).where(reviewWaitsForSupport).orderBy(asc(waitingSince), asc(reviews.id)).offset(input.skip).limit(input.take),
  ]);
  return { total: Number(totals[0]?.total ?? 0), items: rows.map(toItem) };
}

async function findRow(ctx: DomainContext, id: number): Promise<Row> {
  const [row] = await selectRows(ctx).where(eq(reviews.id, id)).limit(1);
  if (!row) throw notFound('Review');
  return row;
}

/** pendingreview (Support): one review with its advert and its last decision, open or not. */
export async function getPendingReview(ctx: DomainContext, id: number): Promise<PendingReviewDetail> {
  requirePermission(ctx.actor, PERMISSION);
  return toDetail(ctx, await findRow(ctx, id));
}

const alreadyDecided = () => new AppError('CONFLICT', 'The review has already been decided', [{ field: 'Id', message: 'alreadyDecided' }]);

const STATUS_AFTER: Record<ReviewDecision, number | null> = {
  approve: REVIEW_STATUS.Approved,
  reject: REVIEW_STATUS.Rejected,
  remove: REVIEW_STATUS.Hidden,
  keep: null,
};

/**
 * decidereview (Support): approve or reject a pending review; remove or keep a review the advertiser asked
 * to remove. 409 `alreadyDecided` when nothing is open any more (another support user was first); a
 * decision that does not fit (approving a removal request) is 400 at `Decision`.
 */
export async function decideReview(ctx: DomainContext, input: DecideReviewInput, deps: { messaging: Messaging }): Promise<PendingReviewDetail> {
  requirePermission(ctx.actor, PERMISSION);
  const row = await findRow(ctx, input.Id);
  const { review, advert } = row;
  const pending = review.status === REVIEW_STATUS.Pending;
  if (!pending && !isRemovalOpen(review)) throw alreadyDecided();
  const fits = pending ? input.Decision === 'approve' || input.Decision === 'reject' : input.Decision === 'remove' || input.Decision === 'keep';
  if (!fits) throw new AppError('INVALID', 'This decision does not fit the review', [{ field: 'Decision', message: 'invalid' }]);

  const now = ctx.now();
  const decidedBy = ctx.actor.type === 'support' ? ctx.actor.supportUserId : null;
  const status = STATUS_AFTER[input.Decision] ?? review.status;
  // Claimed only in the state it was read in, so two support users deciding at once cannot both decide.
  const [claimed] = await ctx.db
    .update(reviews)
    .set({ status, decision: input.Decision, decisionReason: input.Reason || null, decidedBy, decidedAt: now })
    .where(
      and(
        eq(reviews.id, review.id),
        eq(reviews.status, review.status),
        review.decidedAt === null ? isNull(reviews.decidedAt) : eq(reviews.decidedAt, review.decidedAt),
      ),
    )
    .returning();
  if (!claimed) throw alreadyDecided();
  await writeAudit(ctx, {
    action: `review.${input.Decision}`,
    targetType: 'review',
    targetId: review.id,
    before: { status: review.status, removalRequestedAt: review.removalRequestedAt?.toISOString() ?? null },
    after: { status, advertId: advert.id },
    reason: input.Reason || null,
  });
  if (input.Decision === 'approve' || input.Decision === 'remove') await publishAdvertChange(ctx, advert.id, `review.${input.Decision}`);
  if (input.Decision !== 'reject') {
    const words = { author: review.authorName, rating: review.rating, what: advert.name, reason: input.Reason || null };
    await noticeToAdvertiser(ctx, advert.accountId, reviewDecisionText(input.Decision, words), deps);
  }
  return toDetail(ctx, await findRow(ctx, claimed!.id));
}
