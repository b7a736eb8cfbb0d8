import * as v from 'valibot';
import { wholeNumber } from './query-values.ts';
import { danishPhone } from './account.ts';

/**
 * Visitors' reviews (issue 6): the public calls that write one (a code by SMS confirms the visitor's phone),
 * support's queue of pending reviews and removal requests, and the shapes of their answers. The call names
 * are ours (the spec names none): POST /api/frontend/reviewcode, POST /api/frontend/addprofilereview,
 * GET /api/support/pendingreviews, GET /api/support/pendingreview, POST /api/support/decidereview.
 */

/** A review's text: 10 to 2000 characters; the name shown with it: up to 60. */
export const REVIEW_TEXT_MIN = 10;
export const REVIEW_TEXT_MAX = 2000;
export const REVIEW_NAME_MAX = 60;

/** A whole number given as a number or as digits in a string (query parameters and form values are strings). */

const profileId = wholeNumber('required');

/** reviewcode: a 6-digit code by SMS to the visitor's phone, for a review of one advert. */
export const ReviewCodeSchema = v.object(
  { ProfileId: profileId, Phone: danishPhone, Locale: v.optional(v.picklist(['da', 'en'], 'locale'), 'da') },
  'required',
);
export type ReviewCodeInput = v.InferOutput<typeof ReviewCodeSchema>;

/** addprofilereview: the review itself with the phone and the code sent to it. */
export const AddProfileReviewSchema = v.object(
  {
    ProfileId: profileId,
    Name: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(REVIEW_NAME_MAX, 'tooLong')),
    Rating: v.pipe(wholeNumber('rating'), v.minValue(1, 'rating'), v.maxValue(5, 'rating')),
    Text: v.pipe(
      v.string('required'),
      v.trim(),
      v.nonEmpty('required'),
      v.minLength(REVIEW_TEXT_MIN, 'tooShort'),
      v.maxLength(REVIEW_TEXT_MAX, 'tooLong'),
    ),
    Phone: danishPhone,
    Code: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.regex(/^\d{6}$/, 'code')),
  },
  'required',
);
export type AddProfileReviewInput = v.InferOutput<typeof AddProfileReviewSchema>;

/** What the visitor is told: the review waits for support. */
export type WrittenReview = { id: number; status: number; createdAt: string };
/** What reviewcode answers: until when the code works, and the number it went to, masked. */
export type SentReviewCode = { expiresAt: string; phone: string };

// ---- Support ----------------------------------------------------------------------------------

/** pendingreviews: pending reviews and removal requests, oldest first; paged. */
export const PendingReviewsQuerySchema = v.object({
  Skip: v.optional(v.pipe(wholeNumber('number'), v.minValue(0, 'range')), 0),
  Take: v.optional(v.pipe(wholeNumber('number'), v.minValue(1, 'range'), v.maxValue(200, 'range')), 50),
});
export type PendingReviewsQueryInput = v.InferOutput<typeof PendingReviewsQuerySchema>;

export const PendingReviewIdSchema = v.object({ Id: wholeNumber('required') }, 'required');

/**
 * Support's decisions: a pending review is approved or rejected (with a reason, kept for the record); a
 * review the advertiser asked to remove is removed or kept.
 */
export const REVIEW_DECISIONS = ['approve', 'reject', 'remove', 'keep'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** decidereview: the decision; a reason is required when rejecting. */
export const DecideReviewSchema = v.pipe(
  v.object(
    {
      Id: wholeNumber('required'),
      Decision: v.picklist(REVIEW_DECISIONS, 'required'),
      Reason: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(1000, 'tooLong')), ''),
    },
    'required',
  ),
  v.forward(
    v.partialCheck([['Decision'], ['Reason']], (input) => input.Decision !== 'reject' || input.Reason !== '', 'required'),
    ['Reason'],
  ),
);
export type DecideReviewInput = v.InferOutput<typeof DecideReviewSchema>;

/** Why a review is in the queue: a new one waits for approval, or the advertiser asked to remove it. */
export type PendingReviewKind = 'new' | 'removal';

/** One review in support's queue (pendingreviews). */
export type PendingReviewItem = {
  id: number;
  kind: PendingReviewKind;
  advertId: number;
  advertName: string;
  authorName: string;
  rating: number;
  text: string;
  /** 0 Pending, 1 Approved, 2 Hidden (removed), 3 Rejected. */
  status: number;
  createdAt: string;
  removalRequestedAt: string | null;
};

/** One review with its advert and its decision (pendingreview, decidereview). */
export type PendingReviewDetail = PendingReviewItem & {
  /** The visitor's confirmed number, masked (support sees it, the public never). */
  authorPhone: string | null;
  reply: string | null;
  /** Whether support has something to decide now. */
  open: boolean;
  /** The last decision: code, reason, who, when. */
  decision: ReviewDecision | null;
  decisionReason: string | null;
  decidedBy: { id: number; name: string } | null;
  decidedAt: string | null;
  advert: { id: number; name: string; status: number; url: string | null };
  /** Other reviews of the same advert by their status. */
  otherReviews: { approved: number; pending: number };
};
