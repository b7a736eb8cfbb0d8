/**
 * Support's SEO pages (issue 17; spec §7 support "SEO pages": list with Skip, Take, Id, Title, Url,
 * TypeValue): every page by type, twins (one row per language, same type and url) shown as one page, and
 * the index pages of every kind, kind × region and kind × city listed even before anyone wrote a text
 * ("no text yet": no rows, opened as a new index page). The list is made in memory: pages and places are
 * hundreds, not millions.
 */
import { and, asc, eq } from 'drizzle-orm';
import {
  LANDING_KINDS,
  landingPublicPath,
  type LandingLocale,
  type LandingPagesQueryInput,
  type LandingPageTypeValue,
  type SupportLandingListItem,
  type SupportLandingPage,
  type SupportLandingText,
} from '#lib/schemas/landing-page.ts';
import { landingText } from '#lib/markdown.ts';
import type { Db } from '../../db/client.ts';
import { cities, landingPages, regions, type LandingPage } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';

const KIND_NAMES: Record<(typeof LANDING_KINDS)[number], string> = { escort: 'Escort', 'trans-escort': 'Trans escort', thaimassage: 'Thaimassage' };

/** An index page's place: its url ('escort', 'escort/region-x', 'escort/region-x/by'), what it names and its ids. */
export type IndexPlace = { url: string; place: string; kind: string; regionId: number | null; cityId: number | null };

/** Every kind, kind × region and kind × city, in the order the site lists them. */
export async function listIndexPlaces(db: Db): Promise<IndexPlace[]> {
  const [regionRows, cityRows] = await Promise.all([
    db.select().from(regions).orderBy(asc(regions.sortOrder), asc(regions.name)),
    db.select().from(cities).orderBy(asc(cities.sortOrder), asc(cities.name)),
  ]);
  const places: IndexPlace[] = [];
  for (const kind of LANDING_KINDS) {
    places.push({ url: kind, place: KIND_NAMES[kind], kind, regionId: null, cityId: null });
    for (const region of regionRows) {
      places.push({ url: `${kind}/${region.slug}`, place: `${KIND_NAMES[kind]} · ${region.name}`, kind, regionId: region.id, cityId: null });
      for (const city of cityRows.filter((c) => c.regionId === region.id)) {
        places.push({
          url: `${kind}/${region.slug}/${city.slug}`,
          place: `${KIND_NAMES[kind]} · ${region.name} · ${city.name}`,
          kind,
          regionId: region.id,
          cityId: city.id,
        });
      }
    }
  }
  return places;
}

/** The place an index page's url names, or null. */
export async function findIndexPlace(db: Db, url: string): Promise<IndexPlace | null> {
  return (await listIndexPlaces(db)).find((place) => place.url === url) ?? null;
}

export function supportTextOf(row: LandingPage): SupportLandingText {
  const intro = row.intro ?? '';
  return {
    id: row.id,
    locale: row.locale === 'en' ? 'en' : 'da',
    title: row.title,
    metaDescription: row.metaDescription ?? '',
    intro,
    body: row.body,
    images: row.images.map((image) => ({
      key: image.key,
      alt: image.alt ?? '',
      width: image.width ?? null,
      height: image.height ?? null,
      base: image.base ?? null,
      widths: image.widths ?? [],
    })),
    published: row.publishedAt !== null,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    readingMinutes: landingText(intro, row.body).minutes,
  };
}

/** The twins of a page (type and url), Danish first. */
export async function twinRows(db: Db, type: string, url: string): Promise<LandingPage[]> {
  const rows = await db.select().from(landingPages).where(and(eq(landingPages.type, type), eq(landingPages.url, url)));
  return rows.sort((a, b) => a.locale.localeCompare(b.locale));
}

/** A page as support's editor shows it, from its twin rows. */
export async function supportPageOf(db: Db, type: LandingPageTypeValue, url: string, rows: LandingPage[]): Promise<SupportLandingPage> {
  const byLocale = (locale: LandingLocale) => rows.find((row) => row.locale === locale) ?? null;
  const da = byLocale('da');
  const en = byLocale('en');
  return {
    type,
    url,
    paths: { da: landingPublicPath(type, url, 'da'), en: landingPublicPath(type, url, 'en') },
    place: type === 'index' ? ((await findIndexPlace(db, url))?.place ?? null) : null,
    twins: { da: da ? supportTextOf(da) : null, en: en ? supportTextOf(en) : null },
  };
}

const asType = (type: string): LandingPageTypeValue => (type === 'service' || type === 'article' || type === 'index' ? type : 'free');

/** landingpage (GET, SEO): a page with its twins, by either twin's id. */
export async function getSupportLandingPage(ctx: DomainContext, id: number): Promise<SupportLandingPage> {
  requirePermission(ctx.actor, 'seo:pages:any');
  const [row] = await ctx.db.select().from(landingPages).where(eq(landingPages.id, id)).limit(1);
  if (!row) throw notFound('Page');
  return supportPageOf(ctx.db, asType(row.type), row.url, await twinRows(ctx.db, row.type, row.url));
}

const TYPE_ORDER: Record<LandingPageTypeValue, number> = { service: 0, article: 1, free: 2, index: 3 };

/**
 * landingpages (GET, SEO): every page by type (services, articles, free pages, index pages in the places'
 * order), a page per twin pair; Id matches either twin, Title words in either language, Url part of the
 * address, TypeValue one type, WithoutText pages with no body in any language (unwritten index pages too).
 */
export async function listLandingPages(ctx: DomainContext, query: LandingPagesQueryInput): Promise<{ total: number; items: SupportLandingListItem[] }> {
  requirePermission(ctx.actor, 'seo:pages:any');
  const [rows, places] = await Promise.all([ctx.db.select().from(landingPages), listIndexPlaces(ctx.db)]);
  const pairs = new Map<string, LandingPage[]>();
  for (const row of rows) {
    const key = `${row.type}\n${row.url}`;
    pairs.set(key, [...(pairs.get(key) ?? []), row]);
  }
  const placeOrder = new Map(places.map((place, index) => [place.url, index]));
  const placeOf = new Map(places.map((place) => [place.url, place]));
  const items: (SupportLandingListItem & { titles: string[]; order: number })[] = [];
  for (const twins of pairs.values()) {
    twins.sort((a, b) => a.locale.localeCompare(b.locale));
    const first = twins[0]!;
    const type = asType(first.type);
    const updated = twins.map((row) => row.updatedAt.getTime()).reduce((a, b) => Math.max(a, b));
    items.push({
      id: first.id,
      type,
      url: first.url,
      path: landingPublicPath(type, first.url, 'da'),
      title: first.title,
      place: type === 'index' ? (placeOf.get(first.url)?.place ?? null) : null,
      regionId: type === 'index' ? (placeOf.get(first.url)?.regionId ?? null) : null,
      cityId: type === 'index' ? (placeOf.get(first.url)?.cityId ?? null) : null,
      locales: twins.map((row) => ({ locale: row.locale === 'en' ? 'en' : 'da', id: row.id, published: row.publishedAt !== null })),
      hasText: twins.some((row) => row.body.trim() !== ''),
      updatedAt: new Date(updated).toISOString(),
      titles: twins.map((row) => row.title),
      order: type === 'index' ? (placeOrder.get(first.url) ?? Number.MAX_SAFE_INTEGER) : 0,
    });
  }
  const written = new Set(items.filter((item) => item.type === 'index').map((item) => item.url));
  for (const place of places) {
    if (written.has(place.url)) continue;
    items.push({
      id: null,
      type: 'index',
      url: place.url,
      path: landingPublicPath('index', place.url, 'da'),
      title: '',
      place: place.place,
      regionId: place.regionId,
      cityId: place.cityId,
      locales: [],
      hasText: false,
      updatedAt: null,
      titles: [],
      order: placeOrder.get(place.url)!,
    });
  }
  const title = query.Title.toLowerCase();
  const url = query.Url.toLowerCase().replace(/^\/+|\/+$/g, '').replace(/^en\//, '');
  const matching = items.filter(
    (item) =>
      (!query.Id || item.locales.some((locale) => locale.id === query.Id)) &&
      (!title || item.titles.some((t) => t.toLowerCase().includes(title)) || (item.place ?? '').toLowerCase().includes(title)) &&
      (!url || item.url.includes(url) || item.path.includes(url)) &&
      (!query.TypeValue || item.type === query.TypeValue) &&
      (!query.WithoutText || !item.hasText) &&
      (!query.RegionId || item.regionId === query.RegionId) &&
      (!query.CityId || item.cityId === query.CityId),
  );
  matching.sort(
    (a, b) =>
      TYPE_ORDER[a.type] - TYPE_ORDER[b.type] ||
      a.order - b.order ||
      (a.type === 'article' ? (b.updatedAt ?? '').localeCompare(a.updatedAt ?? '') : 0) ||
      a.title.localeCompare(b.title, 'da') ||
      a.url.localeCompare(b.url),
  );
  return {
    total: matching.length,
    items: matching.slice(query.Skip, query.Skip + query.Take).map(({ titles: _titles, order: _order, ...item }) => item),
  };
}
