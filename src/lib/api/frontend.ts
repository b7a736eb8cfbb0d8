/** Calls to /api/frontend/ made from the browser. */
import { createApiClient, type ClientOptions, type SearchParams } from './client.ts';
import type { Credentials, FreeTextTarget, LocationSuggestion, UserProfile } from './types.ts';
import type { FrontPageAdverts, FullProfile, SearchResult } from '../schemas/public-advert.ts';
import type { ReportReason } from '../schemas/report-advert.ts';

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

export function createFrontendApi(options: ClientOptions = {}) {
  const client = createApiClient('frontend', options);
  return {
    client,
    login: (credentials: Credentials, signal?: AbortSignal) =>
      client.post<UserProfile>('login', { json: credentials, ...withSignal(signal) }),
    impersonate: (url: string) => client.post<unknown>('impersonate', { searchParams: { url } }),
    frontPageAdverts: (locale: string, signal?: AbortSignal) =>
      client.get<FrontPageAdverts>('frontpageprofiles', { searchParams: { Locale: locale }, ...withSignal(signal) }),
    searchProfiles: (params: SearchParams, signal?: AbortSignal) =>
      client.get<SearchResult>('searchpageprofiles', { searchParams: params, ...withSignal(signal) }),
    searchFreeText: (params: SearchParams, signal?: AbortSignal) =>
      client.get<SearchResult & { keyword: string }>('searchpageprofileswithfreetext', { searchParams: params, ...withSignal(signal) }),
    freeTextTarget: (text: string, signal?: AbortSignal) =>
      client.get<FreeTextTarget>('searchpagepagefreetext', { searchParams: { Text: text }, ...withSignal(signal) }),
    searchLocation: (text: string, locale: string, signal?: AbortSignal) =>
      client.get<LocationSuggestion[]>('searchpagesearchlocation', { searchParams: { Text: text, Locale: locale }, ...withSignal(signal) }),
    fullProfile: (id: number, locale: string, signal?: AbortSignal) =>
      client.get<FullProfile>('fullprofile', { searchParams: { Id: id, Locale: locale }, ...withSignal(signal) }),
    session: (signal?: AbortSignal) => client.get<{ signedIn: boolean }>('session', withSignal(signal)),
    reportAdvert: (body: ReportAdvertBody) => client.post<{ id: number; createdAt: string }>('reportadvert', { json: body }),
  };
}

export const frontendApi = createFrontendApi();
