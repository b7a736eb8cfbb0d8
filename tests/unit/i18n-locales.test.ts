import { describe, expect, it } from 'vitest';
import {
  isLocale,
  localeCookie,
  localeFromPath,
  localizePath,
  readLocaleCookie,
  stripLocale,
  twinPath,
} from '#lib/i18n/locales.ts';
import { pickMessages, translate } from '#lib/i18n/messages.ts';
import { createI18n } from '#lib/i18n/index.ts';
import daCommon from '#lib/i18n/da/common.json' with { type: 'json' };
import enCommon from '#lib/i18n/en/common.json' with { type: 'json' };

describe('locale paths', () => {
  it('knows the locale of a path', () => {
    expect(localeFromPath('/')).toBe('da');
    expect(localeFromPath('/cookies/')).toBe('da');
    expect(localeFromPath('/en/')).toBe('en');
    expect(localeFromPath('/en')).toBe('en');
    expect(localeFromPath('/en/cookies/')).toBe('en');
    expect(localeFromPath('/english/')).toBe('da');
  });

  it('maps a page to its twin in the other language', () => {
    expect(twinPath('/cookies/', 'en')).toBe('/en/cookies/');
    expect(twinPath('/en/cookies/', 'da')).toBe('/cookies/');
    expect(twinPath('/', 'en')).toBe('/en/');
    expect(twinPath('/en/', 'da')).toBe('/');
    expect(twinPath('/en/search/hej/', 'en')).toBe('/en/search/hej/');
    expect(stripLocale('/en/escort/region-hovedstaden/')).toBe('/escort/region-hovedstaden/');
    expect(localizePath('escort/', 'en')).toBe('/en/escort/');
  });

  it('stores and reads the locale cookie for one year', () => {
    expect(localeCookie('en')).toBe('locale=en; Max-Age=31536000; Path=/; SameSite=Lax');
    expect(localeCookie('da', true)).toContain('; Secure');
    expect(readLocaleCookie('a=1; locale=en; b=2')).toBe('en');
    expect(readLocaleCookie('locale=fr')).toBeUndefined();
    expect(isLocale('da')).toBe(true);
    expect(isLocale('de')).toBe(false);
  });
});

describe('translations', () => {
  it('creates a synchronous i18next instance per locale', () => {
    const da = createI18n({ locale: 'da', catalogs: { da: { common: daCommon } }, defaultNamespace: 'common' });
    const en = createI18n({ locale: 'en', catalogs: { en: { common: enCommon } }, defaultNamespace: 'common' });
    expect(da.t('ageGate.enter')).toBe('Gå ind på siden');
    expect(en.t('ageGate.enter')).toBe('Enter the site');
    expect(en.t('front.heading', { siteName: 'X' })).toBe('Welcome to X');
    // No HTML escaping: React and Astro escape on output.
    expect(en.t('front.heading', { siteName: 'A & B' })).toBe('Welcome to A & B');
  });

  it('picks flat messages for islands and fills placeholders', () => {
    const messages = pickMessages(daCommon, ['ageGate']);
    expect(Object.keys(messages).every((k) => k.startsWith('ageGate.'))).toBe(true);
    expect(messages['ageGate.leave']).toBe('Forlad siden');
    expect(translate({ a: 'Hej {{name}}, {{ n }} gange' }, 'a', { name: 'Anna', n: 2 })).toBe('Hej Anna, 2 gange');
    expect(translate({}, 'missing.key')).toBe('missing.key');
  });
});
