/** What both news screens use: the languages a news item can be in. */
import type { TFunction } from 'i18next';
import { NEWS_LOCALES } from '#lib/schemas/news.ts';

/** The options of a language select, one per language news can be written in. */
export function NewsLocaleOptions({ t }: { t: TFunction }) {
  return NEWS_LOCALES.map((code) => (
    <option key={code} value={code}>
      {t(`news.languages.${code}`)}
    </option>
  ));
}
