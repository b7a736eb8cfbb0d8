/** getStaticPaths for the search landing pages, for every kind, region and city of searchpagelocations. */
import { getLocations } from '#lib/api/build-data.ts';
import type { City, Region } from '#lib/api/types.ts';
import type { Locale } from '#lib/i18n/locales.ts';
import { localeStaticPaths } from './locale-paths.ts';
import { kinds, type Kind } from './kinds.ts';

export type SearchLandingProps = { locale: Locale; kind: Kind; region?: Region; city?: City; regions: Region[] };

export async function kindPaths() {
  const regions = await getLocations();
  return localeStaticPaths().flatMap(({ params, props }) =>
    kinds.map((kind) => ({ params: { ...params, kind }, props: { ...props, kind, regions } satisfies SearchLandingProps })),
  );
}

export async function regionPaths() {
  const regions = await getLocations();
  return localeStaticPaths().flatMap(({ params, props }) =>
    kinds.flatMap((kind) =>
      regions.map((region) => ({
        params: { ...params, kind, region: region.slug },
        props: { ...props, kind, region, regions } satisfies SearchLandingProps,
      })),
    ),
  );
}

export async function cityPaths() {
  const regions = await getLocations();
  return localeStaticPaths().flatMap(({ params, props }) =>
    kinds.flatMap((kind) =>
      regions.flatMap((region) =>
        region.cities.map((city) => ({
          params: { ...params, kind, region: region.slug, city: city.slug },
          props: { ...props, kind, region, city, regions } satisfies SearchLandingProps,
        })),
      ),
    ),
  );
}
