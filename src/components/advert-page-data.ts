/** Build-time data of the advert pages that is the same for every advert of a locale (computed once). */
import { siteMessages } from '#lib/i18n/site.ts';
import type { Locale } from '#lib/i18n/locales.ts';
import { REPORT_MESSAGES } from './advert-view.ts';

const reportJson = new Map<Locale, string>();

/** The report form's strings as JSON for a `<script type="application/json">` (`<` escaped). */
export function reportMessagesJson(locale: Locale): string {
  let json = reportJson.get(locale);
  if (!json) {
    json = JSON.stringify(siteMessages(locale, REPORT_MESSAGES)).replace(/</g, '\\u003c');
    reportJson.set(locale, json);
  }
  return json;
}
