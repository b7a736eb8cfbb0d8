import * as v from 'valibot';
import { querySkip, queryTake, wholeNumber } from './query-values.ts';

/**
 * Visitors' search terms as SEO staff see them (issue 17; spec §2 support routes matched-, unmatched-,
 * paired- and ignored-keywords; spec §6 search keywords: GET lists, POST insert, DELETE with Id, remove
 * pair/ignore). A term is what visitors typed, normalised (src/server/domain/search/search-terms.ts).
 */

export const KEYWORD_LISTS = ['matched', 'unmatched', 'paired', 'ignored'] as const;
export type KeywordList = (typeof KEYWORD_LISTS)[number];

/** The periods the lists count over, in days. */
export const KEYWORD_PERIODS = [7, 30, 90] as const;
export type KeywordPeriod = (typeof KEYWORD_PERIODS)[number];

export const KEYWORD_SORTS = ['searches', 'noResults', 'term'] as const;
export type KeywordSort = (typeof KEYWORD_SORTS)[number];

const period = v.optional(
  v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.transform(Number))], 'invalid'),
    v.picklist(KEYWORD_PERIODS, 'invalid'),
  ),
  30,
);

const term = v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(60, 'tooLong'));

/** matchedkeywords, unmatchedkeywords, pairedkeywords, ignoredkeywords (GET): one list, a page of it. */
export const KeywordListQuerySchema = v.object({
  Skip: querySkip,
  Take: queryTake(200, 25),
  Days: period,
  Sort: v.optional(v.picklist(KEYWORD_SORTS, 'invalid'), 'searches'),
  Term: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(60, 'tooLong')), ''),
});
export type KeywordListQuery = v.InferOutput<typeof KeywordListQuerySchema>;

/** keyword (GET): one term's searches per day and what SEO staff decided for it. */
export const KeywordQuerySchema = v.object({ Keyword: term, Days: period });

/**
 * keyword (POST), the spec's insert: ignore a term, or pair it with another term (its searches use that
 * term's results) or with a page of this site (the header search leads there). Exactly one of PairedWith
 * and PageUrl for Kind 'paired'.
 */
export const KeywordInsertSchema = v.pipe(
  v.object(
    {
      Keyword: term,
      Kind: v.picklist(['ignored', 'paired'], 'required'),
      PairedWith: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(60, 'tooLong')), ''),
      PageUrl: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(300, 'tooLong')), ''),
    },
    'required',
  ),
  v.forward(
    v.check((input) => input.Kind !== 'paired' || (input.PairedWith === '') !== (input.PageUrl === ''), 'pairTarget'),
    ['PairedWith'],
  ),
);
export type KeywordInsertInput = v.InferOutput<typeof KeywordInsertSchema>;

/** deletekeyword (the spec's DELETE with Id), removepair, removeignore (POST): one decision by its Id. */
export const KeywordIdSchema = v.object({ Id: wholeNumber('required') }, 'required');

/** Where a term leads: a kind, a region, a city, a service or a landing page of this site. */
export type KeywordTarget = { type: 'kind' | 'region' | 'city' | 'service' | 'page'; title: string; url: string };

/** One row of a list. */
export type KeywordRow = {
  term: string;
  searches: number;
  noResults: number;
  /** The decision's Id (a pair or an ignore), for removepair, removeignore and deletekeyword. */
  id: number | null;
  /** matched: where the term leads by itself. */
  target: KeywordTarget | null;
  /** paired: the other term, or the page. */
  pairedWith: string | null;
  pageUrl: string | null;
  /** When it was paired or ignored, ISO. */
  decidedAt: string | null;
};

export type KeywordListAnswer = { total: number; items: KeywordRow[]; days: KeywordPeriod };

/** keyword (GET): a term, its list, its searches per day (yyyy-MM-dd, zeros included), before and after pairing. */
export type KeywordDetail = KeywordRow & {
  list: KeywordList;
  days: KeywordPeriod;
  perDay: { day: string; searches: number; noResults: number }[];
  /** Searches and those that found nothing before and after the pair (or ignore) was made; null when none. */
  beforeAfter: { before: { searches: number; noResults: number }; after: { searches: number; noResults: number } } | null;
};
