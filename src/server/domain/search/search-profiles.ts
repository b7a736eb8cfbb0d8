import { and, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { advertSearchDocuments } from '../../db/schema.ts';
import { memoryCards, searchMemory, type MemoryRow } from './search-memory.ts';
import { cachedLocations } from './landing-path.ts';
import { FILTER_DEFAULTS, type SearchProfilesInput } from '#lib/schemas/search.ts';
import { normalisePlaceName } from '#lib/format.ts';
import type { AdvertCard, SearchResult } from '#lib/schemas/public-advert.ts';
import { ADVERT_KINDS, type AdvertKind } from '../adverts/statuses.ts';

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
 * Free text, every word must match: Danish stemming over name, title, texts, city and services, or a
 * substring of name, title, city or services; `fuzzy` adds typo tolerance (trigram word similarity),
 * which is slower and used only when the exact pass finds nothing. A condition on the documents table.
 */
export function textCondition(text: string, options: { fuzzy?: boolean } = {}): SQL | undefined {
  const words = searchWords(text);
  if (words.length === 0) return undefined;
  const d = advertSearchDocuments;
  const perWord = words.map((word) => {
    const exact = sql`(${d.document} @@ plainto_tsquery('danish', ${word}) or ${d.searchText} like ${`%${word.replace(/[%_\\]/g, '')}%`})`;
    return options.fuzzy ? sql`(${exact} or ${word} <% ${d.searchText})` : exact;
  });
  return and(...perWord);
}

/** The adverts whose documents match a text condition. */
async function textMatches(db: Db, condition: SQL): Promise<Set<number>> {
  const rows = await db.select({ id: advertSearchDocuments.advertId }).from(advertSearchDocuments).where(condition);
  return new Set(rows.map((row) => row.id));
}

type Check = (row: MemoryRow) => boolean;

/** An inclusive range check, or none when the range is the filter's default (everything). */
function rangeCheck(field: 'age' | 'height' | 'weight', from: number, to: number, min: number, max: number): Check | undefined {
  if (from === min && to === max) return undefined;
  const low = Math.min(from, to);
  const high = Math.max(from, to);
  return (row) => {
    const value = row[field];
    return value !== null && value >= low && value <= high;
  };
}

/**
 * searchpageprofiles (spec §7), on the search index (public adverts only): search-boosted first, then
 * the most recently updated. Multi-selects: any of the languages, nationalities and breast types; all
 * of the services. An unknown region or city gives no results (the route shows the 404 page). Filters
 * run over the in-memory index (search-memory.ts), starting from the narrowest of the place or kind
 * lists; free text is matched in the database first.
 */
export async function searchProfiles(
  db: Db,
  input: SearchProfilesInput,
  _now: Date,
  options: { text?: SQL } = {},
): Promise<SearchResult> {
  const empty = { total: 0, page: input.Page, pageSize: input.PageSize, items: [] };
  const landing = parseLandingUrl(input.Url);
  const place = await resolvePlace(db, input.Location || landing.region, input.City || landing.city);
  if (place.unknown) return empty;
  const text = options.text ?? textCondition(input.Text);
  const textIds = text ? await textMatches(db, text) : null;
  if (textIds?.size === 0) return empty;
  const memory = await searchMemory(db);

  const checks: (Check | undefined)[] = [];
  const kinds = kindsOf(input, landing.kind).map((kind) => SEARCH_KIND[kind]);
  // Start from the smallest list that the query is sure to stay within; check the rest per row.
  let bucket: string | null = null;
  if (place.cityId) bucket = `city:${place.cityId}`;
  else if (place.regionId) bucket = `region:${place.regionId}`;
  else if (kinds.length === 1) bucket = `kind:${kinds[0]}`;
  if (kinds.length > 0 && kinds.length < 3 && bucket !== `kind:${kinds[0]}`) checks.push((row) => kinds.includes(row.kind));
  const { regionId, cityId } = place;
  if (regionId && bucket !== `region:${regionId}`) checks.push((row) => row.regionId === regionId);
  if (cityId && bucket !== `city:${cityId}`) checks.push((row) => row.cityId === cityId);

  checks.push(rangeCheck('age', input.AgeFrom, input.AgeTo, FILTER_DEFAULTS.ageFrom, FILTER_DEFAULTS.ageTo));
  checks.push(rangeCheck('height', input.HeightFrom, input.HeightTo, FILTER_DEFAULTS.heightFrom, FILTER_DEFAULTS.heightTo));
  checks.push(rangeCheck('weight', input.WeightFrom, input.WeightTo, FILTER_DEFAULTS.weightFrom, FILTER_DEFAULTS.weightTo));
  if (input.Incall) checks.push((row) => row.incall);
  if (input.Outcall) checks.push((row) => row.outcall);
  if (input.Validated) checks.push((row) => row.validated);
  if (input.Video) checks.push((row) => row.hasVideo);
  if (input.Review) checks.push((row) => row.hasReview);
  const { Breasts, Nationalities, Languages, Services } = input;
  if (Breasts.length) checks.push((row) => row.breastType !== null && Breasts.includes(row.breastType));
  if (Nationalities.length) checks.push((row) => row.nationalityId !== null && Nationalities.includes(row.nationalityId));
  if (Languages.length) checks.push((row) => row.languageIds.some((id) => Languages.includes(id)));
  if (Services.length) checks.push((row) => Services.every((id) => row.serviceIds.includes(id)));
  if (textIds) checks.push((row) => textIds.has(row.id));

  const active = checks.filter((check): check is Check => check !== undefined);
  const rows = memory.bucket(bucket);
  const first = (input.Page - 1) * input.PageSize;
  const last = first + input.PageSize;
  let total: number;
  let pageIds: number[];
  if (active.length === 0) {
    total = rows.length;
    pageIds = rows.slice(first, last).map((row) => row.id);
  } else {
    total = 0;
    pageIds = [];
    for (const row of rows) {
      if (!active.every((check) => check(row))) continue;
      if (total >= first && total < last) pageIds.push(row.id);
      total += 1;
    }
  }
  return { total, page: input.Page, pageSize: input.PageSize, items: await memoryCards(db, memory, pageIds, input.Locale) };
}
