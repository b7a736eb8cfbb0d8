/**
 * One way to create an i18next instance: for a locale, with the catalogs (namespaces) the caller imports.
 * Initialised synchronously (the catalogs are bundled, nothing is fetched), so `t` works right after.
 * Used by .astro pages at build time (see ./site.ts) and by the client-only dashboards, which import only
 * their own namespaces. Public islands do not ship i18next: they get their strings as props (./messages.ts).
 */
import { createInstance, type i18n } from 'i18next';
import type { Locale } from './locales.ts';

export type Namespace = 'common' | 'backend' | 'support';
export type Catalog = { [key: string]: string | Catalog };
export type Catalogs = Partial<Record<Locale, Partial<Record<Namespace, Catalog>>>>;

export function createI18n(options: { locale: Locale; catalogs: Catalogs; defaultNamespace: Namespace }): i18n {
  const namespaces = new Set<string>();
  for (const perLocale of Object.values(options.catalogs)) {
    for (const ns of Object.keys(perLocale ?? {})) namespaces.add(ns);
  }
  const instance = createInstance();
  void instance.init({
    lng: options.locale,
    supportedLngs: ['da', 'en'],
    fallbackLng: false,
    ns: [...namespaces],
    defaultNS: options.defaultNamespace,
    fallbackNS: options.defaultNamespace === 'common' ? false : 'common',
    resources: options.catalogs,
    initAsync: false,
    returnNull: false,
    returnEmptyString: false,
    interpolation: { escapeValue: false },
  });
  return instance;
}
