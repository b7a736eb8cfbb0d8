/**
 * The public page that says how adverts are ordered and that payment affects it (EU 2019/1150 art. 5;
 * docs/decisions/026-ranking.md): linked from the footer, and from wherever a promotion is bought.
 */
import { localizePath, type Locale } from './i18n/locales.ts';

/** The Danish path; English under /en/. */
export const RANKING_PAGE_PATH = '/ranking/';

/** The ranking page in a language: `/ranking/` or `/en/ranking/`. */
export function rankingPageHref(locale: Locale): string {
  return localizePath(RANKING_PAGE_PATH, locale);
}
