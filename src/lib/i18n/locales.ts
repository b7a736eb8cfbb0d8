/**
 * Locales and locale-aware paths. Tiny and free of i18next so public islands can use it.
 * Danish pages live at the spec's URLs; English twins under /en/ with the same path after the prefix.
 */

export const locales = ['da', 'en'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'da';

/** The cookie that stores the visitor's language choice, and how long it lives. */
export const LOCALE_COOKIE = 'locale';
export const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** A language the picker offers (from /api/frontend/languages). */
export type LanguageOption = { name: Locale; title: string };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

/** The locale a site path belongs to: '/en' and '/en/...' are English, everything else Danish. */
export function localeFromPath(pathname: string): Locale {
  return pathname === '/en' || pathname.startsWith('/en/') ? 'en' : 'da';
}

/** '/en/cookies/' → '/cookies/'; a Danish path is returned unchanged. */
export function stripLocale(pathname: string): string {
  if (pathname === '/en' || pathname === '/en/') return '/';
  return pathname.startsWith('/en/') ? pathname.slice(3) : pathname;
}

/** A Danish (unprefixed) site path in the given locale: ('/cookies/', 'en') → '/en/cookies/'. */
export function localizePath(path: string, locale: Locale): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  return locale === 'en' ? `/en${clean}` : clean;
}

/** The same page in the other language: ('/en/cookies/', 'da') → '/cookies/'. */
export function twinPath(pathname: string, target: Locale): string {
  return localizePath(stripLocale(pathname), target);
}

/** The Set-Cookie-style string (for document.cookie) that stores the locale for one year. */
export function localeCookie(locale: Locale, secure = false): string {
  return `${LOCALE_COOKIE}=${locale}; Max-Age=${ONE_YEAR_SECONDS}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Reads the locale cookie from a Cookie header or document.cookie; undefined when absent or unknown. */
export function readLocaleCookie(cookieString: string): Locale | undefined {
  for (const part of cookieString.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === LOCALE_COOKIE && isLocale(value)) return value;
  }
  return undefined;
}
