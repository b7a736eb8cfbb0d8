import * as v from 'valibot';
import { wholeNumber } from './query-values.ts';

/**
 * Regions and cities for SEO staff (issue 17; spec §6 support areas "regions; cities"): the lists with how
 * many public adverts each place has and the place's index page text, a city added to a region, a city
 * renamed (its old public addresses answer 301 to the new). Messages are keys of `validation.*`.
 */

/** The search kinds in URL form, each with a public address per region and city (spec §2). */
export const PLACE_KINDS = ['escort', 'trans-escort', 'thaimassage'] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

const cityName = v.pipe(
  v.string('required'),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(80, 'tooLong'),
  // The address is made of the name (slugs: æ→ae, ø→oe, å→aa): a name must hold a letter or a digit
  // (an empty one is refused as required alone).
  v.regex(/^$|[\p{L}\p{N}]/u, 'cityNameLetters'),
);

/** cities (GET): the cities of one region. */
export const SupportCitiesQuerySchema = v.object({ RegionId: wholeNumber('required') }, 'required');
export type SupportCitiesQueryInput = v.InferOutput<typeof SupportCitiesQuerySchema>;

/** cities (POST): a new city in a region. */
export const AddCitySchema = v.object({ RegionId: wholeNumber('required'), Name: cityName }, 'required');
export type AddCityInput = v.InferOutput<typeof AddCitySchema>;

/** renamecity (POST): a city's new name (its address follows the name). */
export const RenameCitySchema = v.object({ Id: wholeNumber('required'), Name: cityName }, 'required');
export type RenameCityInput = v.InferOutput<typeof RenameCitySchema>;

/** The index page (SEO text) of a place per kind: the Danish page's id, or null while it has no text. */
export type PlacePages = Record<PlaceKind, number | null>;

/** A city as support sees it. `publicAdverts`: adverts public there now. */
export type SupportCity = {
  id: number;
  regionId: number;
  name: string;
  slug: string;
  publicAdverts: number;
  pages: PlacePages;
};

/** A region as support sees it, with its cities (by the site's order). */
export type SupportRegion = {
  id: number;
  name: string;
  nameEn: string;
  slug: string;
  publicAdverts: number;
  pages: PlacePages;
  cities: SupportCity[];
};

/** renamecity's answer: the city as renamed and the addresses that now answer 301 (old → new). */
export type RenamedCity = SupportCity & { redirects: { from: string; to: string }[] };

/** The search path of a place without slashes, as index pages keep it ('escort/region-x/by'). */
export const placeUrl = (kind: PlaceKind, regionSlug: string, citySlug?: string): string =>
  [kind, regionSlug, ...(citySlug ? [citySlug] : [])].join('/');

/**
 * Where the text of a place is edited (the landing-page editor): its page, or a new index page for the
 * place when it has none yet.
 */
export function placePageHref(kind: PlaceKind, pageId: number | null, regionId: number, cityId?: number): string {
  if (pageId !== null) return `/support/landing-pages/${pageId}/`;
  const query = new URLSearchParams({ type: 'index', kind, regionId: String(regionId) });
  if (cityId !== undefined) query.set('cityId', String(cityId));
  return `/support/landing-pages/new/?${query.toString()}`;
}
