/** Calls of support's news screens (/api/support/news …, Administration) made from the browser. */
import { createApiClient, type ClientOptions } from './client.ts';
import type { Paged } from './support.ts';
import type { NewsChangeInput, SupportNewsItem } from '../schemas/news.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** news: a page, by words of the title and a language (empty: all). */
export type SupportNewsQuery = { Skip?: number; Take?: number; Title?: string; LocaleId?: string };

export function createSupportNewsApi(options: ClientOptions = {}) {
  const client = createApiClient('support', options);
  return {
    list: (query: SupportNewsQuery, signal?: AbortSignal) => client.get<Paged<SupportNewsItem>>('news', { searchParams: query, ...withSignal(signal) }),
    item: (id: number, signal?: AbortSignal) => client.get<SupportNewsItem>('newsitem', { searchParams: { Id: id }, ...withSignal(signal) }),
    /** news (POST): adds (no Id) or changes a news item; the item as saved. */
    save: (body: NewsChangeInput) => client.post<SupportNewsItem>('news', { json: body }),
    remove: (id: number) => client.post<undefined>('deletenews', { json: { Id: id } }),
  };
}

export const supportNewsApi = createSupportNewsApi();
