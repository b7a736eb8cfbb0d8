import { describe, expect, it } from 'vitest';
import { pictureSources, srcsetOf } from '#lib/pictures.ts';
import { advertCardHtml, formatRating } from '#lib/advert-card.ts';
import { escapeHtml } from '#lib/html.ts';
import {
  DEFAULT_FILTERS,
  activeFilterCount,
  filtersFromQuery,
  filtersToQuery,
  needsFetch,
  pageWindow,
  searchCallParams,
} from '#lib/search-filters.ts';
import { copenhagenClock, isOpenAt, scheduleByWeekday } from '#lib/schedule.ts';
import { translate } from '#lib/i18n/messages.ts';
import type { AdvertCard, PublicPicture } from '#lib/schemas/public-advert.ts';

const webpOnly: PublicPicture = {
  id: 1,
  width: 640,
  height: 853,
  variants: [
    { url: '/media/a-640.webp', width: 640, height: 853, format: 'webp' },
    { url: '/media/a-320.webp', width: 320, height: 427, format: 'webp' },
  ],
};

describe('picture sources (srcset)', () => {
  it('puts a single format on the <img>, narrowest first, with the intrinsic size', () => {
    const sources = pictureSources(webpOnly)!;
    expect(sources.sources).toEqual([]);
    expect(sources.img).toEqual({
      src: '/media/a-640.webp',
      srcset: '/media/a-320.webp 320w, /media/a-640.webp 640w',
      width: 640,
      height: 853,
    });
  });

  it('groups formats: AVIF before WebP in <source>, the most compatible on the <img>', () => {
    const picture: PublicPicture = {
      ...webpOnly,
      variants: [
        ...webpOnly.variants,
        { url: '/media/a-320.avif', width: 320, height: 427, format: 'avif' },
        { url: '/media/a-640.avif', width: 640, height: 853, format: 'image/avif' },
        { url: '/media/a-640.jpg', width: 640, height: 853, format: 'jpg' },
      ],
    };
    const sources = pictureSources(picture, 320)!;
    expect(sources.sources).toEqual([
      { type: 'image/avif', srcset: '/media/a-320.avif 320w, /media/a-640.avif 640w' },
      { type: 'image/webp', srcset: '/media/a-320.webp 320w, /media/a-640.webp 640w' },
    ]);
    expect(sources.img.src).toBe('/media/a-640.jpg');
    expect(sources.img.srcset).toBe('/media/a-640.jpg 640w');
  });

  it('has nothing to show without variants', () => {
    expect(pictureSources({ ...webpOnly, variants: [] })).toBeNull();
    expect(srcsetOf([])).toBe('');
  });
});

const card: AdvertCard = {
  id: 7,
  name: 'Anna <b>&</b> "Co"',
  url: '/annonce/anna-b-co-7/',
  kind: 'thaimassage',
  title: 't',
  introduction: 'i',
  age: 31,
  city: 'Køge',
  citySlug: 'koege',
  region: 'Region Sjælland',
  regionSlug: 'region-sjaelland',
  picture: webpOnly,
  validated: true,
  hasVideo: true,
  reviewCount: 1,
  rating: 4.25,
  frontPageBoosted: false,
  searchBoosted: false,
};

const messages = {
  'card.validated': 'Valideret',
  'card.video': 'Video',
  'card.reviews_one': '{{count}} anmeldelse',
  'card.reviews_other': '{{count}} anmeldelser',
  'card.age': '{{age}} år',
  'card.kind_thaimassage': 'Thaimassage',
  'card.promoted': 'Betalt placering',
};

describe('advert card', () => {
  it('escapes every value and links the advert in the page language', () => {
    const da = advertCardHtml(card, { locale: 'da', messages });
    expect(da).toContain('Anna &lt;b&gt;&amp;&lt;/b&gt; &quot;Co&quot;');
    expect(da).not.toContain('<b>&</b>');
    expect(da).toContain('href="/annonce/anna-b-co-7/"');
    expect(da).toContain('31 år');
    expect(da).toContain('Køge · Thaimassage');
    expect(da).toContain('Valideret');
    expect(da).toContain('4,3 · 1 anmeldelse');
    expect(da).toContain('loading="lazy"');
    expect(da).toContain('width="640" height="853"');
    const en = advertCardHtml({ ...card, reviewCount: 3 }, { locale: 'en', messages, eager: true });
    expect(en).toContain('href="/en/annonce/anna-b-co-7/"');
    expect(en).toContain('3 anmeldelser');
    expect(en).toContain('loading="eager" fetchpriority="high"');
  });

  it('marks a paid placement only in the list where the boost was bought', () => {
    const frontBoosted = { ...card, frontPageBoosted: true };
    expect(advertCardHtml(frontBoosted, { locale: 'da', messages, promotion: 'frontPage' })).toContain('Betalt placering');
    expect(advertCardHtml(frontBoosted, { locale: 'da', messages, promotion: 'search' })).not.toContain('Betalt placering');
    expect(advertCardHtml({ ...card, searchBoosted: true }, { locale: 'da', messages, promotion: 'search' })).toContain('Betalt placering');
    expect(advertCardHtml({ ...card, searchBoosted: true }, { locale: 'da', messages })).not.toContain('Betalt placering');
  });

  it('formats ratings per language and escapes text', () => {
    expect(formatRating(4.5, 'da')).toBe('4,5');
    expect(formatRating(4, 'en')).toBe('4.0');
    expect(escapeHtml(`<a href="x">'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&lt;/a&gt;');
  });

  it('picks plural forms by count', () => {
    expect(translate(messages, 'card.reviews', { count: 1 })).toBe('1 anmeldelse');
    expect(translate(messages, 'card.reviews', { count: 0 })).toBe('0 anmeldelser');
    expect(translate({ plain: '{{count}} x' }, 'plain', { count: 2 })).toBe('2 x');
  });
});

describe('search filters <-> URL', () => {
  it('reads every filter of the spec and writes it back in a fixed order without defaults', () => {
    const query =
      '?video=true&outcall=1&incall=true&review=true&validated=true&languages=2,1&breasts=1&nationalities=5&services=3,9&text=blond&ageFrom=25&ageTo=40&heightFrom=160&weightTo=70&page=3';
    const state = filtersFromQuery(query);
    expect(state).toMatchObject({
      video: true,
      outcall: true,
      incall: true,
      review: true,
      validated: true,
      languages: [1, 2],
      breasts: [1],
      nationalities: [5],
      services: [3, 9],
      text: 'blond',
      ageFrom: 25,
      ageTo: 40,
      heightFrom: 160,
      heightTo: 220,
      weightFrom: 40,
      weightTo: 70,
      page: 3,
    });
    expect(filtersToQuery(state)).toBe(
      '?incall=true&outcall=true&validated=true&video=true&review=true&languages=1,2&nationalities=5&services=3,9&breasts=1&text=blond&ageFrom=25&ageTo=40&heightFrom=160&weightTo=70&page=3',
    );
    expect(activeFilterCount(state)).toBe(13);
    expect(filtersFromQuery(filtersToQuery(state))).toEqual(state);
  });

  it('leaves ranges out when they are the defaults (18-80, 140-220, 40-120) and ignores junk', () => {
    expect(filtersToQuery(filtersFromQuery('?ageFrom=18&ageTo=80&heightFrom=140&weightTo=120'))).toBe('');
    const junk = filtersFromQuery('?languages=1,x,,2,2&ageFrom=abc&ageTo=999&page=-1&video=yes');
    expect(junk.languages).toEqual([1, 2]);
    expect(junk.ageFrom).toBe(18);
    expect(junk.ageTo).toBe(80);
    expect(junk.page).toBe(1);
    expect(junk.video).toBe(false);
    expect(filtersFromQuery('?ageFrom=50&ageTo=30')).toMatchObject({ ageFrom: 30, ageTo: 50 });
  });

  it('knows when the prebuilt first page is not enough', () => {
    expect(needsFetch(DEFAULT_FILTERS)).toBe(false);
    expect(needsFetch({ ...DEFAULT_FILTERS, page: 2 })).toBe(true);
    expect(needsFetch({ ...DEFAULT_FILTERS, validated: true })).toBe(true);
  });

  it('builds the search call: the landing path, set filters only, paging and locale', () => {
    const state = filtersFromQuery('?incall=true&languages=1,2&ageTo=30&page=2');
    expect(searchCallParams(state, { url: '/escort/region-hovedstaden/', locale: 'en' })).toEqual({
      Url: '/escort/region-hovedstaden/',
      Incall: 'true',
      Languages: '1,2',
      AgeTo: 30,
      Page: 2,
      PageSize: 24,
      Locale: 'en',
    });
    expect(searchCallParams(DEFAULT_FILTERS, { text: ' anna ', locale: 'da', pageSize: 12 })).toEqual({
      Text: 'anna',
      Page: 1,
      PageSize: 12,
      Locale: 'da',
    });
  });

  it('offers a window of page numbers', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(6, 20)).toEqual([1, null, 4, 5, 6, 7, 8, null, 20]);
    expect(pageWindow(20, 20)).toEqual([1, null, 18, 19, 20]);
  });
});

describe('open now (Europe/Copenhagen)', () => {
  // 2026-03-02 is a Monday. Copenhagen is UTC+1 in winter, UTC+2 in summer.
  const monday = (time: string, offset = '+01:00') => new Date(`2026-03-02T${time}:00${offset}`);

  it('reads weekday and time in Copenhagen, whatever the machine zone', () => {
    expect(copenhagenClock(new Date('2026-03-01T23:30:00Z'))).toEqual({ weekday: 1, minutes: 30 });
    expect(copenhagenClock(new Date('2026-07-05T22:15:00Z'))).toEqual({ weekday: 1, minutes: 15 });
  });

  it('is open inside a period and closed outside it', () => {
    const schedule = [{ weekday: 1, from: '13:00', to: '23:00' }];
    expect(isOpenAt(schedule, monday('13:00'))).toBe(true);
    expect(isOpenAt(schedule, monday('22:59'))).toBe(true);
    expect(isOpenAt(schedule, monday('23:00'))).toBe(false);
    expect(isOpenAt(schedule, monday('12:59'))).toBe(false);
    expect(isOpenAt(schedule, new Date('2026-03-03T14:00:00+01:00'))).toBe(false);
    expect(isOpenAt([], monday('14:00'))).toBe(false);
  });

  it('handles periods past midnight and whole days', () => {
    const night = [{ weekday: 7, from: '20:00', to: '02:00' }];
    expect(isOpenAt(night, monday('01:30'))).toBe(true);
    expect(isOpenAt(night, monday('02:00'))).toBe(false);
    expect(isOpenAt([{ weekday: 1, from: '20:00', to: '00:00' }], monday('23:59'))).toBe(true);
    expect(isOpenAt([{ weekday: 1, from: '00:00', to: '00:00' }], monday('00:00'))).toBe(true);
    expect(isOpenAt([{ weekday: 1, from: '00:00', to: '24:00' }], monday('23:59'))).toBe(true);
  });

  it('groups a schedule by weekday, Monday first', () => {
    const grouped = scheduleByWeekday([
      { weekday: 3, from: '18:00', to: '20:00' },
      { weekday: 3, from: '09:00', to: '12:00' },
    ]);
    expect(grouped.map(([day]) => day)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(grouped[2]![1].map((e) => e.from)).toEqual(['09:00', '18:00']);
  });
});

describe('header search target', () => {
  it('goes to a page SEO staff tied to the keyword, on this site and in the page language', async () => {
    const { freeTextTargetPath } = await import('../../src/components/search-text.ts');
    expect(freeTextTargetPath('/escort/region-hovedstaden/koebenhavn/', 'da')).toBe('/escort/region-hovedstaden/koebenhavn/');
    expect(freeTextTargetPath('escort/region-hovedstaden', 'en')).toBe('/en/escort/region-hovedstaden/');
    expect(freeTextTargetPath('/en/artikler/x/', 'en')).toBe('/en/artikler/x/');
    expect(freeTextTargetPath('/escort/?services=3', 'da')).toBe('/escort/?services=3');
    expect(freeTextTargetPath('https://evil.example/', 'da')).toBeNull();
    expect(freeTextTargetPath('//evil.example/x', 'da')).toBeNull();
    expect(freeTextTargetPath(null, 'da')).toBeNull();
  });
});

describe('advert page helpers', async () => {
  const view = await import('../../src/components/advert-view.ts');
  const t = (key: string, values?: Record<string, string | number>) =>
    translate(
      {
        'advert.durationMinutes_one': '{{count}} minut',
        'advert.durationMinutes_other': '{{count}} min.',
        'advert.durationHours_one': '{{count}} time',
        'advert.durationHours_other': '{{count}} timer',
        'advert.durationHoursMinutes': '{{hours}} t. {{minutes}} min.',
        'advert.metaTitle': '{{name}} – {{kind}} i {{city}} · annonce {{id}}',
        'advert.metaTitleNoCity': '{{name}} – {{kind}} · annonce {{id}}',
        'kinds.escort': 'Escort',
        'nav.home': 'Forside',
      },
      key,
      values,
    );

  it('formats durations, phone numbers and their links', () => {
    expect(view.formatDuration(30, t)).toBe('30 min.');
    expect(view.formatDuration(60, t)).toBe('1 time');
    expect(view.formatDuration(90, t)).toBe('1 t. 30 min.');
    expect(view.formatDuration(180, t)).toBe('3 timer');
    expect(view.phoneDisplay('26266095')).toBe('26 26 60 95');
    expect(view.phoneDisplay('2626xxxx')).toBe('26 26 xx xx');
    expect(view.telHref('26 26 60 95')).toBe('tel:+4526266095');
    expect(view.telHref('+46 70 123 45 67')).toBe('tel:+46701234567');
    expect(view.whatsappHref('+45 26 26 60 95')).toBe('https://wa.me/4526266095');
  });

  it('links only http(s) websites and groups services by the spec types', () => {
    expect(view.safeWebsite('www.example.dk')).toEqual({ href: 'https://www.example.dk/', label: 'example.dk' });
    expect(view.safeWebsite('http://example.dk/me')).toEqual({ href: 'http://example.dk/me', label: 'example.dk/me' });
    expect(view.safeWebsite('javascript:alert(1)')).toBeNull();
    expect(view.safeWebsite(null)).toBeNull();
    const groups = view.serviceGroups([
      { id: 1, slug: 'a', name: 'A', type: 3 },
      { id: 2, slug: 'b', name: 'B', type: 1 },
      { id: 3, slug: 'c', name: 'C', type: 7 },
      { id: 4, slug: 'd', name: 'D', type: 1 },
    ]);
    expect(groups.map((g) => [g.type, g.services.map((s) => s.name)])).toEqual([
      [1, ['B', 'D']],
      [3, ['A']],
      [4, ['C']],
    ]);
    expect(view.averageRating([])).toBeNull();
  });
});
