import type { Db } from '../../db/client.ts';
import { FLAG, memoryCards, searchMemory, type SearchColumns } from './search-memory.ts';
import { cachedLocations } from './landing-path.ts';
import { FILTER_DEFAULTS, type SearchProfilesInput } from '#lib/schemas/search.ts';
import { normalisePlaceName } from '#lib/format.ts';
import type { AdvertCard, SearchResult } from '#lib/schemas/public-advert.ts';
import { ADVERT_KINDS, type AdvertKind } from '../adverts/statuses.ts';
import { rotateBoosted, shuffleMinute } from './ranking.ts';
import { lexemesOf, type TextMatches } from './text-memory.ts';

export type { SearchResult };

/** The search index's kind codes. */
export const SEARCH_KIND: Record<AdvertKind, number> = { escort: 0, 'trans-escort': 1, thaimassage: 2 };

/** The kinds asked for, by flags or by the landing URL's first segment; none means all. */
function kindsOf(input: SearchProfilesInput, urlKind: AdvertKind | null): AdvertKind[] {
  const kinds: AdvertKind[] = [];
  if (input.Escort) kinds.push('escort');
  if (input.TransEscort) kinds.push('trans-escort');
  if (input.Thaimassage) kinds.push('thaimassage');
  if (urlKind && !kinds.includes(urlKind)) kinds.push(urlKind);
  return kinds;
}

type Place = { regionId: number | null; cityId: number | null; unknown: boolean };

/** Region and city by slug, id or name (normalised: case, æøå and ae/oe/aa folded). */
async function resolvePlace(db: Db, regionText: string, cityText: string): Promise<Place> {
  if (!regionText && !cityText) return { regionId: null, cityId: null, unknown: false };
  const regionRows = await cachedLocations(db);
  const matches = (text: string, row: { id: number; slug: string; name: string; nameEn?: string }) => {
    const wanted = normalisePlaceName(text);
    return (
      String(row.id) === text ||
      normalisePlaceName(row.slug) === wanted ||
      normalisePlaceName(row.name) === wanted ||
      (row.nameEn !== undefined && normalisePlaceName(row.nameEn) === wanted)
    );
  };
  const region = regionText ? regionRows.find((row) => matches(regionText, row)) : undefined;
  if (regionText && !region) return { regionId: null, cityId: null, unknown: true };
  let cityId: number | null = null;
  if (cityText) {
    const candidates = (region ? [region] : regionRows).flatMap((r) => r.cities);
    const city = candidates.find((row) => matches(cityText, { id: row.id, slug: row.slug, name: row.city }));
    if (!city) return { regionId: null, cityId: null, unknown: true };
    cityId = city.id;
  }
  return { regionId: region?.id ?? null, cityId, unknown: false };
}

function parseLandingUrl(url: string): { kind: AdvertKind | null; region: string; city: string } {
  const parts = url.replace(/^\/(en\/)?/, '').split('/').filter(Boolean);
  const kind = (ADVERT_KINDS as readonly string[]).includes(parts[0] ?? '') ? (parts[0] as AdvertKind) : null;
  return { kind, region: kind ? (parts[1] ?? '') : '', city: kind ? (parts[2] ?? '') : '' };
}

/** The prebuilt cards of the given adverts, in the order given. */
export async function cardsOf(db: Db, ids: number[], locale: 'da' | 'en'): Promise<AdvertCard[]> {
  if (ids.length === 0) return [];
  return memoryCards(db, await searchMemory(db), ids, locale);
}

/** Splits free text into at most eight words, lower case, letters and digits only. */
export function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}-]/gu, ''))
    .filter((word) => word.length > 0)
    .slice(0, 8);
}

/**
 * The adverts whose texts match any of `texts`, every word of a text matching (Danish stems or a substring:
 * text-memory.ts), from the search memory; null when no text has a word (no text condition).
 */
async function textMatches(db: Db, texts: string[]): Promise<TextMatches | null> {
  const wordLists = texts.map(searchWords).filter((words) => words.length > 0);
  if (wordLists.length === 0) return null;
  const index = await (await searchMemory(db)).texts(db);
  const lexemes = await lexemesOf(db, wordLists.flat());
  return index.find(wordLists.map((words) => words.map((word) => ({ word, lexemes: lexemes.get(word) ?? [] }))));
}

type Range = { low: number; high: number } | null;

/** An inclusive range, or none when the range is the filter's default (everything). */
function rangeOf(from: number, to: number, min: number, max: number): Range {
  return from === min && to === max ? null : { low: Math.min(from, to), high: Math.max(from, to) };
}

/** What a row must satisfy beyond its list (null, 0 or empty: no condition). */
type RowFilter = {
  /** Bits (1 << kind) of the kinds asked for. */
  kinds: number;
  regionId: number | null;
  cityId: number | null;
  age: Range;
  height: Range;
  weight: Range;
  /** FLAG bits that must all be set. */
  flags: number;
  breasts: number[];
  nationalities: number[];
  languages: number[];
  services: number[];
  /** Free text: the matching adverts marked by advert id (text-memory.ts `matching`). */
  ids: Uint8Array | null;
};

function inRange(value: number, range: Range): boolean {
  return range === null || (value >= 0 && value >= range.low && value <= range.high);
}

/** Whether any of values[from..to) is wanted. */
function overlaps(values: Int32Array, from: number, to: number, wanted: number[]): boolean {
  for (let k = from; k < to; k++) if (wanted.includes(values[k]!)) return true;
  return false;
}

/** Whether every wanted id is among values[from..to). */
function containsAll(values: Int32Array, from: number, to: number, wanted: number[]): boolean {
  for (const id of wanted) {
    let found = false;
    for (let k = from; k < to && !found; k++) found = values[k] === id;
    if (!found) return false;
  }
  return true;
}

/**
 * Whether row i matches: reads the columns (search-memory.ts), the cheapest tests first, allocating
 * nothing, so a scan of tens of thousands of rows takes well under a millisecond.
 */
function matches(c: SearchColumns, i: number, f: RowFilter): boolean {
  return (
    (c.flags[i]! & f.flags) === f.flags &&
    (f.kinds === 0 || (f.kinds & (1 << c.kind[i]!)) !== 0) &&
    (f.regionId === null || c.regionId[i] === f.regionId) &&
    (f.cityId === null || c.cityId[i] === f.cityId) &&
    inRange(c.age[i]!, f.age) &&
    inRange(c.height[i]!, f.height) &&
    inRange(c.weight[i]!, f.weight) &&
    (f.breasts.length === 0 || f.breasts.includes(c.breastType[i]!)) &&
    (f.nationalities.length === 0 || f.nationalities.includes(c.nationalityId[i]!)) &&
    (f.languages.length === 0 || overlaps(c.languages, c.languageStart[i]!, c.languageStart[i + 1]!, f.languages)) &&
    (f.services.length === 0 || containsAll(c.services, c.serviceStart[i]!, c.serviceStart[i + 1]!, f.services)) &&
    (f.ids === null || f.ids[c.id[i]!] === 1)
  );
}

function isEverything(f: RowFilter): boolean {
  return (
    f.kinds === 0 && f.regionId === null && f.cityId === null && f.age === null && f.height === null && f.weight === null &&
    f.flags === 0 && f.breasts.length + f.nationalities.length + f.languages.length + f.services.length === 0 &&
    f.ids === null
  );
}

/**
 * searchpageprofiles (spec §7), on the search index (public adverts only): search-boosted first, turned
 * fairly every minute (ranking.ts `rotateBoosted`), then the most recently updated. Multi-selects: any of the languages, nationalities and breast types; all
 * of the services. An unknown region or city gives no results (the route shows the 404 page). Filters
 * run over the in-memory index (search-memory.ts), starting from the narrowest of the place or kind
 * lists; free text in memory too (text-memory.ts).
 */
export async function searchProfiles(
  db: Db,
  input: SearchProfilesInput,
  now: Date,
  /** Free texts of which any may match (a term and those paired with it), instead of `input.Text`. */
  options: { texts?: string[] } = {},
): Promise<SearchResult> {
  const empty = { total: 0, page: input.Page, pageSize: input.PageSize, items: [] };
  const landing = parseLandingUrl(input.Url);
  const place = await resolvePlace(db, input.Location || landing.region, input.City || landing.city);
  if (place.unknown) return empty;
  const text = await textMatches(db, options.texts ?? [input.Text]);
  if (text?.count === 0) return empty;
  const textIds = text?.marks ?? null;
  const memory = await searchMemory(db);

  const kinds = kindsOf(input, landing.kind).map((kind) => SEARCH_KIND[kind]);
  // Start from the smallest list that the query is sure to stay within; check the rest per row.
  let bucket: string | null = null;
  if (place.cityId) bucket = `city:${place.cityId}`;
  else if (place.regionId) bucket = `region:${place.regionId}`;
  else if (kinds.length === 1) bucket = `kind:${kinds[0]}`;
  const filter: RowFilter = {
    kinds: kinds.length > 0 && kinds.length < 3 && bucket !== `kind:${kinds[0]}` ? kinds.reduce((bits, kind) => bits | (1 << kind), 0) : 0,
    regionId: place.regionId && bucket !== `region:${place.regionId}` ? place.regionId : null,
    cityId: place.cityId && bucket !== `city:${place.cityId}` ? place.cityId : null,
    age: rangeOf(input.AgeFrom, input.AgeTo, FILTER_DEFAULTS.ageFrom, FILTER_DEFAULTS.ageTo),
    height: rangeOf(input.HeightFrom, input.HeightTo, FILTER_DEFAULTS.heightFrom, FILTER_DEFAULTS.heightTo),
    weight: rangeOf(input.WeightFrom, input.WeightTo, FILTER_DEFAULTS.weightFrom, FILTER_DEFAULTS.weightTo),
    flags:
      (input.Incall ? FLAG.incall : 0) |
      (input.Outcall ? FLAG.outcall : 0) |
      (input.Validated ? FLAG.validated : 0) |
      (input.Video ? FLAG.video : 0) |
      (input.Review ? FLAG.review : 0),
    breasts: input.Breasts,
    nationalities: input.Nationalities,
    languages: input.Languages,
    services: input.Services,
    ids: textIds,
  };

  const c = memory.columns();
  // The positions to look at, in result order (all rows when no list applies).
  const list = bucket === null ? null : (c.lists.get(bucket) ?? new Int32Array(0));
  const size = list ? list.length : c.size;
  const first = (input.Page - 1) * input.PageSize;
  const last = first + input.PageSize;
  let total = 0;
  // Search-boosted rows come first in rank order: they are collected whole (to be turned for this
  // minute), the others only where they fall on the page.
  const boosted: number[] = [];
  const pageIds: number[] = [];
  const isBoosted = (i: number) => (c.flags[i]! & FLAG.searchBoosted) !== 0;
  const count = (i: number) => {
    if (isBoosted(i)) boosted.push(c.id[i]!);
    else if (total >= first && total < last) pageIds.push(c.id[i]!);
    total += 1;
  };
  if (isEverything(filter)) {
    total = size;
    let k = 0;
    for (; k < size && isBoosted(list ? list[k]! : k); k++) boosted.push(c.id[list ? list[k]! : k]!);
    for (k = Math.max(k, first); k < Math.min(last, size); k++) pageIds.push(c.id[list ? list[k]! : k]!);
  } else {
    for (let k = 0; k < size; k++) {
      const i = list ? list[k]! : k;
      if (matches(c, i, filter)) count(i);
    }
  }
  return {
    total,
    page: input.Page,
    pageSize: input.PageSize,
    items: await memoryCards(db, memory, [...rotateBoosted(boosted, shuffleMinute(now)).slice(first, last), ...pageIds], input.Locale),
  };
}
