/** getStaticPaths for pages under src/pages/[...locale]/: Danish at the root, English under /en/. */
import type { Locale } from '#lib/i18n/locales.ts';

export type LocaleProps = { locale: Locale };

export function localeStaticPaths(): { params: { locale: string | undefined }; props: LocaleProps }[] {
  return [
    { params: { locale: undefined }, props: { locale: 'da' } },
    { params: { locale: 'en' }, props: { locale: 'en' } },
  ];
}
