import { and, asc, count, desc, eq, isNotNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adverts, cities, landingPages, regions, siteSettings } from '../../db/schema.ts';
import { notFound } from '../errors.ts';
import type { FooterInfo, LinkItem, WebsiteConfig } from '#lib/schemas/site-info.ts';
import { publicAdvertCondition } from '../adverts/visibility.ts';
import { ADVERT_TYPE, GENDER, type AdvertKind } from '../adverts/statuses.ts';
import { landingPublicPath } from '#lib/schemas/landing-page.ts';

export type Locale = 'da' | 'en';

export type { FooterInfo, LinkItem, WebsiteConfig };

/** Website config (spec §3); address, name and zip/city travel URL-encoded, as the spec says. */
export async function getWebsiteConfig(db: Db): Promise<WebsiteConfig> {
  const [row] = await db.select().from(siteSettings).limit(1);
  if (!row) throw notFound('Website config');
  return {
    siteName: row.siteName,
    siteUrl: row.siteUrl,
    companyName: encodeURIComponent(row.companyName),
    companyAddress: encodeURIComponent(row.companyAddress),
    companyZipCity: encodeURIComponent(row.companyZipCity),
    companyEmail: row.companyEmail,
    companyVAT: row.companyVat,
    supportEmail: row.supportEmail,
    supportPhone: row.supportPhone,
  };
}

/** Front-page available counts (spec §3): e escorts, t Thai massage, te trans escorts; public adverts only. */
export async function getAvailableCounts(db: Db, now: Date): Promise<{ e: number; t: number; te: number }> {
  const rows = await db
    .select({ kind: adverts.kind, gender: adverts.gender, n: count() })
    .from(adverts)
    .where(publicAdvertCondition(now))
    .groupBy(adverts.kind, adverts.gender);
  const counts = { e: 0, t: 0, te: 0 };
  for (const row of rows) {
    if (row.kind === ADVERT_TYPE.ThaiMassage) counts.t += Number(row.n);
    else if (row.gender === GENDER.Transgender) counts.te += Number(row.n);
    else counts.e += Number(row.n);
  }
  return counts;
}

export type LocationRegion = {
  id: number;
  name: string;
  nameEn: string;
  slug: string;
  cities: { id: number; city: string; slug: string }[];
};

/** Every region with its cities, in display order (one call for the whole site build). */
export async function listLocations(db: Db): Promise<LocationRegion[]> {
  const regionRows = await db.select().from(regions).orderBy(asc(regions.sortOrder), asc(regions.name));
  const cityRows = await db.select().from(cities).orderBy(asc(cities.sortOrder), asc(cities.name));
  return regionRows.map((region) => ({
    id: region.id,
    name: region.name,
    nameEn: region.nameEn,
    slug: region.slug,
    cities: cityRows
      .filter((city) => city.regionId === region.id)
      .map((city) => ({ id: city.id, city: city.name, slug: city.slug })),
  }));
}

const kindCondition = {
  escort: and(eq(adverts.kind, ADVERT_TYPE.IndependentEscort), ne(adverts.gender, GENDER.Transgender)),
  'trans-escort': and(eq(adverts.kind, ADVERT_TYPE.IndependentEscort), eq(adverts.gender, GENDER.Transgender)),
  thaimassage: eq(adverts.kind, ADVERT_TYPE.ThaiMassage),
} satisfies Record<AdvertKind, unknown>;

function localePrefix(locale: Locale): string {
  return locale === 'en' ? '/en' : '';
}

/** The cities with most public adverts of a kind, as search links. */
async function topCityLinks(db: Db, kind: AdvertKind, locale: Locale, now: Date, limit: number): Promise<LinkItem[]> {
  const rows = await db
    .select({ city: cities.name, citySlug: cities.slug, regionSlug: regions.slug, n: count() })
    .from(adverts)
    .innerJoin(cities, eq(cities.id, adverts.cityId))
    .innerJoin(regions, eq(regions.id, cities.regionId))
    .where(and(publicAdvertCondition(now), kindCondition[kind]))
    .groupBy(cities.name, cities.slug, regions.slug)
    .orderBy(desc(count()), asc(cities.name))
    .limit(limit);
  return rows.map((row) => ({
    url: `${localePrefix(locale)}/${kind}/${row.regionSlug}/${row.citySlug}/`,
    title: row.city,
  }));
}

/** Footer info (spec §3): location links per kind, services and articles. */
export async function getFooterInfo(db: Db, locale: Locale, now: Date): Promise<FooterInfo> {
  const [escortItems, transEscortItems, thaimassageItems, services, articles] = await Promise.all([
    topCityLinks(db, 'escort', locale, now, 10),
    topCityLinks(db, 'trans-escort', locale, now, 10),
    topCityLinks(db, 'thaimassage', locale, now, 10),
    listLandingPageLinks(db, 'service', locale),
    listLandingPageLinks(db, 'article', locale, 8),
  ]);
  const asPaths = (type: LandingPageType, links: LinkItem[]) =>
    links.map((link) => ({ url: landingPublicPath(type, link.url, locale), title: link.title }));
  return {
    escortItems,
    transEscortItems,
    thaimassageItems,
    services: asPaths('service', services),
    articles: asPaths('article', articles),
  };
}

export type LandingPageType = 'service' | 'article' | 'free' | 'index';

/** Published landing pages of one type and locale, newest first for articles. */
export async function listLandingPageLinks(
  db: Db,
  type: LandingPageType,
  locale: Locale,
  limit = 500,
): Promise<LinkItem[]> {
  const rows = await db
    .select({ url: landingPages.url, title: landingPages.title })
    .from(landingPages)
    .where(and(eq(landingPages.type, type), eq(landingPages.locale, locale), isNotNull(landingPages.publishedAt)))
    .orderBy(type === 'article' ? desc(landingPages.publishedAt) : asc(landingPages.title))
    .limit(limit);
  return rows.map((row) => ({ url: row.url, title: row.title }));
}

export type LandingPageView = {
  url: string;
  title: string;
  metaDescription: string;
  intro: string;
  body: string;
  images: { key: string; alt?: string | undefined; width?: number | undefined; height?: number | undefined }[];
  publishedAt: string | null;
  updatedAt: string;
};

export async function getLandingPage(db: Db, type: LandingPageType, url: string, locale: Locale): Promise<LandingPageView> {
  const [row] = await db
    .select()
    .from(landingPages)
    .where(
      and(
        eq(landingPages.type, type),
        eq(landingPages.locale, locale),
        eq(landingPages.url, url),
        isNotNull(landingPages.publishedAt),
      ),
    )
    .limit(1);
  if (!row) throw notFound('Page');
  return {
    url: row.url,
    title: row.title,
    metaDescription: row.metaDescription ?? '',
    intro: row.intro ?? '',
    body: row.body,
    images: row.images,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}
