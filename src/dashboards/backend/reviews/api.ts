/** The reviews screen's calls (spec §7: profilereviews, addreview, deletereview). */
import { backendApi } from '#lib/api/backend.ts';

/** Review status: 0 Pending, 1 Approved, 2 Hidden, 3 Rejected. */
export const REVIEW_STATUS = { pending: 0, approved: 1, hidden: 2, rejected: 3 } as const;
export type ReviewStatusName = keyof typeof REVIEW_STATUS;

/** A review of the advertiser's advert (the reviewer's phone stays private). */
export type ProfileReview = {
  id: number;
  authorName: string;
  rating: number;
  text: string;
  status: number;
  reply: string | null;
  replyAt: string | null;
  removalRequested: boolean;
  createdAt: string;
};

const client = backendApi.client;

export const reviewsApi = {
  list: (signal?: AbortSignal) => client.get<ProfileReview[]>('profilereviews', signal ? { signal } : {}),
  /** addreview: the advertiser's one public reply to a review. */
  reply: (reviewId: number, text: string) => client.post<ProfileReview>('addreview', { json: { ReviewId: reviewId, Text: text } }),
  /** deletereview: asks support to remove a review. */
  requestRemoval: (reviewId: number, reason: string) => client.post<ProfileReview>('deletereview', { json: { ReviewId: reviewId, Reason: reason } }),
};
