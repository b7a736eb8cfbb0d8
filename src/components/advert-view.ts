/** Pure helpers of the advert page (prebuilt, and rendered in the browser for adverts not built yet). */
import type { FullProfile } from '#lib/schemas/public-advert.ts';
import { localizePath, type Locale } from '#lib/i18n/locales.ts';

type T = (key: string, values?: Record<string, string | number>) => string;

/** The catalog prefixes the advert page needs. */
export const ADVERT_MESSAGES = ['advert', 'report', 'reviewForm', 'kinds', 'card', 'validation', 'errors', 'landing.breadcrumb', 'nav.home'];

export const KIND_KEYS: Record<FullProfile['kind'], string> = {
  escort: 'kinds.escort',
  'trans-escort': 'kinds.transEscort',
  thaimassage: 'kinds.thaimassage',
};

/** Home › kind › region › city › name, as site paths in the page's language. */
export function advertCrumbs(profile: FullProfile, locale: Locale, t: T): { name: string; href: string }[] {
  const { regionSlug, region, citySlug, city } = profile.location;
  const crumbs = [
    { name: t('nav.home'), href: localizePath('/', locale) },
    { name: t(KIND_KEYS[profile.kind]), href: localizePath(`/${profile.kind}/`, locale) },
  ];
  if (regionSlug && region) crumbs.push({ name: region, href: localizePath(`/${profile.kind}/${regionSlug}/`, locale) });
  if (regionSlug && citySlug && city) crumbs.push({ name: city, href: localizePath(`/${profile.kind}/${regionSlug}/${citySlug}/`, locale) });
  crumbs.push({ name: profile.name, href: localizePath(profile.url, locale) });
  return crumbs;
}

/** The city landing page of an advert's location (or its region's), or null without a location. */
export function locationHref(profile: FullProfile, locale: Locale): string | null {
  const { regionSlug, citySlug } = profile.location;
  if (!regionSlug) return null;
  return localizePath(`/${profile.kind}/${regionSlug}/${citySlug ? `${citySlug}/` : ''}`, locale);
}

/** 30 → '30 min', 60 → '1 time', 90 → '1 t 30 min', 120 → '2 timer' (texts from the catalog). */
export function formatDuration(minutes: number, t: T): string {
  if (minutes < 60) return t('advert.durationMinutes', { count: minutes });
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? t('advert.durationHours', { count: hours }) : t('advert.durationHoursMinutes', { hours, minutes: rest });
}

/** Danish numbers in pairs: '26266095' → '26 26 60 95'; a masked '2626xxxx' → '26 26 xx xx'. */
export function phoneDisplay(phone: string): string {
  const compact = phone.replace(/[^\dx+]/gi, '');
  return /^[\dx]{8}$/i.test(compact) ? compact.replace(/(..)(?=.)/g, '$1 ') : phone;
}

/** A tel: link for a Danish number (8 digits get +45). */
export function telHref(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, '');
  return /^\d{8}$/.test(digits) ? `tel:+45${digits}` : `tel:${digits}`;
}

/** WhatsApp (spec: https://wa.me/45{digits}). */
export function whatsappHref(phone: string): string {
  return `https://wa.me/45${phone.replace(/\D/g, '').slice(-8)}`;
}

/** The advertiser's website when it is an http(s) URL; anything else is not linked. */
export function safeWebsite(website: string | null): { href: string; label: string } | null {
  if (!website) return null;
  const withScheme = /^https?:\/\//i.test(website.trim()) ? website.trim() : `https://${website.trim()}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return { href: url.toString(), label: url.host.replace(/^www\./, '') + (url.pathname === '/' ? '' : url.pathname) };
  } catch {
    return null;
  }
}

/** Service type labels (spec §3): 1 Girlfriend experience, 2 Pornstar experience, 3 Advanced, other Massage. */
export function serviceGroups(services: FullProfile['services']): { type: 1 | 2 | 3 | 4; services: FullProfile['services'] }[] {
  const groups = new Map<1 | 2 | 3 | 4, FullProfile['services']>();
  for (const service of services) {
    const type = service.type === 1 || service.type === 2 || service.type === 3 ? service.type : 4;
    groups.set(type, [...(groups.get(type) ?? []), service]);
  }
  return ([1, 2, 3, 4] as const).filter((type) => groups.has(type)).map((type) => ({ type, services: groups.get(type)! }));
}

export const PAYMENT_OPTIONS = ['cash', 'creditcard', 'mobilepay', 'paypal', 'revolut', 'wise'] as const;

/** The average rating of the reviews, or null without reviews. */
export function averageRating(reviews: FullProfile['reviews']): number | null {
  if (reviews.length === 0) return null;
  return reviews.reduce((sum, review) => sum + review.rating, 0) / reviews.length;
}

/** The catalog prefixes of the report form and the review form (one script element on the advert page). */
export const REPORT_MESSAGES = ['report', 'reviewForm', 'validation', 'errors'];

/** Title and description of an advert page: name, kind and city; the advert's own title and introduction. */
export function advertPageMeta(profile: FullProfile, t: T): { title: string; description: string } {
  const kind = t(`card.kind_${profile.kind}`);
  // The advert number keeps titles unique when two advertisers share a name and a city.
  const title = profile.location.city
    ? t('advert.metaTitle', { name: profile.name, kind, city: profile.location.city, id: profile.id })
    : t('advert.metaTitleNoCity', { name: profile.name, kind, id: profile.id });
  // Name, kind and place first: two adverts with the same texts still get different descriptions.
  const place = profile.location.city ? `${kind}, ${profile.location.city}` : kind;
  const text = [`${profile.name} (${place})`, profile.title, profile.introduction].filter(Boolean).join(' – ');
  const description = text.length > 160 ? `${text.slice(0, 159).replace(/\s+\S*$/, '')}…` : text;
  return { title, description };
}
