/**
 * The advert card of every result list (front page, landing pages, search island) as an HTML string,
 * so the prebuilt pages, the front page's small refresh script and the React results show one and the
 * same card. Every value from the API is escaped (see ./html.ts).
 */
import type { AdvertCard, AdvertKind, PublicPicture } from './schemas/public-advert.ts';
import type { Locale } from './i18n/locales.ts';
import { localizePath } from './i18n/locales.ts';
import { translate, type Messages } from './i18n/messages.ts';
import { attributes, escapeHtml } from './html.ts';
import { pictureSources } from './pictures.ts';

/** The catalog prefixes a card needs (pass `siteMessages(locale, CARD_MESSAGES)` to a script or island). */
export const CARD_MESSAGES = ['card'];

/** Grid widths: 2 columns below 768 px, 3 up to 1024 px, then 4 in a 1200 px wide page. */
export const CARD_SIZES = '(min-width: 1024px) 280px, (min-width: 768px) 33vw, 50vw';

/** The kind of one advert (singular: 'Escort', not the list pages' 'Escorts'). */
export const KIND_MESSAGE: Record<AdvertKind, string> = {
  escort: 'card.kind_escort',
  'trans-escort': 'card.kind_trans-escort',
  thaimassage: 'card.kind_thaimassage',
};

export type PictureOptions = {
  alt: string;
  sizes: string;
  /** Above the fold: eager and high priority; else lazy. */
  eager?: boolean;
  className?: string;
};

/** `<picture>` with one `<source>` per extra format, width/height always set (no layout shift). */
export function pictureHtml(picture: PublicPicture, options: PictureOptions): string {
  const sources = pictureSources(picture);
  if (!sources) return '';
  const { img } = sources;
  return (
    '<picture>' +
    sources.sources.map((source) => `<source${attributes({ type: source.type, srcset: source.srcset, sizes: options.sizes })}>`).join('') +
    `<img${attributes({
      src: img.src,
      srcset: img.srcset,
      sizes: options.sizes,
      width: img.width,
      height: img.height,
      alt: options.alt,
      loading: options.eager ? 'eager' : 'lazy',
      fetchpriority: options.eager ? 'high' : undefined,
      decoding: 'async',
      class: options.className,
    })}>` +
    '</picture>'
  );
}

/** 4.5 → '4,5' in Danish, '4.5' in English. */
export function formatRating(rating: number, locale: Locale): string {
  const text = (Math.round(rating * 10) / 10).toFixed(1);
  return locale === 'da' ? text.replace('.', ',') : text;
}

/** Where a list shows adverts, so a boost bought for that place is marked as paid (/ranking/). */
export type PromotionPlace = 'frontPage' | 'search';

export type CardOptions = {
  locale: Locale;
  messages: Messages;
  /** The list's place: a card boosted there says "Paid placement". */
  promotion?: PromotionPlace;
  /** The first row of a list loads its picture eagerly. */
  eager?: boolean;
};

/** One card: a link to the advert (locale-aware), its primary picture, name, age, city, kind and badges. */
export function advertCardHtml(card: AdvertCard, options: CardOptions): string {
  const { locale, messages } = options;
  const t = (key: string, values?: Record<string, string | number>) => escapeHtml(translate(messages, key, values));
  const href = localizePath(card.url, locale);
  const picture = card.picture
    ? pictureHtml(card.picture, {
        alt: '',
        sizes: CARD_SIZES,
        eager: options.eager ?? false,
        className: 'h-full w-full object-cover transition duration-300 group-hover:scale-[1.02]',
      })
    : `<span class="flex h-full w-full items-center justify-center text-5xl font-semibold text-slate-400" aria-hidden="true">${escapeHtml(card.name.slice(0, 1).toUpperCase())}</span>`;
  const place = [card.city, translate(messages, KIND_MESSAGE[card.kind])].filter(Boolean).map((part) => escapeHtml(part!)).join(' · ');
  const badges: string[] = [];
  const promoted = options.promotion === 'frontPage' ? card.frontPageBoosted : options.promotion === 'search' && card.searchBoosted;
  if (promoted) {
    badges.push(`<li class="rounded-full bg-violet-50 px-2 py-0.5 font-medium text-violet-900" data-paid-placement>${t('card.promoted')}</li>`);
  }
  if (card.validated) {
    badges.push(
      `<li class="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 font-medium text-emerald-800"><svg aria-hidden="true" viewBox="0 0 20 20" class="h-3.5 w-3.5" fill="currentColor"><path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z"/></svg>${t('card.validated')}</li>`,
    );
  }
  if (card.hasVideo) {
    badges.push(`<li class="rounded-full bg-sky-50 px-2 py-0.5 font-medium text-sky-800">${t('card.video')}</li>`);
  }
  if (card.reviewCount > 0) {
    const rating = card.rating === null ? '' : `<span aria-hidden="true">★</span> ${escapeHtml(formatRating(card.rating, locale))} · `;
    badges.push(
      `<li class="rounded-full bg-amber-50 px-2 py-0.5 font-medium text-amber-900">${rating}${t('card.reviews', { count: card.reviewCount })}</li>`,
    );
  }
  const age = card.age === null ? '' : `<span class="font-normal text-slate-600">, ${t('card.age', { age: card.age })}</span>`;
  return (
    `<article class="group relative flex h-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition hover:border-slate-300 hover:shadow-md has-[a:focus-visible]:ring-3 has-[a:focus-visible]:ring-blue-700" data-advert-card="${card.id}">` +
    `<div class="relative aspect-[3/4] overflow-hidden bg-slate-100">${picture}</div>` +
    '<div class="flex flex-1 flex-col gap-1 p-3">' +
    `<h3 class="text-base leading-snug font-semibold text-ink"><a href="${escapeHtml(href)}" class="after:absolute after:inset-0 after:content-[''] hover:text-brand-700 focus-visible:outline-none">${escapeHtml(card.name)}</a>${age}</h3>` +
    `<p class="text-sm text-muted">${place}</p>` +
    (badges.length > 0 ? `<ul class="mt-auto flex flex-wrap gap-1 pt-1 text-xs whitespace-nowrap">${badges.join('')}</ul>` : '') +
    '</div></article>'
  );
}

/** Cards per row at the widest layout: the first row is loaded eagerly. */
export const FIRST_ROW = 4;

/** The `<li>` items of a card grid. */
export function advertGridItemsHtml(cards: AdvertCard[], options: Omit<CardOptions, 'eager'>): string {
  return cards.map((card, index) => `<li>${advertCardHtml(card, { ...options, eager: index < FIRST_ROW })}</li>`).join('');
}

/** The class of the `<ul>` around card grid items. */
export const GRID_CLASS = 'grid grid-cols-2 gap-3 md:grid-cols-3 md:gap-4 lg:grid-cols-4';
