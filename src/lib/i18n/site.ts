/**
 * Build-time translations for .astro pages: the `common` namespace in both locales, one instance each.
 * Never imported by islands (it bundles every common string).
 */
import type { TFunction } from 'i18next';
import { createI18n, type Catalog } from './index.ts';
import type { Locale } from './locales.ts';
import { pickMessages, type Messages } from './messages.ts';
import daCommon from './da/common.json' with { type: 'json' };
import enCommon from './en/common.json' with { type: 'json' };

const common: Record<Locale, Catalog> = { da: daCommon, en: enCommon };
const translators = new Map<Locale, TFunction>();

/** The `t` function of the common namespace for a locale. */
export function siteT(locale: Locale): TFunction {
  let t = translators.get(locale);
  if (!t) {
    t = createI18n({ locale, catalogs: { [locale]: { common: common[locale] } }, defaultNamespace: 'common' }).t;
    translators.set(locale, t);
  }
  return t;
}

/** The strings under the given key prefixes (e.g. 'ageGate'), flat, for an island's `messages` prop. */
export function siteMessages(locale: Locale, prefixes: string[]): Messages {
  return pickMessages(common[locale], prefixes);
}
