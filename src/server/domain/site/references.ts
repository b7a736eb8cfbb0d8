import { and, asc, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adverts, cities, landingPages, languages, nationalities, regions, services } from '../../db/schema.ts';
import { normalisePlaceName } from '#lib/format.ts';
import { publicAdvertCondition } from '../adverts/visibility.ts';
import { notFound } from '../errors.ts';
import type { Locale } from './site-info.ts';
import { pairedTerms } from '../search/keywords.ts';
import { danishNamesStartingWith } from '../search/place-names.ts';

export type Option = { id: number; name: string };
export type ServiceOption = { id: number; slug: string; name: string; type: number; description: string };

export async function listLanguageOptions(db: Db, locale: Locale): Promise<(Option & { code: string })[]> {
  const rows = await db.select().from(languages).orderBy(asc(locale === 'en' ? languages.nameEn : languages.nameDa));
  return rows.map((row) => ({ id: row.id, code: row.code, name: locale === 'en' ? row.nameEn : row.nameDa }));
}

export async function listNationalityOptions(db: Db, locale: Locale): Promise<(Option & { code: string })[]> {
  const rows = await db.select().from(nationalities).orderBy(asc(locale === 'en' ? nationalities.nameEn : nationalities.nameDa));
  return rows.map((row) => ({ id: row.id, code: row.code, name: locale === 'en' ? row.nameEn : row.nameDa }));
}

/** Services; `sort` 'name' orders by name, otherwise by type then the curated order. */
export async function listServiceOptions(db: Db, locale: Locale, sort: 'name' | 'type' = 'type'): Promise<ServiceOption[]> {
  const name = locale === 'en' ? services.nameEn : services.nameDa;
  const rows = await db
    .select()
    .from(services)
    .orderBy(...(sort === 'name' ? [asc(name)] : [asc(services.type), asc(services.sortOrder), asc(name)]));
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    name: locale === 'en' ? row.nameEn : row.nameDa,
    type: row.type,
    description: locale === 'en' ? row.descriptionEn : row.descriptionDa,
  }));
}

/** Everything the search filters offer, in one call (profilesreferences). */
export async function getProfileReferences(db: Db, locale: Locale) {
  const [languageOptions, nationalityOptions, serviceOptions] = await Promise.all([
    listLanguageOptions(db, locale),
    listNationalityOptions(db, locale),
    listServiceOptions(db, locale),
  ]);
  return {
    languages: languageOptions,
    nationalities: nationalityOptions,
    services: serviceOptions,
    breastTypes: [
      { id: 1, name: locale === 'en' ? 'Natural' : 'Naturlige' },
      { id: 2, name: locale === 'en' ? 'Silicone' : 'Silikone' },
    ],
  };
}

/** Regions and cities that have public adverts, with counts (frontpageactiveareas). */
export async function listActiveAreas(db: Db, now: Date, locale: Locale) {
  const rows = await db
    .select({ regionSlug: regions.slug, region: locale === 'en' ? regions.nameEn : regions.name, city: cities.name, citySlug: cities.slug, n: count() })
    .from(adverts)
    .innerJoin(cities, eq(cities.id, adverts.cityId))
    .innerJoin(regions, eq(regions.id, cities.regionId))
    .where(publicAdvertCondition(now))
    .groupBy(regions.slug, regions.name, regions.nameEn, cities.name, cities.slug)
    .orderBy(desc(count()), asc(cities.name));
  return rows.map((row) => ({ ...row, n: Number(row.n) }));
}

/** Location autocomplete (searchpagesearchlocation): regions and cities whose name starts like the text. */
export async function searchLocations(db: Db, text: string, locale: Locale) {
  // The typed words and the terms SEO staff paired with them ("kbh" → København), places found by either.
  // Foreign names of Danish places too ("Copenh" → København; issue 31, item 3).
  const wanted = [...(await pairedTerms(db, text.trim())), ...danishNamesStartingWith(text)];
  const found = (await Promise.all(wanted.map((name) => locationsOf(db, name, locale)))).flat();
  const seen = new Set<string>();
  return found.filter((place) => {
    const key = `${place.type}/${place.regionSlug}/${place.citySlug ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function locationsOf(db: Db, text: string, locale: Locale) {
  const wanted = text.trim();
  if (wanted.length === 0) return [];
  const pattern = `${wanted.replace(/[%_\\]/g, '')}%`;
  const folded = normalisePlaceName(wanted);
  const [regionRows, cityRows] = await Promise.all([
    db.select().from(regions).where(or(ilike(regions.name, `%${pattern}`), ilike(regions.nameEn, `%${pattern}`), ilike(regions.slug, `%${folded}%`))),
    db
      .select({ id: cities.id, name: cities.name, slug: cities.slug, regionSlug: regions.slug, region: regions.name, regionEn: regions.nameEn })
      .from(cities)
      .innerJoin(regions, eq(regions.id, cities.regionId))
      .where(or(ilike(cities.name, pattern), ilike(cities.slug, `${folded}%`), sql`word_similarity(${wanted}, ${cities.name}) > 0.5`))
      .orderBy(sql`word_similarity(${wanted}, ${cities.name}) desc`, asc(cities.name))
      .limit(10),
  ]);
  return [
    ...regionRows.map((r) => ({ type: 'region' as const, name: locale === 'en' ? r.nameEn : r.name, regionSlug: r.slug, citySlug: null })),
    ...cityRows.map((c) => ({ type: 'city' as const, name: c.name, region: locale === 'en' ? c.regionEn : c.region, regionSlug: c.regionSlug, citySlug: c.slug })),
  ];
}

/** SEO text for a search landing page (landingpageindexpage, Url like 'escort/region-hovedstaden/koebenhavn'). */
export async function getIndexPage(db: Db, url: string, locale: Locale) {
  const key = url.replace(/^\/+|\/+$/g, '').replace(/^en\//, '');
  const [row] = await db
    .select()
    .from(landingPages)
    .where(and(eq(landingPages.type, 'index'), eq(landingPages.locale, locale), eq(landingPages.url, key)))
    .limit(1);
  if (!row || !row.publishedAt) throw notFound('Page');
  return { url: row.url, title: row.title, metaDescription: row.metaDescription ?? '', intro: row.intro ?? '', body: row.body };
}

/** Every published search-landing SEO text of a language, for the site build (landingpageindexpages). */
export async function listIndexPages(db: Db, locale: Locale) {
  const rows = await db
    .select()
    .from(landingPages)
    .where(and(eq(landingPages.type, 'index'), eq(landingPages.locale, locale), sql`${landingPages.publishedAt} is not null`))
    .orderBy(asc(landingPages.url));
  return rows.map((row) => ({
    url: row.url,
    title: row.title,
    metaDescription: row.metaDescription ?? '',
    intro: row.intro ?? '',
    body: row.body,
    images: row.images,
  }));
}
