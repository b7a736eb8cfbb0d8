/** Calls of support's SEO page screens (/api/support/landingpages …, SEO) made from the browser. */
import { createApiClient, type ClientOptions } from './client.ts';
import type { Paged } from './support.ts';
import { uploadFiles } from './upload.ts';
import type { LandingPageChangeInput, SupportLandingListItem, SupportLandingPage } from '../schemas/landing-page.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** landingpages: a page of the list by the spec's fields (empty: any), and pages without text only. */
export type LandingPagesQuery = { Skip?: number; Take?: number; Id?: string; Title?: string; Url?: string; TypeValue?: string; WithoutText?: boolean; RegionId?: string; CityId?: string };

export function createSupportSeoPagesApi(options: ClientOptions = {}) {
  const client = createApiClient('support', options);
  return {
    list: (query: LandingPagesQuery, signal?: AbortSignal) =>
      client.get<Paged<SupportLandingListItem>>('landingpages', { searchParams: query, ...withSignal(signal) }),
    page: (id: number, signal?: AbortSignal) => client.get<SupportLandingPage>('landingpage', { searchParams: { Id: id }, ...withSignal(signal) }),
    /** landingpage (POST): adds (no id) or changes a page with both twins; the page as saved. */
    save: (body: LandingPageChangeInput) => client.post<SupportLandingPage>('landingpage', { json: body }),
    publish: (id: number, published: boolean) => client.post<SupportLandingPage>('publishlandingpage', { json: { Id: id, Published: published } }),
    remove: (id: number) => client.post<undefined>('deletelandingpage', { json: { Id: id } }),
    removeImage: (id: number, key: string) => client.post<SupportLandingPage>('deletelandingpageimage', { json: { Id: id, Key: key } }),
    /** landingpageimage (multipart): one picture with its alt text. */
    uploadImage: (id: number, alt: string, file: File, onProgress?: (fraction: number) => void) =>
      uploadFiles<SupportLandingPage>('support', 'landingpageimage', [file], { fields: { Id: String(id), Alt: alt }, ...(onProgress ? { onProgress } : {}) }),
  };
}

export const supportSeoPagesApi = createSupportSeoPagesApi();
