/** Calls to /api/support/ (support staff's session) made from the browser. */
import { createApiClient, type ClientOptions } from './client.ts';
import type {
  PendingCounts,
  SaveSupportUserBody,
  SupportCredentials,
  SupportProfile,
  SupportUserList,
  SupportUserRow,
  TwoFactorSetup,
} from './types.ts';
import type {
  AppealItem,
  AppealsQueryInput,
  ContentReportDetail,
  ContentReportItem,
  ContentReportsQueryInput,
  DecideAppealInput,
  DecideContentReportInput,
} from '../schemas/moderation.ts';
import type { DecideValidationInput, ValidationDetail, ValidationItem } from '../schemas/verification.ts';
import type { DecideReviewInput, PendingReviewDetail, PendingReviewItem } from '../schemas/reviews.ts';
import type { ReviewAdvertAnswer, ReviewAction, ReviewField, ReviewQueueAnswer, ReviewQueueKind, RiskWord } from '../schemas/review.ts';
import type { BackendPicture, BackendVideo } from '../schemas/media.ts';
import type { TermsRule } from '../schemas/moderation.ts';
import type { ImpersonationLinkAnswer } from '../schemas/impersonation.ts';

/** One field's decision in a review save (`Value` with modify, `Reason` with refuse). */
export type ReviewFieldDecision = { Field: ReviewField; Action: ReviewAction; Value?: unknown; Reason?: string };

/** The review saved once: the fields' decisions, and Approve or Decline of a new advert. */
export type SaveReviewBody = {
  Id: number;
  Fields?: ReviewFieldDecision[];
  Approve?: boolean;
  Decline?: { Reason: string; Rule: TermsRule } | null;
};

/** Support's decision on a pending picture or video (a reason is told to the advertiser). */
export type MediaDecisionBody = { Id: number; Reason: string; Rule?: TermsRule };

/** A page of a list: the rows and how many there are in all. */
export type Paged<T> = { total: number; items: T[] };

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

export function createSupportApi(options: ClientOptions = {}) {
  const client = createApiClient('support', options);
  // Support's media moderation lives under the backend's names (/api/backend/approveimageitem, …), with the support session.
  const media = createApiClient('backend', options);
  return {
    client,
    supportProfile: (signal?: AbortSignal) => client.get<SupportProfile>('supportprofile', withSignal(signal)),
    /** Whether the browser has a support session; 200 either way (the sign-in screens, whose visitors mostly have none). */
    session: (signal?: AbortSignal) => client.get<{ signedIn: boolean }>('session', withSignal(signal)),
    /** 401 with field `code` (codeRequired, codeWrong) when two-step sign-in is on. */
    login: (credentials: SupportCredentials) => client.post<SupportProfile>('login', { json: credentials }),
    logout: () => client.post<undefined>('logout'),
    /** 204 whether or not a support user has this email. */
    resetPassword: (email: string) => client.post<undefined>('resetpassword', { json: { Email: email } }),
    changePassword: (input: { Token: string; Id: string | number; Password: string }) =>
      client.post<undefined>('changepassword', { json: input }),

    /** A new secret against the password (none on yet) or a current code of the authenticator that is on. */
    twoFactorSetup: (proof: { Password: string } | { Code: string }) => client.post<TwoFactorSetup>('twofactorsetup', { json: proof }),
    twoFactorConfirm: (code: string) => client.post<undefined>('twofactorconfirm', { json: { Code: code } }),
    twoFactorDisable: (code: string) => client.post<undefined>('twofactordisable', { json: { Code: code } }),

    users: (query: { Skip?: number; Take?: number; Text?: string }, signal?: AbortSignal) =>
      client.get<SupportUserList>('users', { searchParams: query, ...withSignal(signal) }),
    user: (id: number, signal?: AbortSignal) => client.get<SupportUserRow>('user', { searchParams: { Id: id }, ...withSignal(signal) }),
    /** Creates (201) or updates (200) a support user. */
    saveUser: (body: SaveSupportUserBody) => client.post<SupportUserRow>('users', { json: body }),
    removeUser: (id: number) => client.post<undefined>('removeuser', { json: { Id: id } }),

    pendingCounts: (signal?: AbortSignal) => client.get<PendingCounts>('pendingcounts', withSignal(signal)),

    /** Reports from the public profiles: open ones urgent first, then oldest; decided ones newest decision first. */
    contentReports: (query: Partial<ContentReportsQueryInput>, signal?: AbortSignal) =>
      client.get<Paged<ContentReportItem>>('contentreports', { searchParams: query, ...withSignal(signal) }),
    /** One report; opening a new one marks it in progress. */
    contentReport: (id: number, signal?: AbortSignal) =>
      client.get<ContentReportDetail>('contentreport', { searchParams: { Id: id }, ...withSignal(signal) }),
    /** 409 with field Id `alreadyDecided` when decided before. */
    decideContentReport: (body: DecideContentReportInput) => client.post<ContentReportDetail>('decidecontentreport', { json: body }),
    /** Visitors' reviews waiting for approval and reviews the advertiser asked to remove, oldest first. */
    pendingReviews: (query: { Skip?: number; Take?: number }, signal?: AbortSignal) =>
      client.get<Paged<PendingReviewItem>>('pendingreviews', { searchParams: query, ...withSignal(signal) }),
    pendingReview: (id: number, signal?: AbortSignal) =>
      client.get<PendingReviewDetail>('pendingreview', { searchParams: { Id: id }, ...withSignal(signal) }),
    /** 409 with field Id `alreadyDecided` when nothing is open any more. */
    decideReview: (body: DecideReviewInput) => client.post<PendingReviewDetail>('decidereview', { json: body }),
    /** Appeals against statements of reasons, oldest appeal first; open (the default) or decided. */
    appeals: (query: Partial<AppealsQueryInput>, signal?: AbortSignal) =>
      client.get<Paged<AppealItem>>('appeals', { searchParams: query, ...withSignal(signal) }),
    /** 403 with field Id `sameModerator` for the one who made the decision; 409 `alreadyDecided`. */
    /** One appeal by its statement's id, open or decided. */
    appeal: (id: number, signal?: AbortSignal) => client.get<AppealItem>('appeal', { searchParams: { Id: id }, ...withSignal(signal) }),
    decideAppeal: (body: DecideAppealInput) => client.post<undefined>('decideappeal', { json: body }),

    /** Verifications waiting for a decision (oldest first; the default) or decided ones (latest first). */
    validations: (query: { Status?: 'pending' | 'decided'; Skip?: number; Take?: number }, signal?: AbortSignal) =>
      client.get<Paged<ValidationItem>>('validations', { searchParams: query, ...withSignal(signal) }),
    /** One verification with the advert's data and its files (each opening of a file is audited). */
    validation: (id: number, signal?: AbortSignal) => client.get<ValidationDetail>('validation', { searchParams: { Id: id }, ...withSignal(signal) }),
    /** The decisions answer the verification; 409 with field Id `alreadyDecided` or `notSubmitted`. */
    acceptValidation: (id: number) => client.post<ValidationDetail>('acceptvalidation', { json: { Id: id } }),
    declineValidation: (body: DecideValidationInput) => client.post<ValidationDetail>('declinevalidation', { json: body }),
    rejectValidation: (body: DecideValidationInput) => client.post<ValidationDetail>('rejectvalidation', { json: body }),

    /** New adverts (the default), pending changes or pending media; risk signals first, then the longest waiting. */
    reviewQueue: (query: { Kind?: ReviewQueueKind; Skip?: number; Take?: number }, signal?: AbortSignal) =>
      client.get<ReviewQueueAnswer>('reviewqueue', { searchParams: query, ...withSignal(signal) }),
    /** One advert for review: each field's approved and proposed value, pending media and risk signals. */
    reviewAdvert: (id: number, signal?: AbortSignal) =>
      client.get<ReviewAdvertAnswer>('reviewadvert', { searchParams: { Id: id }, ...withSignal(signal) }),
    /** 400 naming the field (`notPending`, a form rule); 409 `notNew`, or Approve `notVerified`. */
    saveReview: (body: SaveReviewBody) => client.post<ReviewAdvertAnswer>('reviewadvert', { json: body }),
    approvePicture: (id: number) => media.post<BackendPicture>('approveimageitem', { json: { Id: id } }),
    declinePicture: (body: MediaDecisionBody) => media.post<BackendPicture>('declineimageitem', { json: body }),
    approveVideo: (id: number) => media.post<BackendVideo>('approvevideoitem', { json: { Id: id } }),
    declineVideo: (body: MediaDecisionBody) => media.post<BackendVideo>('declinevideoitem', { json: body }),
    /** Removes a picture or video for good (the advertiser gets a statement of reasons); a decline keeps it for the advertiser to see. */
    removePicture: (body: MediaDecisionBody) => media.post<BackendPicture>('removeimageitem', { json: body }),
    removeVideo: (body: MediaDecisionBody) => media.post<undefined>('removevideoitem', { json: body }),

    /** The words that suggest a minor, alphabetically; adding one already there: 409 with field Word `duplicate`. */
    riskWords: (signal?: AbortSignal) => client.get<RiskWord[]>('riskwords', withSignal(signal)),
    addRiskWord: (word: string) => client.post<RiskWord[]>('riskwords', { json: { Word: word } }),
    removeRiskWord: (id: number) => client.post<RiskWord[]>('removeriskword', { json: { Id: id } }),

    /** A one-time link (2 minutes, this support user only) into the advert's backend as the advertiser. */
    impersonation: (profileId: number) => client.post<ImpersonationLinkAnswer>('impersonation', { json: { ProfileId: profileId } }),
  };
}

export const supportApi = createSupportApi();
