import * as v from 'valibot';
import { optionalTypedDay, querySkip, queryTake, wholeNumber } from './query-values.ts';

/**
 * News for advertisers (issue 17; spec §6 support news: Skip, Take, Title, LocaleId; add, delete):
 * Administration writes them per language; advertisers read them on the dashboard. Dates are days
 * (typed dd-MM-yyyy, carried yyyy-MM-dd, Copenhagen): a news item shows from the start of its first day to the start of its end day.
 */

export const NEWS_LOCALES = ['da', 'en'] as const;
export type NewsLocale = (typeof NEWS_LOCALES)[number];


/** news (GET): a page of news, newest first, by title words and language. */
export const SupportNewsQuerySchema = v.object({
  Skip: querySkip,
  Take: queryTake(200, 20),
  Title: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(200, 'tooLong')), ''),
  LocaleId: v.optional(v.union([v.literal(''), v.picklist(NEWS_LOCALES, 'invalid')], 'invalid'), ''),
});
export type SupportNewsQueryInput = v.InferOutput<typeof SupportNewsQuerySchema>;

/** newsitem (GET), deletenews (POST), readnews (POST): one news item. */
export const NewsIdSchema = v.object({ Id: wholeNumber('required') }, 'required');

/**
 * news (POST): a new news item (no Id) or a change to one. PublishFrom empty: a draft nobody sees;
 * EndsOn empty: shown until deleted.
 */
export const NewsChangeSchema = v.pipe(
  v.object(
    {
      Id: v.optional(v.union([v.literal(''), v.literal(0), wholeNumber('invalid')], 'invalid'), ''),
      LocaleId: v.picklist(NEWS_LOCALES, 'required'),
      Title: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(200, 'tooLong')),
      Body: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(20_000, 'tooLong')),
      PublishFrom: optionalTypedDay,
      EndsOn: optionalTypedDay,
      Pinned: v.optional(v.boolean('invalid'), false),
    },
    'required',
  ),
  v.forward(
    v.check((input) => input.EndsOn === '' || (input.PublishFrom !== '' && input.EndsOn > input.PublishFrom), 'endBeforeStart'),
    ['EndsOn'],
  ),
);
export type NewsChangeInput = v.InferOutput<typeof NewsChangeSchema>;

/** Where a news item stands now: a draft, waiting for its first day, shown, or over. */
export type NewsState = 'draft' | 'scheduled' | 'published' | 'ended';

/** A news item as support sees it. Days as yyyy-MM-dd (Copenhagen). */
export type SupportNewsItem = {
  id: number;
  locale: NewsLocale;
  title: string;
  body: string;
  publishFrom: string;
  endsOn: string;
  pinned: boolean;
  state: NewsState;
  updatedAt: string;
};
