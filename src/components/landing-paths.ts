/**
 * getStaticPaths for landing pages in both locales, from the API: /service/{url}/, /artikler/{url}/ and
 * free pages at /{url}/ (SEO staff's own pages; addresses the site uses itself are refused when they are
 * written and skipped here).
 */
import { findLandingPage, getLandingPages, landingSlug } from '#lib/api/build-data.ts';
import type { LandingKind, LandingPage } from '#lib/api/types.ts';
import { RESERVED_TOP_SEGMENTS } from '#lib/schemas/landing-page.ts';
import { localizePath, locales, type Locale } from '#lib/i18n/locales.ts';

export type LandingProps = {
  locale: Locale;
  kind: LandingKind | 'free';
  page: LandingPage;
  /** This page's path in each locale that has the same slug (hreflang). */
  alternates: Partial<Record<Locale, string>>;
  /** Where the language picker goes: the twin, or the other locale's index. */
  languageTargets: Partial<Record<Locale, string>>;
};

/** A landing page's path (Danish form; localizePath adds /en). */
export function landingPagePath(kind: LandingKind | 'free', slug: string): string {
  return kind === 'free' ? `/${slug}/` : `/${kind}/${slug}/`;
}

export async function landingStaticPaths(kind: LandingKind | 'free') {
  const slugsByLocale = new Map<Locale, Set<string>>();
  const lists = await Promise.all(locales.map(async (locale) => [locale, await getLandingPages(kind, locale)] as const));
  for (const [locale, list] of lists) slugsByLocale.set(locale, new Set(list.map((item) => landingSlug(item.url))));

  const paths: { params: { locale: string | undefined; url: string }; props: LandingProps }[] = [];
  for (const [locale, list] of lists) {
    for (const item of list) {
      const slug = landingSlug(item.url);
      if (!slug || (kind === 'free' && RESERVED_TOP_SEGMENTS.has(slug))) continue;
      const page = await findLandingPage(kind, item.url, locale);
      if (!page) continue;
      const alternates: Partial<Record<Locale, string>> = {};
      const languageTargets: Partial<Record<Locale, string>> = {};
      for (const other of locales) {
        const twin = localizePath(landingPagePath(kind, slug), other);
        if (slugsByLocale.get(other)?.has(slug)) {
          alternates[other] = twin;
          languageTargets[other] = twin;
        } else {
          languageTargets[other] = localizePath(kind === 'free' ? '/' : `/${kind}/`, other);
        }
      }
      paths.push({
        params: { locale: locale === 'en' ? 'en' : undefined, url: slug },
        props: { locale, kind, page, alternates, languageTargets },
      });
    }
  }
  return paths;
}
