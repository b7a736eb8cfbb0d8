import * as v from 'valibot';
import { slugify } from '../format.ts';
import { queryFlag, querySkip, queryTake, wholeNumber } from './query-values.ts';

/**
 * First path segments the site uses itself: a free page (/{url}/) may not take one of these, or it would
 * shadow a route (search, adverts, apps, legal pages, files).
 */
export const RESERVED_TOP_SEGMENTS: ReadonlySet<string> = new Set([
  'escort', 'trans-escort', 'thaimassage', 'annonce', 'p', 'search', 'service', 'artikler', 'login', 'create',
  'backend', 'support', 'en', 'da', 'impersonate', 'advert-blocked', 'terms-condition', 'privacy-policy', 'cookies', 'ranking',
  'api', 'media', 'notificationhub', 'healthz', 'readyz', '404', '_astro',
]);

/** An SEO page as support's SEO staff write it (support app form and API). */
export const LandingPageSchema = v.object({
  type: v.picklist(['service', 'article', 'free', 'index'], 'required'),
  locale: v.optional(v.picklist(['da', 'en'], 'required'), 'da'),
  url: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('required'),
    v.maxLength(200, 'tooLong'),
    v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'slug'),
  ),
  title: v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.maxLength(200, 'tooLong')),
  metaDescription: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(320, 'tooLong')), ''),
  intro: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2000, 'tooLong')), ''),
  body: v.optional(v.pipe(v.string(), v.maxLength(100_000, 'tooLong')), ''),
  published: v.optional(v.boolean(), true),
});

export type LandingPageInput = v.InferOutput<typeof LandingPageSchema>;

// ---------------------------------------------------------------------------------------------
// Support's SEO pages (issue 17; spec §7 support "SEO pages": list with Skip, Take, Id, Title, Url,
// TypeValue; add, delete, image delete). Twins: one row per language, sharing type and url.
// ---------------------------------------------------------------------------------------------

export const LANDING_PAGE_TYPES = ['service', 'article', 'free', 'index'] as const;
export type LandingPageTypeValue = (typeof LANDING_PAGE_TYPES)[number];
export const LANDING_LOCALES = ['da', 'en'] as const;
export type LandingLocale = (typeof LANDING_LOCALES)[number];
/** The kinds of search landing page (index pages: kind, kind × region, kind × city). */
export const LANDING_KINDS = ['escort', 'trans-escort', 'thaimassage'] as const;

/** A slug, or for an index page the place's path without slashes around it ('escort/region-x/by'). */
const SLUG_PATH = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*){0,2}$/;

const optionalId = v.optional(v.union([v.literal(''), v.literal(0), wholeNumber('invalid')], 'invalid'), '');
const text = (max: number) => v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(max, 'tooLong')), '');

/** landingpages (GET): a page of SEO pages, by the spec's fields; WithoutText: only pages with no body in any language. */
export const LandingPagesQuerySchema = v.object({
  Skip: querySkip,
  Take: queryTake(200, 25),
  Id: optionalId,
  Title: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(200, 'tooLong')), ''),
  Url: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(300, 'tooLong')), ''),
  TypeValue: v.optional(v.union([v.literal(''), v.picklist(LANDING_PAGE_TYPES, 'invalid')], 'invalid'), ''),
  WithoutText: queryFlag('invalid'),
  /** Index pages of one region (and one city): how the regions and cities screen names a place. */
  RegionId: optionalId,
  CityId: optionalId,
});
export type LandingPagesQueryInput = v.InferOutput<typeof LandingPagesQuerySchema>;

/** landingpage (GET), deletelandingpage (POST): one row (one language) of a page. */
export const LandingPageIdSchema = v.object({ Id: wholeNumber('required') }, 'required');

/** publishlandingpage (POST): one language of a page public (after the next rebuild) or not. */
export const PublishLandingPageSchema = v.object({ Id: wholeNumber('required'), Published: v.boolean('required') }, 'required');

/** deletelandingpageimage (POST): the spec's "image delete". */
export const DeleteLandingPageImageSchema = v.object({ Id: wholeNumber('required'), Key: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(300, 'tooLong')) }, 'required');

/** landingpageimage (POST multipart): the fields sent before the file. */
export const LandingPageImageFieldsSchema = v.object({ Id: wholeNumber('required'), Alt: text(300) }, 'required');

/**
 * landingpage (POST): a page with both twins as the editor shows them side by side. `id` is either twin's
 * row (empty: a new page). A language with no title and no text is not written; a language with text
 * needs a title. `url` is shared by the twins; an index page's is its place ('escort/region-x/by').
 */
export const LandingPageChangeSchema = v.object(
  {
    id: optionalId,
    type: v.picklist(LANDING_PAGE_TYPES, 'required'),
    url: v.pipe(v.string('required'), v.trim(), v.toLowerCase(), v.nonEmpty('required'), v.maxLength(200, 'tooLong'), v.regex(SLUG_PATH, 'slug')),
    titleDa: text(200),
    metaDescriptionDa: text(320),
    introDa: text(2000),
    bodyDa: v.optional(v.pipe(v.string('invalid'), v.maxLength(100_000, 'tooLong')), ''),
    titleEn: text(200),
    metaDescriptionEn: text(320),
    introEn: text(2000),
    bodyEn: v.optional(v.pipe(v.string('invalid'), v.maxLength(100_000, 'tooLong')), ''),
  },
  'required',
);
export type LandingPageChangeInput = v.InferOutput<typeof LandingPageChangeSchema>;

/** An image of a page as support sees it (`key` relative to /media/). */
export type SupportLandingImage = {
  key: string;
  alt: string;
  width: number | null;
  height: number | null;
  /** The published files `{base}-{width}.{avif|webp}` (null: only `key`). */
  base: string | null;
  widths: number[];
};

/** One language of a page as support sees it. */
export type SupportLandingText = {
  id: number;
  locale: LandingLocale;
  title: string;
  metaDescription: string;
  intro: string;
  body: string;
  images: SupportLandingImage[];
  published: boolean;
  publishedAt: string | null;
  updatedAt: string;
  /** Minutes at 200 words a minute (intro and body), as the public page says. */
  readingMinutes: number;
};

/** A page with its twins (landingpage GET, and the answer of a save). */
export type SupportLandingPage = {
  type: LandingPageTypeValue;
  url: string;
  /** The public path of each language ('/x/', '/en/x/'). */
  paths: Record<LandingLocale, string>;
  /** What an index page is about ('Escort · Hovedstaden · København'), else null. */
  place: string | null;
  twins: Record<LandingLocale, SupportLandingText | null>;
};

/** A row of the list: a page (its twins) or an index page nobody has written yet (no ids). */
export type SupportLandingListItem = {
  /** The Danish twin's id, else the English one's; null: no text yet. */
  id: number | null;
  type: LandingPageTypeValue;
  url: string;
  path: string;
  title: string;
  place: string | null;
  locales: { locale: LandingLocale; id: number; published: boolean }[];
  /** An index page's region and city (null: the whole kind, or not an index page). */
  regionId: number | null;
  cityId: number | null;
  hasText: boolean;
  updatedAt: string | null;
};

/** The public path of a page in a language (Danish at the spec's URLs, English under /en/). */
export function landingPublicPath(type: LandingPageTypeValue, url: string, locale: LandingLocale): string {
  const base = type === 'service' ? 'service/' : type === 'article' ? 'artikler/' : '';
  return `${locale === 'en' ? '/en' : ''}/${base}${url}/`;
}

/** A free page's title and address from a search term (unmatched keywords' "make a landing page for this term"). */
export function pageFromTerm(term: string): { title: string; url: string } {
  const title = term.trim().replace(/\s+/g, ' ').slice(0, 200);
  return { title: title ? title.charAt(0).toUpperCase() + title.slice(1) : '', url: slugify(title).slice(0, 200).replace(/-+$/, '') };
}
