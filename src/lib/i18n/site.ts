/**
 * Build-time translations for .astro pages: the `common` namespace in both locales. `t` uses the same
 * small translator as the islands (./messages.ts: {{placeholders}} and i18next's `_one`/`_other` plural
 * keys) over the flattened catalog: a site build calls it millions of times, and i18next's general
 * machinery cost a noticeable share of the build. Never imported by islands (it bundles every common string).
 */
import type { Catalog } from './index.ts';
import type { Locale } from './locales.ts';
import { flattenCatalog, pickMessages, translate, type Messages } from './messages.ts';
import daCommon from './da/common.json' with { type: 'json' };
import enCommon from './en/common.json' with { type: 'json' };

const common: Record<Locale, Catalog> = { da: daCommon as unknown as Catalog, en: enCommon as unknown as Catalog };

export type SiteT = (key: string, values?: Record<string, string | number | undefined>) => string;

const translators = new Map<Locale, SiteT>();

/** The `t` function of the common namespace for a locale. */
export function siteT(locale: Locale): SiteT {
  let t = translators.get(locale);
  if (!t) {
    const flat = flattenCatalog(common[locale]);
    t = (key, values) => translate(flat, key, values as Record<string, string | number> | undefined);
    translators.set(locale, t);
  }
  return t;
}

const picked = new Map<string, Messages>();

/**
 * The strings under the given key prefixes (e.g. 'ageGate'), flat, for an island's `messages` prop.
 * Memoised: thousands of pages ask for the same selection during one build.
 */
export function siteMessages(locale: Locale, prefixes: string[]): Messages {
  const key = `${locale}:${prefixes.join(',')}`;
  let messages = picked.get(key);
  if (!messages) {
    messages = pickMessages(common[locale], prefixes);
    picked.set(key, messages);
  }
  return messages;
}
