/**
 * getStaticPaths for the search landing pages, for every kind, region and city of searchpagelocations,
 * and their data. Each landing page needs its first page of results and its SEO text: getStaticPaths
 * starts fetching them all (8 calls at a time, see build-data.ts) so the API works while Astro renders
 * other pages; a place without any public advert (frontpageactiveareas) needs no search call at all.
 */
import { findLandingIndexPage, getActiveAreas, getLandingResults, getLocations, getProfilesReferences } from '#lib/api/build-data.ts';
import type { City, LandingIndexPage, Region } from '#lib/api/types.ts';
import type { Locale } from '#lib/i18n/locales.ts';
import type { SearchResult } from '#lib/schemas/public-advert.ts';
import { PAGE_SIZE } from '#lib/schemas/search.ts';
import { localeStaticPaths } from './locale-paths.ts';
import { kinds, type Kind } from './kinds.ts';

export type SearchLandingProps = { locale: Locale; kind: Kind; region?: Region; city?: City; regions: Region[] };

/** The Danish path of a landing page: '/escort/', '/escort/{region}/', '/escort/{region}/{city}/'. */
export function landingPathOf(kind: string, region?: { slug: string }, city?: { slug: string }): string {
  return `/${kind}/${region ? `${region.slug}/` : ''}${region && city ? `${city.slug}/` : ''}`;
}

type Option = { id: number; name: string };
const slimReferences = new Map<Locale, Promise<{ languages: Option[]; nationalities: Option[]; services: Option[]; breastTypes: Option[] }>>();

/** The filters' options for a locale: ids and names only (they travel in every landing page's HTML). */
export function filterReferences(locale: Locale) {
  let pending = slimReferences.get(locale);
  if (!pending) {
    const slim = (items: Option[]) => items.map(({ id, name }) => ({ id, name }));
    pending = getProfilesReferences(locale).then((references) => ({
      languages: slim(references.languages),
      nationalities: slim(references.nationalities),
      services: slim(references.services),
      breastTypes: slim(references.breastTypes),
    }));
    slimReferences.set(locale, pending);
  }
  return pending;
}

const EMPTY: SearchResult = { total: 0, page: 1, pageSize: PAGE_SIZE, items: [] };

let active: Promise<Set<string>> | undefined;

/** The places with public adverts, as 'region' and 'region/city' keys (once per build). */
function activePlaces(): Promise<Set<string>> {
  active ??= getActiveAreas('da').then((areas) => new Set(areas.flatMap((area) => [area.regionSlug, `${area.regionSlug}/${area.citySlug}`])));
  return active;
}

/** The first page of results and the SEO text of a landing page (memoised by build-data). */
export async function landingData(
  locale: Locale,
  kind: Kind,
  region?: Region,
  city?: City,
): Promise<{ results: SearchResult; seo: LandingIndexPage | null }> {
  const path = landingPathOf(kind, region, city);
  const place = region ? (city ? `${region.slug}/${city.slug}` : region.slug) : null;
  const hasAdverts = place === null || (await activePlaces()).has(place);
  const [results, seo] = await Promise.all([hasAdverts ? getLandingResults(path, locale) : EMPTY, findLandingIndexPage(path, locale)]);
  return { results, seo };
}

/** Starts fetching the data of these pages now; a failure surfaces when the page renders. */
function prefetch(paths: { props: SearchLandingProps }[]) {
  for (const { props } of paths) {
    landingData(props.locale, props.kind, props.region, props.city).catch(() => undefined);
  }
  return paths;
}

export async function kindPaths() {
  const regions = await getLocations();
  return prefetch(
    localeStaticPaths().flatMap(({ params, props }) =>
      kinds.map((kind) => ({ params: { ...params, kind }, props: { ...props, kind, regions } satisfies SearchLandingProps })),
    ),
  );
}

export async function regionPaths() {
  const regions = await getLocations();
  return prefetch(
    localeStaticPaths().flatMap(({ params, props }) =>
      kinds.flatMap((kind) =>
        regions.map((region) => ({
          params: { ...params, kind, region: region.slug },
          props: { ...props, kind, region, regions } satisfies SearchLandingProps,
        })),
      ),
    ),
  );
}

export async function cityPaths() {
  const regions = await getLocations();
  return prefetch(
    localeStaticPaths().flatMap(({ params, props }) =>
      kinds.flatMap((kind) =>
        regions.flatMap((region) =>
          region.cities.map((city) => ({
            params: { ...params, kind, region: region.slug, city: city.slug },
            props: { ...props, kind, region, city, regions } satisfies SearchLandingProps,
          })),
        ),
      ),
    ),
  );
}
