/** Calls of support's advert pages (/api/support/profiles …) made from the browser. */
import { createApiClient, type ClientOptions } from './client.ts';
import type { Paged } from './support.ts';
import type {
  ActionHistoryItem,
  AdvertMedia,
  AdvertMessageItem,
  AdvertProfile,
  AdvertProfileItem,
  AdvertReportItem,
  AdvertReviewItem,
  AdvertStatusChangeInput,
  LoginHistoryItem,
  SendAdvertMessageInput,
} from '../schemas/support-adverts.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

export type AdvertProfilesQuery = { Skip?: number; Take?: number; Id?: string; Name?: string; Email?: string; Phone?: string };
type Page = { Skip?: number; Take?: number };

export function createSupportAdvertsApi(options: ClientOptions = {}) {
  const client = createApiClient('support', options);
  return {
    /** Adverts by id, name, email or phone (each key given must match), newest first. */
    profiles: (query: AdvertProfilesQuery, signal?: AbortSignal) => client.get<Paged<AdvertProfileItem>>('profiles', { searchParams: query, ...withSignal(signal) }),
    profile: (id: number, signal?: AbortSignal) => client.get<AdvertProfile>('profile', { searchParams: { Id: id }, ...withSignal(signal) }),
    /** 409 naming Status: sameStatus, advertDeleted, notApproved, statusNotAllowed. */
    changeStatus: (body: AdvertStatusChangeInput) => client.post<AdvertProfile>('profilestatus', { json: body }),
    loginHistories: (id: number, page: Page, signal?: AbortSignal) =>
      client.get<Paged<LoginHistoryItem>>('loginhistories', { searchParams: { Id: id, ...page }, ...withSignal(signal) }),
    actionHistories: (id: number, page: Page, signal?: AbortSignal) =>
      client.get<Paged<ActionHistoryItem>>('actionhistories', { searchParams: { Id: id, ...page }, ...withSignal(signal) }),
    currentMedia: (id: number, signal?: AbortSignal) => client.get<AdvertMedia>('currentmedia', { searchParams: { Id: id }, ...withSignal(signal) }),
    deletedMedia: (id: number, signal?: AbortSignal) => client.get<AdvertMedia>('deletedmedia', { searchParams: { Id: id }, ...withSignal(signal) }),
    messages: (id: number, page: Page, signal?: AbortSignal) =>
      client.get<Paged<AdvertMessageItem>>('advertmessages', { searchParams: { Id: id, ...page }, ...withSignal(signal) }),
    sendMessage: (body: SendAdvertMessageInput) => client.post<AdvertMessageItem>('advertmessages', { json: body }),
    reviews: (id: number, signal?: AbortSignal) => client.get<AdvertReviewItem[]>('advertreviews', { searchParams: { Id: id }, ...withSignal(signal) }),
    reports: (id: number, signal?: AbortSignal) => client.get<AdvertReportItem[]>('advertreports', { searchParams: { Id: id }, ...withSignal(signal) }),
  };
}

export const supportAdvertsApi = createSupportAdvertsApi();
