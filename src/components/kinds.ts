import { localizePath, type Locale } from '#lib/i18n/locales.ts';

/** The three advert kinds as they appear in URLs (spec section 2) and their catalog keys. */
export const kinds = ['escort', 'trans-escort', 'thaimassage'] as const;
export type Kind = (typeof kinds)[number];

export const kindKey: Record<Kind, string> = {
  escort: 'kinds.escort',
  'trans-escort': 'kinds.transEscort',
  thaimassage: 'kinds.thaimassage',
};

/** The header's category links (desktop header and mobile menu), in the page's language. */
export function categoryLinks(locale: Locale, t: (key: string) => string): { href: string; label: string }[] {
  return [
    { href: localizePath('/escort/', locale), label: t('nav.escort') },
    { href: localizePath('/thaimassage/', locale), label: t('nav.thaimassage') },
    { href: localizePath('/trans-escort/', locale), label: t('nav.trans') },
  ];
}
