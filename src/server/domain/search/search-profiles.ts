import { and, between, count, desc, eq, gt, inArray, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { advertLanguages, advertServices, adverts, cities, regions, reviews, services, videos } from '../../db/schema.ts';
import { FILTER_DEFAULTS, type SearchProfilesInput } from '#lib/schemas/search.ts';
import { normalisePlaceName } from '#lib/format.ts';
import { publicAdvertCondition } from '../adverts/visibility.ts';
import { ADVERT_KINDS, ADVERT_TYPE, GENDER, type AdvertKind } from '../adverts/statuses.ts';
import { listAdvertCards, type AdvertCard } from './advert-card.ts';

export type SearchResult = { total: number; page: number; pageSize: number; items: AdvertCard[] };

export function kindCondition(kind: AdvertKind): SQL {
  if (kind === 'thaimassage') return eq(adverts.kind, ADVERT_TYPE.ThaiMassage);
  if (kind === 'trans-escort') return and(eq(adverts.kind, ADVERT_TYPE.IndependentEscort), eq(adverts.gender, GENDER.Transgender)) as SQL;
  return and(eq(adverts.kind, ADVERT_TYPE.IndependentEscort), ne(adverts.gender, GENDER.Transgender)) as SQL;
}

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
  const [regionRows, cityRows] = await Promise.all([
    db.select({ id: regions.id, slug: regions.slug, name: regions.name, nameEn: regions.nameEn }).from(regions),
    cityText ? db.select({ id: cities.id, regionId: cities.regionId, slug: cities.slug, name: cities.name }).from(cities) : [],
  ]);
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
    const city = cityRows.find((row) => (!region || row.regionId === region.id) && matches(cityText, row));
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

/** Free text: name, title, texts, city and services, Danish stemming, accents folded, typos tolerated. */
export function textCondition(text: string): SQL | undefined {
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}-]/gu, ''))
    .filter((word) => word.length > 0)
    .slice(0, 8);
  if (words.length === 0) return undefined;
  const document = sql`(
    setweight(to_tsvector('danish', coalesce(${adverts.name}, '')), 'A') ||
    setweight(to_tsvector('danish', coalesce(${adverts.title}, '') || ' ' || coalesce(${adverts.titleEn}, '')), 'B') ||
    to_tsvector('danish', coalesce(${adverts.introduction}, '') || ' ' || coalesce(${adverts.description}, '') || ' ' ||
      coalesce(${adverts.introductionEn}, '') || ' ' || coalesce(${adverts.descriptionEn}, '')))`;
  const perWord = words.map((word) => {
    const pattern = `%${word}%`;
    return sql`(
      ${document} @@ plainto_tsquery('danish', ${word})
      or ${adverts.name} ilike ${pattern}
      or exists (select 1 from ${cities} c where c.id = ${adverts.cityId} and (c.name ilike ${pattern} or word_similarity(${word}, c.name) >= 0.5))
      or exists (select 1 from ${advertServices} s join ${services} sv on sv.id = s.service_id
                 where s.advert_id = ${adverts.id} and (sv.name_da ilike ${pattern} or sv.name_en ilike ${pattern}
                   or word_similarity(${word}, sv.name_da) >= 0.5 or word_similarity(${word}, sv.name_en) >= 0.5))
      or word_similarity(${word}, ${adverts.name}) >= 0.5
      or word_similarity(${word}, ${adverts.title}) >= 0.5
    )`;
  });
  return and(...perWord);
}

/**
 * searchpageprofiles (spec §7): public adverts matching every filter; search-boosted first, then the
 * most recently updated. Multi-selects: any of the languages, nationalities and breast types; all of
 * the services. An unknown region or city gives no results (the route shows the 404 page).
 */
export async function searchProfiles(db: Db, input: SearchProfilesInput, now: Date, options: { extraText?: SQL } = {}): Promise<SearchResult> {
  const landing = parseLandingUrl(input.Url);
  const place = await resolvePlace(db, input.Location || landing.region, input.City || landing.city);
  const empty = { total: 0, page: input.Page, pageSize: input.PageSize, items: [] };
  if (place.unknown) return empty;

  const conditions: (SQL | undefined)[] = [publicAdvertCondition(now)];
  const kinds = kindsOf(input, landing.kind);
  if (kinds.length > 0 && kinds.length < 3) conditions.push(or(...kinds.map(kindCondition)));
  if (place.regionId) conditions.push(eq(adverts.regionId, place.regionId));
  if (place.cityId) conditions.push(eq(adverts.cityId, place.cityId));

  const range = (column: typeof adverts.age | typeof adverts.height | typeof adverts.weight, from: number, to: number, min: number, max: number) => {
    if (from === min && to === max) return undefined;
    return between(column, Math.min(from, to), Math.max(from, to));
  };
  conditions.push(range(adverts.age, input.AgeFrom, input.AgeTo, FILTER_DEFAULTS.ageFrom, FILTER_DEFAULTS.ageTo));
  conditions.push(range(adverts.height, input.HeightFrom, input.HeightTo, FILTER_DEFAULTS.heightFrom, FILTER_DEFAULTS.heightTo));
  conditions.push(range(adverts.weight, input.WeightFrom, input.WeightTo, FILTER_DEFAULTS.weightFrom, FILTER_DEFAULTS.weightTo));

  if (input.Incall) conditions.push(eq(adverts.incall, true));
  if (input.Outcall) conditions.push(eq(adverts.outcall, true));
  if (input.Validated) conditions.push(eq(adverts.validationStatus, 2));
  if (input.Breasts.length) conditions.push(inArray(adverts.breastType, input.Breasts));
  if (input.Nationalities.length) conditions.push(inArray(adverts.nationalityId, input.Nationalities));
  if (input.Languages.length) {
    conditions.push(
      sql`exists (select 1 from ${advertLanguages} al where al.advert_id = ${adverts.id} and al.language_id in (${sql.join(
        input.Languages.map((id) => sql`${id}`),
        sql`, `,
      )}))`,
    );
  }
  for (const serviceId of input.Services) {
    conditions.push(sql`exists (select 1 from ${advertServices} s where s.advert_id = ${adverts.id} and s.service_id = ${serviceId})`);
  }
  if (input.Video) {
    conditions.push(
      sql`exists (select 1 from ${videos} v where v.advert_id = ${adverts.id} and v.status = 2 and v.moderation_status = 1 and v.is_online and v.deleted_at is null)`,
    );
  }
  if (input.Review) {
    conditions.push(sql`exists (select 1 from ${reviews} r where r.advert_id = ${adverts.id} and r.status = 1)`);
  }
  conditions.push(options.extraText ?? textCondition(input.Text));

  const where = and(...conditions.filter((c): c is SQL => c !== undefined));
  const boosted = and(isNotNull(adverts.searchBoostUntil), gt(adverts.searchBoostUntil, now));
  const [rows, totals] = await Promise.all([
    db
      .select({ id: adverts.id })
      .from(adverts)
      .where(where)
      .orderBy(sql`(${boosted}) desc`, desc(adverts.updatedAt), desc(adverts.id))
      .limit(input.PageSize)
      .offset((input.Page - 1) * input.PageSize),
    db.select({ n: count() }).from(adverts).where(where),
  ]);
  return {
    total: Number(totals[0]?.n ?? 0),
    page: input.Page,
    pageSize: input.PageSize,
    items: await listAdvertCards(db, rows.map((r) => r.id), input.Locale, now),
  };
}

