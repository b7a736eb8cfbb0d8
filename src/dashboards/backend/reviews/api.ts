/** The reviews screen's calls (spec §7: profilereviews, addreview, deletereview). */
import { backendApi } from '#lib/api/backend.ts';
import type { ProfileReview } from '#lib/schemas/backend-answers.ts';

/** Review status: 0 Pending, 1 Approved, 2 Hidden, 3 Rejected. */
export const REVIEW_STATUS = { pending: 0, approved: 1, hidden: 2, rejected: 3 } as const;
export type ReviewStatusName = keyof typeof REVIEW_STATUS;

export type { ProfileReview };

const client = backendApi.client;

export const reviewsApi = {
  list: (signal?: AbortSignal) => client.get<ProfileReview[]>('profilereviews', signal ? { signal } : {}),
  /** addreview: the advertiser's one public reply to a review. */
  reply: (reviewId: number, text: string) => client.post<ProfileReview>('addreview', { json: { ReviewId: reviewId, Text: text } }),
  /** deletereview: asks support to remove a review. */
  requestRemoval: (reviewId: number, reason: string) => client.post<ProfileReview>('deletereview', { json: { ReviewId: reviewId, Reason: reason } }),
};
