/** Calls to /api/frontend/ made from the browser. */
import { createApiClient, type ClientOptions, type SearchParams } from './client.ts';
import type { Credentials, FreeTextTarget, LocationSuggestion, UserProfile } from './types.ts';
import type { ClaimMigratedAdvertInput, CreateProfileInput } from '../schemas/account.ts';
import type { FreeTextResult, FrontPageAdverts, FullProfile, SearchResult } from '../schemas/public-advert.ts';
import type { ReportReason } from '../schemas/report-advert.ts';
import type { AddProfileReviewInput, SentReviewCode, WrittenReview } from '../schemas/reviews.ts';

export type ReportAdvertBody = {
  AdvertId: number;
  Reason: ReportReason;
  Details: string;
  Url: string;
  Name: string;
  Email: string;
  GoodFaith: boolean;
};

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** searchpageregions: a region for the /create form's select. */
export type RegionOption = { id: number; name: string; nameEn: string; slug: string };
/** searchpagecities: a city of a region. */
export type CityOption = { id: number; city: string; slug: string; regionId: number; regionSlug: string };
/** sendsms (and confirmsignup's first code): the id codeverification takes, and the number, masked. */
export type SentCode = { id: number; expiresAt: string; phone: string };
/** confirmsignup's answer: the signed-in advertiser's profile, the advert draft, the phone and the first SMS code's id. */
export type ConfirmedSignUp = UserProfile & { email: string; advertId: number; phone: string; phoneVerificationId: number };

export function createFrontendApi(options: ClientOptions = {}) {
  const client = createApiClient('frontend', options);
  return {
    client,
    login: (credentials: Credentials, signal?: AbortSignal) =>
      client.post<UserProfile>('login', { json: credentials, ...withSignal(signal) }),
    impersonate: (url: string) => client.post<unknown>('impersonate', { json: { Url: url } }),
    frontPageAdverts: (locale: string, signal?: AbortSignal) =>
      client.get<FrontPageAdverts>('frontpageprofiles', { searchParams: { Locale: locale }, ...withSignal(signal) }),
    searchProfiles: (params: SearchParams, signal?: AbortSignal) =>
      client.get<SearchResult>('searchpageprofiles', { searchParams: params, ...withSignal(signal) }),
    searchFreeText: (params: SearchParams, signal?: AbortSignal) =>
      client.get<FreeTextResult>('searchpageprofileswithfreetext', { searchParams: params, ...withSignal(signal) }),
    freeTextTarget: (text: string, signal?: AbortSignal) =>
      client.get<FreeTextTarget>('searchpagepagefreetext', { searchParams: { Text: text }, ...withSignal(signal) }),
    searchLocation: (text: string, locale: string, signal?: AbortSignal) =>
      client.get<LocationSuggestion[]>('searchpagesearchlocation', { searchParams: { Text: text, Locale: locale }, ...withSignal(signal) }),
    /**
     * The location box's words once the visitor chose (a suggestion, or Enter): counted as a search term
     * then, not at every keystroke. Sent with keepalive, so the page may go on to the chosen place at once.
     */
    chosenLocation: (text: string, locale: string) =>
      client.get<LocationSuggestion[]>('searchpagesearchlocation', { searchParams: { Text: text, Locale: locale, Chosen: 'true' }, keepalive: true }),
    fullProfile: (id: number, locale: string, signal?: AbortSignal) =>
      client.get<FullProfile>('fullprofile', { searchParams: { Id: id, Locale: locale }, ...withSignal(signal) }),
    session: (signal?: AbortSignal) => client.get<{ signedIn: boolean }>('session', withSignal(signal)),
    reportAdvert: (body: ReportAdvertBody) => client.post<{ id: number; createdAt: string }>('reportadvert', { json: body }),
    /** A code by SMS for a review; 403 Phone `reviewRefused`, 409 Phone `alreadyReviewed`, 429 Phone `tooSoon`. */
    reviewCode: (body: { ProfileId: number; Phone: string; Locale: string }) => client.post<SentReviewCode>('reviewcode', { json: body }),
    /** The review, waiting for support (201); 400 Code `codeWrong`/`codeExpired`. */
    addProfileReview: (body: AddProfileReviewInput) => client.post<WrittenReview>('addprofilereview', { json: body }),

    // Advertiser accounts (spec §7; docs/decisions/010) ---------------------------------------------
    regions: (signal?: AbortSignal) => client.get<RegionOption[]>('searchpageregions', withSignal(signal)),
    cities: (regionId: number, signal?: AbortSignal) =>
      client.get<CityOption[]>('searchpagecities', { searchParams: { Region: regionId }, ...withSignal(signal) }),
    /**
     * The account and its advert draft, unconfirmed: always 202 `{ checkEmail: true }`, whether the address
     * is new or has an account (its owner is emailed instead). The email's link leads to confirmSignUp.
     */
    createProfile: (input: CreateProfileInput) => client.post<{ checkEmail: true }>('createprofile', { json: input }),
    /**
     * The sign-up link's token and the password chosen at sign-up: signs in (session cookie) and sends the
     * SMS code. 400 Token `linkInvalid`; 401 Password `wrongCredentials`; 429 Password `accountLocked`.
     */
    confirmSignUp: (input: { Token: string; Password: string }) => client.post<ConfirmedSignUp>('confirmsignup', { json: input }),
    /** Whose advert of the old site an invitation's link is for (issue 18). 400 Token `linkInvalid`. */
    claimPreview: (token: string) => client.post<{ name: string; email: string }>('claimpreview', { json: { Token: token } }),
    /**
     * Takes over the advert of the old site: the account is made and signed in (session cookie), the SMS code
     * sent. 400 Token `linkInvalid`; 409 Token `emailHasAccount`; field errors at Password, DateOfBirth, AcceptTerms.
     */
    claimMigratedAdvert: (input: ClaimMigratedAdvertInput) => client.post<ConfirmedSignUp>('claimmigratedadvert', { json: input }),
    /** A new SMS code to the account's phone; `Phone` first corrects the number. */
    sendSms: (phone?: string) => client.post<SentCode>('sendsms', { json: phone ? { Phone: phone } : {} }),
    codeVerification: (id: number, code: string) =>
      client.get<undefined>('codeverification', { searchParams: { Id: id, Code: code } }),
    /** Answers 204 whether or not an account has this email. */
    resetPassword: (email: string) => client.post<undefined>('resetpassword', { json: { Email: email } }),
    changePassword: (input: { Token: string; Id: string | number; Password: string }) =>
      client.post<undefined>('changepassword', { json: input }),
    /** Signs in to an account deleted less than 30 days ago and restores it (answers as login). */
    restoreProfile: (credentials: { Email: string; Password: string }) =>
      client.post<UserProfile>('restoreprofile', { json: credentials }),
  };
}

export const frontendApi = createFrontendApi();
