import * as v from 'valibot';

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
