/**
 * The rules support's SEO editor (landing-pages/{id}/) shares with the public page (issue 17): the reading
 * time at 200 words a minute counted as the page shows intro and body, the picture files a page shows,
 * the public paths of twins, and a free page made from a visitors' search term (unmatched keywords' "make
 * a landing page for this term").
 */
import { describe, expect, it } from 'vitest';
import { landingText } from '#lib/markdown.ts';
import { landingImageViews } from '#lib/landing-view.ts';
import { landingPublicPath, pageFromTerm } from '#lib/schemas/landing-page.ts';

const words = (n: number, word = 'ord') => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

describe('the reading time of a landing page', () => {
  it.each([
    ['one word', '', 'Hej', 1],
    ['200 words', '', words(200), 1],
    ['201 words', '', words(201), 2],
    ['450 words with Markdown marks', '', `## Overskrift\n\n**${words(448)}**`, 3],
    ['an intro shown before the body counts', words(100, 'intro'), words(150), 2],
  ])('%s', (_name, intro, body, minutes) => {
    expect(landingText(intro, body).minutes).toBe(minutes);
  });

  it('does not show (nor count) an intro the body already starts with', () => {
    expect(landingText('Kort fortalt.', 'Kort fortalt. Resten.')).toMatchObject({ showIntro: false, words: 3 });
    expect(landingText('Kort fortalt.', 'Resten.')).toMatchObject({ showIntro: true, words: 3 });
  });
});

describe('the pictures of a landing page', () => {
  it('offers AVIF and WebP at every width of an upload, and keeps keys inside /media/', () => {
    const [view, ...rest] = landingImageViews(
      [
        { key: 'landing-pages/4/abc-640.webp', alt: '', width: 640, height: 427, base: 'landing-pages/4/abc', widths: [320, 640] },
        { key: '../secret.webp' },
      ],
      'Sidens titel',
    );
    expect(rest).toEqual([]);
    expect(view).toEqual({
      src: '/media/landing-pages/4/abc-640.webp',
      alt: 'Sidens titel',
      width: 640,
      height: 427,
      avifSrcset: '/media/landing-pages/4/abc-320.avif 320w, /media/landing-pages/4/abc-640.avif 640w',
      webpSrcset: '/media/landing-pages/4/abc-320.webp 320w, /media/landing-pages/4/abc-640.webp 640w',
    });
  });
});

describe('addresses of SEO pages', () => {
  it.each([
    ['service', 'tantra', 'da', '/service/tantra/'],
    ['article', 'tryg-booking', 'en', '/en/artikler/tryg-booking/'],
    ['free', 'om-os', 'en', '/en/om-os/'],
    ['index', 'escort/region-hovedstaden/koebenhavn', 'da', '/escort/region-hovedstaden/koebenhavn/'],
  ] as const)('%s %s in %s is %s', (type, url, locale, path) => {
    expect(landingPublicPath(type, url, locale)).toBe(path);
  });

  it.each([
    ['thai massage århus', 'Thai massage århus', 'thai-massage-aarhus'],
    ['  Escort   Kbh ', 'Escort Kbh', 'escort-kbh'],
    ['søde piger/ø', 'Søde piger/ø', 'soede-piger-oe'],
  ])('a search term %j makes the title %j and the address %j', (term, title, url) => {
    expect(pageFromTerm(term)).toEqual({ title, url });
  });
});
