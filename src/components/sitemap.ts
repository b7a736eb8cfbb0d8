/**
 * The sitemap (/googlesitemap.xml): every public advert, search landing page and content page, in both
 * languages, each with its hreflang twins (and x-default), adverts with their last change. Read from the
 * build data, so it lists exactly what the build writes. More URLs than one sitemap file may hold
 * (50,000) turn /googlesitemap.xml into a sitemap index of /sitemaps/{n}.xml files.
 */
import { getAllFullProfiles, getLandingPages, getLocations, landingSlug } from '#lib/api/build-data.ts';
import type { LandingKind } from '#lib/api/types.ts';
import { localizePath, locales, type Locale } from '#lib/i18n/locales.ts';
import { escapeHtml } from '#lib/html.ts';
import { kinds } from './kinds.ts';

/** URLs per sitemap file: below the protocol's 50,000, with room to spare. */
export const URLS_PER_FILE = 40_000;

/** One page in its languages: Danish (unprefixed) path per locale that has it. */
type Page = { paths: Partial<Record<Locale, string>>; lastmod?: string };

const both = (path: string): Page['paths'] => ({ da: path, en: localizePath(path, 'en') });

async function contentPages(kind: LandingKind): Promise<Page[]> {
  const slugs = new Map<string, Page['paths']>();
  for (const locale of locales) {
    for (const page of await getLandingPages(kind, locale)) {
      const slug = landingSlug(page.url);
      if (!slug) continue;
      slugs.set(slug, { ...slugs.get(slug), [locale]: localizePath(`/${kind}/${slug}/`, locale) });
    }
  }
  return [...slugs.values()].map((paths) => ({ paths }));
}

async function pages(): Promise<Page[]> {
  const out: Page[] = ['/', '/service/', '/artikler/', '/terms-condition/', '/privacy-policy/', '/cookies/'].map((path) => ({ paths: both(path) }));
  const regions = await getLocations();
  for (const kind of kinds) {
    out.push({ paths: both(`/${kind}/`) });
    for (const region of regions) {
      out.push({ paths: both(`/${kind}/${region.slug}/`) });
      for (const city of region.cities) out.push({ paths: both(`/${kind}/${region.slug}/${city.slug}/`) });
    }
  }
  out.push(...(await contentPages('service')), ...(await contentPages('artikler')));
  const [danish, english] = await Promise.all([getAllFullProfiles('da'), getAllFullProfiles('en')]);
  const inEnglish = new Set(english.map((profile) => profile.url));
  for (const profile of danish) {
    out.push({
      paths: inEnglish.has(profile.url) ? both(profile.url) : { da: profile.url },
      lastmod: profile.updatedAt,
    });
  }
  return out;
}

const built = new Map<string, Promise<string[]>>();

/** The `<url>` elements of every page in every language it exists in (once per build). */
export function sitemapUrls(site: URL): Promise<string[]> {
  let pending = built.get(site.origin);
  if (!pending) {
    pending = buildUrls(site);
    built.set(site.origin, pending);
  }
  return pending;
}

async function buildUrls(site: URL): Promise<string[]> {
  const absolute = (path: string) => escapeHtml(new URL(path, site).toString());
  const urls: string[] = [];
  for (const page of await pages()) {
    const entries = Object.entries(page.paths) as [Locale, string][];
    const alternates =
      entries.length > 1
        ? entries.map(([lang, path]) => `<xhtml:link rel="alternate" hreflang="${lang}" href="${absolute(path)}"/>`).join('') +
          (page.paths.da ? `<xhtml:link rel="alternate" hreflang="x-default" href="${absolute(page.paths.da)}"/>` : '')
        : '';
    const lastmod = page.lastmod ? `<lastmod>${escapeHtml(page.lastmod)}</lastmod>` : '';
    for (const [, path] of entries) urls.push(`<url><loc>${absolute(path)}</loc>${lastmod}${alternates}</url>`);
  }
  return urls;
}

export function urlset(urls: string[]): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' +
    urls.join('\n') +
    '\n</urlset>\n'
  );
}

export function sitemapIndex(files: string[]): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    files.map((file) => `<sitemap><loc>${escapeHtml(file)}</loc></sitemap>`).join('\n') +
    '\n</sitemapindex>\n'
  );
}

export const xmlHeaders = { 'content-type': 'application/xml; charset=utf-8' };
