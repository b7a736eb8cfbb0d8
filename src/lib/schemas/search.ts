import * as v from 'valibot';
import { queryFlag } from './query-values.ts';

/** Filter defaults (spec §5, §9); ranges travel in URLs only when they differ from these. */
export const FILTER_DEFAULTS = {
  ageFrom: 18,
  ageTo: 80,
  heightFrom: 140,
  heightTo: 220,
  weightFrom: 40,
  weightTo: 120,
} as const;

export const PAGE_SIZE = 24;

const flag = queryFlag('flag');

const ids = v.optional(
  v.pipe(
    v.union([v.string(), v.array(v.union([v.string(), v.number()])), v.number()]),
    v.transform((value) => (Array.isArray(value) ? value.join(',') : String(value))),
    v.transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
    v.check((parts) => parts.every((part) => /^\d{1,9}$/.test(part)), 'ids'),
    v.transform((parts) => parts.map(Number)),
    v.maxLength(100, 'tooMany'),
  ),
  [],
);

const bounded = (min: number, max: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,3}$/, 'number'), v.transform(Number))], 'number'),
      v.integer('number'),
      v.minValue(min, 'range'),
      v.maxValue(max, 'range'),
    ),
    fallback,
  );

const slugOrId = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'tooLong')), '');

/** searchpageprofiles (spec §7): every parameter the spec names, plus paging and locale. */
export const SearchProfilesSchema = v.object({
  Location: slugOrId,
  City: slugOrId,
  Languages: ids,
  Nationalities: ids,
  Services: ids,
  Breasts: ids,
  AgeFrom: bounded(18, 80, FILTER_DEFAULTS.ageFrom),
  AgeTo: bounded(18, 80, FILTER_DEFAULTS.ageTo),
  HeightFrom: bounded(140, 220, FILTER_DEFAULTS.heightFrom),
  HeightTo: bounded(140, 220, FILTER_DEFAULTS.heightTo),
  WeightFrom: bounded(40, 120, FILTER_DEFAULTS.weightFrom),
  WeightTo: bounded(40, 120, FILTER_DEFAULTS.weightTo),
  Incall: flag,
  Outcall: flag,
  Validated: flag,
  Video: flag,
  Review: flag,
  Escort: flag,
  TransEscort: flag,
  Thaimassage: flag,
  Text: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'tooLong')), ''),
  Url: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(300, 'tooLong')), ''),
  Page: bounded(1, 999, 1),
  PageSize: bounded(1, 60, PAGE_SIZE),
  Locale: v.optional(v.picklist(['da', 'en'], 'locale'), 'da'),
});

export type SearchProfilesInput = v.InferOutput<typeof SearchProfilesSchema>;
