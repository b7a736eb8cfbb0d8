/**
 * Regions and cities for SEO staff (issue 17, "Regions and cities"; spec §6 support areas "regions; cities"):
 * the lists with how many public adverts each place has and its index page (the SEO text of the search
 * page of kind × region and kind × city), a city added to a region, a city renamed. A rename moves every
 * public address of the city (/{kind}/{region}/{city}/ for the three kinds, Danish and the English twin
 * under /en/) with a 301 from the old one, the city's index pages with it, and the search rows of its
 * adverts (their texts and cards hold the city's name and slug). Each change is audited; the public lists
 * and pages follow after the next rebuild (content.changed).
 */
import { and, asc, count, eq, inArray, isNotNull, max, or, sql } from 'drizzle-orm';
import { slugify } from '#lib/format.ts';
import {
  PLACE_KINDS,
  placeUrl,
  type AddCityInput,
  type PlacePages,
  type RenameCityInput,
  type RenamedCity,
  type SupportCity,
  type SupportRegion,
} from '#lib/schemas/places.ts';
import type { Db } from '../../db/client.ts';
import { adverts, advertSearch, cities, landingPages, regions, type City, type Region } from '../../db/schema.ts';
import { publicAdvertCondition } from '../adverts/visibility.ts';
import { writeAudit } from '../audit.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { refreshAdvertSearch } from '../search/refresh-advert-search.ts';
import { addPathRedirect, removePathRedirect } from '../site/redirects.ts';

/** Every public address of a city: the three kinds, Danish and English. */
function cityPaths(regionSlug: string, citySlug: string): string[] {
  return ['', '/en'].flatMap((prefix) => PLACE_KINDS.map((kind) => `${prefix}/${placeUrl(kind, regionSlug, citySlug)}/`));
}

/** The index pages of these places' search paths, by url: the Danish page's id, else the English one's. */
async function indexPageIds(db: Db, urls: string[]): Promise<Map<string, number>> {
  if (urls.length === 0) return new Map();
  const rows = await db
    .select({ id: landingPages.id, url: landingPages.url, locale: landingPages.locale })
    .from(landingPages)
    .where(and(eq(landingPages.type, 'index'), inArray(landingPages.url, urls)))
    .orderBy(asc(landingPages.id));
  const ids = new Map<string, number>();
  for (const row of rows.filter((r) => r.locale === 'da')) if (!ids.has(row.url)) ids.set(row.url, row.id);
  for (const row of rows) if (!ids.has(row.url)) ids.set(row.url, row.id);
  return ids;
}

const pagesOf = (ids: Map<string, number>, regionSlug: string, citySlug?: string): PlacePages =>
  Object.fromEntries(PLACE_KINDS.map((kind) => [kind, ids.get(placeUrl(kind, regionSlug, citySlug)) ?? null])) as PlacePages;

/** Regions (all, or one) with their cities, public advert counts and index pages. */
async function placesOf(ctx: DomainContext, regionId?: number): Promise<SupportRegion[]> {
  const now = ctx.now();
  const regionFilter = regionId === undefined ? undefined : eq(regions.id, regionId);
  const [regionRows, cityRows, cityCounts, regionCounts] = await Promise.all([
    ctx.db.select().from(regions).where(regionFilter).orderBy(asc(regions.sortOrder), asc(regions.name)),
    ctx.db
      .select()
      .from(cities)
      .where(regionId === undefined ? undefined : eq(cities.regionId, regionId))
      .orderBy(asc(cities.sortOrder), asc(cities.name)),
    ctx.db
      .select({ cityId: adverts.cityId, n: count() })
      .from(adverts)
      .where(and(publicAdvertCondition(now), isNotNull(adverts.cityId), regionId === undefined ? undefined : eq(adverts.regionId, regionId)))
      .groupBy(adverts.cityId),
    ctx.db
      .select({ regionId: adverts.regionId, n: count() })
      .from(adverts)
      .where(and(publicAdvertCondition(now), isNotNull(adverts.regionId), regionId === undefined ? undefined : eq(adverts.regionId, regionId)))
      .groupBy(adverts.regionId),
  ]);
  const byCity = new Map(cityCounts.map((row) => [row.cityId, Number(row.n)]));
  const byRegion = new Map(regionCounts.map((row) => [row.regionId, Number(row.n)]));
  const slugOfRegion = new Map(regionRows.map((region) => [region.id, region.slug]));
  const urls = [
    ...regionRows.flatMap((region) => PLACE_KINDS.map((kind) => placeUrl(kind, region.slug))),
    ...cityRows.flatMap((city) => PLACE_KINDS.map((kind) => placeUrl(kind, slugOfRegion.get(city.regionId) ?? '', city.slug))),
  ];
  const pageIds = await indexPageIds(ctx.db, urls);
  return regionRows.map((region) => ({
    id: region.id,
    name: region.name,
    nameEn: region.nameEn,
    slug: region.slug,
    publicAdverts: byRegion.get(region.id) ?? 0,
    pages: pagesOf(pageIds, region.slug),
    cities: cityRows
      .filter((city) => city.regionId === region.id)
      .map((city) => supportCityOf(city, region, byCity.get(city.id) ?? 0, pageIds)),
  }));
}

function supportCityOf(city: City, region: Pick<Region, 'slug'>, publicAdverts: number, pageIds: Map<string, number>): SupportCity {
  return { id: city.id, regionId: city.regionId, name: city.name, slug: city.slug, publicAdverts, pages: pagesOf(pageIds, region.slug, city.slug) };
}

/** One city as support sees it now. */
async function supportCity(ctx: DomainContext, cityId: number): Promise<SupportCity> {
  const [city] = await ctx.db.select().from(cities).where(eq(cities.id, cityId));
  if (!city) throw notFound('City');
  const found = (await placesOf(ctx, city.regionId))[0]?.cities.find((c) => c.id === cityId);
  if (!found) throw notFound('City');
  return found;
}

/** regions (GET, SEO): every region with its cities, public advert counts and index pages. */
export async function listSupportRegions(ctx: DomainContext): Promise<SupportRegion[]> {
  requirePermission(ctx.actor, 'seo:pages:any');
  return placesOf(ctx);
}

/** cities (GET, SEO): the cities of one region, with public advert counts and index pages. */
export async function listSupportCities(ctx: DomainContext, regionId: number): Promise<SupportCity[]> {
  requirePermission(ctx.actor, 'seo:pages:any');
  const [region] = await placesOf(ctx, regionId);
  if (!region) throw notFound('Region');
  return region.cities;
}

/** The region, locked until the transaction ends: changes to its cities are made one at a time. */
async function lockedRegion(tx: Db, regionId: number): Promise<Region> {
  const [region] = await tx.select().from(regions).where(eq(regions.id, regionId)).for('update');
  if (!region) throw notFound('Region');
  return region;
}

/** Refuses a name whose address (slug) is empty, or that a city of the region already has (by name or address). */
async function requireFreeName(tx: Db, regionId: number, name: string, exceptCityId?: number): Promise<string> {
  const slug = slugify(name);
  if (!slug) throw new AppError('INVALID', 'The name must hold a letter or a digit', [{ field: 'Name', message: 'cityNameLetters' }]);
  const [taken] = await tx
    .select({ id: cities.id })
    .from(cities)
    .where(
      and(
        eq(cities.regionId, regionId),
        or(eq(cities.slug, slug), sql`lower(${cities.name}) = lower(${name})`),
        exceptCityId === undefined ? undefined : sql`${cities.id} <> ${exceptCityId}`,
      ),
    )
    .limit(1);
  if (taken) throw new AppError('CONFLICT', 'The region already has a city with this name or address', [{ field: 'Name', message: 'cityExists' }]);
  return slug;
}

/** cities (POST, SEO): adds a city to a region, last in the region's order; audited. */
export async function addCity(ctx: DomainContext, input: AddCityInput): Promise<SupportCity> {
  requirePermission(ctx.actor, 'seo:pages:any');
  const created = await ctx.db.transaction(async (tx) => {
    const region = await lockedRegion(tx, input.RegionId);
    const slug = await requireFreeName(tx, region.id, input.Name);
    const [last] = await tx.select({ n: max(cities.sortOrder) }).from(cities).where(eq(cities.regionId, region.id));
    const [city] = await tx
      .insert(cities)
      .values({ regionId: region.id, name: input.Name, slug, sortOrder: (last?.n ?? 0) + 1 })
      .returning();
    // The addresses are the new city's now: a redirect left by an earlier rename away from them goes.
    for (const path of cityPaths(region.slug, slug)) await removePathRedirect(tx, path);
    await writeAudit(
      { ...ctx, db: tx },
      { action: 'city.added', targetType: 'city', targetId: city!.id, after: { regionId: region.id, region: region.name, name: city!.name, slug } },
    );
    return city!;
  });
  await ctx.events.publish({ type: 'content.changed', reason: `city ${created.id} added` });
  return supportCity(ctx, created.id);
}

/**
 * renamecity (POST, SEO): a city's new name and address. In one transaction: the city; a 301 from each
 * old public address to the new one; the city's index pages at the new address; the audit entry. Then the
 * search rows of the city's adverts (refreshed after the commit, as the index log wants), so search and
 * the advert pages show the new name.
 */
export async function renameCity(ctx: DomainContext, input: RenameCityInput): Promise<RenamedCity> {
  requirePermission(ctx.actor, 'seo:pages:any');
  const [current] = await ctx.db.select({ regionId: cities.regionId }).from(cities).where(eq(cities.id, input.Id));
  if (!current) throw notFound('City');
  const result = await ctx.db.transaction(async (tx) => {
    const region = await lockedRegion(tx, current.regionId);
    const [before] = await tx.select().from(cities).where(eq(cities.id, input.Id)).for('update');
    if (!before || before.regionId !== region.id) throw notFound('City');
    if (before.name === input.Name) return { before, redirects: [] };
    const slug = await requireFreeName(tx, region.id, input.Name, before.id);
    const redirects: { from: string; to: string }[] = [];
    if (slug !== before.slug) {
      const oldPaths = cityPaths(region.slug, before.slug);
      const newPaths = cityPaths(region.slug, slug);
      oldPaths.forEach((from, n) => redirects.push({ from, to: newPaths[n]! }));
      // The index pages move with the city (Danish and English twins share the url).
      const moves = PLACE_KINDS.map((kind) => ({ from: placeUrl(kind, region.slug, before.slug), to: placeUrl(kind, region.slug, slug) }));
      const [inTheWay] = await tx
        .select({ id: landingPages.id })
        .from(landingPages)
        .where(and(eq(landingPages.type, 'index'), inArray(landingPages.url, moves.map((move) => move.to))))
        .limit(1);
      if (inTheWay) {
        throw new AppError('CONFLICT', 'An index page already has the new address', [{ field: 'Name', message: 'cityPageExists' }]);
      }
      for (const move of moves) {
        await tx
          .update(landingPages)
          .set({ url: move.to, updatedAt: ctx.now() })
          .where(and(eq(landingPages.type, 'index'), eq(landingPages.url, move.from)));
      }
      for (const { from, to } of redirects) await addPathRedirect(tx, from, to);
    }
    await tx.update(cities).set({ name: input.Name, slug }).where(eq(cities.id, before.id));
    await writeAudit(
      { ...ctx, db: tx },
      {
        action: 'city.renamed',
        targetType: 'city',
        targetId: before.id,
        before: { regionId: region.id, name: before.name, slug: before.slug },
        after: { regionId: region.id, name: input.Name, slug, redirects },
      },
    );
    return { before, redirects };
  });
  if (result.before.name !== input.Name) {
    const rows = await ctx.db.select({ id: advertSearch.advertId }).from(advertSearch).where(eq(advertSearch.cityId, input.Id));
    if (rows.length > 0) await refreshAdvertSearch(ctx.db, rows.map((row) => row.id), ctx.now());
    await ctx.events.publish({ type: 'content.changed', reason: `city ${input.Id} renamed` });
  }
  return { ...(await supportCity(ctx, input.Id)), redirects: result.redirects };
}
