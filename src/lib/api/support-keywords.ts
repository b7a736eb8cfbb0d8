/** Calls of support's keyword screens (/api/support/…keywords, keyword; SEO) made from the browser. */
import { createApiClient, type ClientOptions } from './client.ts';
import type { KeywordDetail, KeywordInsertInput, KeywordList, KeywordListAnswer, KeywordPeriod, KeywordRow, KeywordSort } from '../schemas/keywords.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

export type KeywordListRequest = { Skip?: number; Take?: number; Days?: KeywordPeriod; Sort?: KeywordSort; Term?: string };

export function createSupportKeywordsApi(options: ClientOptions = {}) {
  const client = createApiClient('support', options);
  return {
    /** matchedkeywords, unmatchedkeywords, pairedkeywords, ignoredkeywords: a page of one list. */
    list: (list: KeywordList, query: KeywordListRequest, signal?: AbortSignal) =>
      client.get<KeywordListAnswer>(`${list}keywords`, { searchParams: query, ...withSignal(signal) }),
    /** keyword (GET): one term's searches per day and its decision. */
    keyword: (keyword: string, days: KeywordPeriod, signal?: AbortSignal) =>
      client.get<KeywordDetail>('keyword', { searchParams: { Keyword: keyword, Days: days }, ...withSignal(signal) }),
    /** keyword (POST), the spec's insert: ignore, or pair with a term or a page. */
    insert: (body: KeywordInsertInput) => client.post<KeywordRow>('keyword', { json: body }),
    removePair: (id: number) => client.post<undefined>('removepair', { json: { Id: id } }),
    removeIgnore: (id: number) => client.post<undefined>('removeignore', { json: { Id: id } }),
  };
}

export const supportKeywordsApi = createSupportKeywordsApi();
