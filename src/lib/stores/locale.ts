/**
 * The language of the client-only apps (/backend/, /support/). Switching happens in place: the store
 * changes, the screens re-render, <html lang> follows and the `locale` cookie (1 year) remembers it.
 */
import { atom } from 'nanostores';
import { defaultLocale, isLocale, localeCookie, readLocaleCookie, type Locale } from '../i18n/locales.ts';

function initialLocale(): Locale {
  if (typeof document === 'undefined') return defaultLocale;
  const fromCookie = readLocaleCookie(document.cookie);
  if (fromCookie) return fromCookie;
  const fromHtml = document.documentElement.lang;
  return isLocale(fromHtml) ? fromHtml : defaultLocale;
}

export const $locale = atom<Locale>(initialLocale());

export function setLocale(locale: Locale): void {
  $locale.set(locale);
  if (typeof document !== 'undefined') {
    document.cookie = localeCookie(locale, location.protocol === 'https:');
    document.documentElement.lang = locale;
  }
}
