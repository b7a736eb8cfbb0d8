import { and, between, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { advertSearch, advertSearchDocuments } from '../../db/schema.ts';
import { cachedLocations } from './landing-path.ts';
import { FILTER_DEFAULTS, type SearchProfilesInput } from '#lib/schemas/search.ts';
import { normalisePlaceName } from '#lib/format.ts';
import type { AdvertCard, SearchResult } from '#lib/schemas/public-advert.ts';
import { ADVERT_KINDS, type AdvertKind } from '../adverts/statuses.ts';

export type { SearchResult };

/** A text search stops counting here (the answer says `totalCapped`). */
export const COUNT_CAP = 1000;

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
  const d = advertSearchDocuments;
  const rows = await db
    .select({ id: d.advertId, card: locale === 'en' ? d.cardEn : d.cardDa })
    .from(d)
    .where(inArray(d.advertId, ids));
  const byId = new Map(rows.map((row) => [row.id, row.card as AdvertCard]));
  return ids.map((id) => byId.get(id)).filter((card): card is AdvertCard => card !== undefined);
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
 * which is slower and used only when the exact pass finds nothing. Correlated to the search row, so a
 * query ordered by rank can stop as soon as a page is full.
 */
export function textCondition(text: string, options: { fuzzy?: boolean } = {}): SQL | undefined {
  const words = searchWords(text);
  if (words.length === 0) return undefined;
  const d = advertSearchDocuments;
  const perWord = words.map((word) => {
    const exact = sql`(${d.document} @@ plainto_tsquery('danish', ${word}) or ${d.searchText} like ${`%${word.replace(/[%_\\]/g, '')}%`})`;
    return options.fuzzy ? sql`(${exact} or ${word} <% ${d.searchText})` : exact;
  });
  return sql`exists (select 1 from ${d} where ${d.advertId} = ${advertSearch.advertId} and ${and(...perWord)})`;
}

/**
 * searchpageprofiles (spec §7), on the search index (public adverts only): search-boosted first, then
 * the most recently updated. Multi-selects: any of the languages, nationalities and breast types; all
 * of the services. An unknown region or city gives no results (the route shows the 404 page).
 */
export async function searchProfiles(
  db: Db,
  input: SearchProfilesInput,
  _now: Date,
  options: { extraText?: SQL } = {},
): Promise<SearchResult> {
  const landing = parseLandingUrl(input.Url);
  const place = await resolvePlace(db, input.Location || landing.region, input.City || landing.city);
  if (place.unknown) return { total: 0, page: input.Page, pageSize: input.PageSize, items: [] };

  const s = advertSearch;
  const conditions: (SQL | undefined)[] = [];
  const kinds = kindsOf(input, landing.kind);
  if (kinds.length > 0 && kinds.length < 3) conditions.push(inArray(s.kind, kinds.map((kind) => SEARCH_KIND[kind])));
  if (place.regionId) conditions.push(eq(s.regionId, place.regionId));
  if (place.cityId) conditions.push(eq(s.cityId, place.cityId));

  const range = (column: typeof s.age | typeof s.height | typeof s.weight, from: number, to: number, min: number, max: number) =>
    from === min && to === max ? undefined : between(column, Math.min(from, to), Math.max(from, to));
  conditions.push(range(s.age, input.AgeFrom, input.AgeTo, FILTER_DEFAULTS.ageFrom, FILTER_DEFAULTS.ageTo));
  conditions.push(range(s.height, input.HeightFrom, input.HeightTo, FILTER_DEFAULTS.heightFrom, FILTER_DEFAULTS.heightTo));
  conditions.push(range(s.weight, input.WeightFrom, input.WeightTo, FILTER_DEFAULTS.weightFrom, FILTER_DEFAULTS.weightTo));

  if (input.Incall) conditions.push(eq(s.incall, true));
  if (input.Outcall) conditions.push(eq(s.outcall, true));
  if (input.Validated) conditions.push(eq(s.validated, true));
  if (input.Video) conditions.push(eq(s.hasVideo, true));
  if (input.Review) conditions.push(eq(s.hasReview, true));
  if (input.Breasts.length) conditions.push(inArray(s.breastType, input.Breasts));
  if (input.Nationalities.length) conditions.push(inArray(s.nationalityId, input.Nationalities));
  const intArray = (ids: number[]) => sql`array[${sql.join(ids.map((id) => sql`${id}`), sql`, `)}]::integer[]`;
  if (input.Languages.length) conditions.push(sql`${s.languageIds} && ${intArray(input.Languages)}`);
  if (input.Services.length) conditions.push(sql`${s.serviceIds} @> ${intArray(input.Services)}`);
  const text = options.extraText ?? textCondition(input.Text);
  if (text) conditions.push(text);

  const where = and(...conditions.filter((c): c is SQL => c !== undefined));
  const [rows, totals] = await Promise.all([
    db
      .select({ id: s.advertId })
      .from(s)
      .where(where)
      .orderBy(desc(s.rank), desc(s.advertId))
      .limit(input.PageSize)
      .offset((input.Page - 1) * input.PageSize),
    // A text search counts at most COUNT_CAP matches (a common word may match most adverts; the list
    // shows a page at a time anyway); filters alone count exactly over the narrow index.
    text
      ? db.execute(sql`select count(*)::int as n from (select 1 from ${s} where ${where} limit ${COUNT_CAP}) capped`).then(
          (result) => [{ n: ((result as unknown as { rows: { n: number }[] }).rows ?? (result as unknown as { n: number }[]))[0]?.n ?? 0 }],
        )
      : db.select({ n: count() }).from(s).where(where),
  ]);
  const total = Number(totals[0]?.n ?? 0);
  return {
    total,
    ...(text && total >= COUNT_CAP ? { totalCapped: true } : {}),
    page: input.Page,
    pageSize: input.PageSize,
    items: await cardsOf(db, rows.map((row) => row.id), input.Locale),
  };
}
