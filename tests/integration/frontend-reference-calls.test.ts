import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { landingPages, searchKeywords } from '#server/db/schema.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  const published = new Date();
  await server.db.insert(landingPages).values([
    { type: 'article', locale: 'da', url: 'tryghed', title: 'Tryghed', body: 'Om tryghed.', publishedAt: published },
    { type: 'article', locale: 'en', url: 'tryghed', title: 'Safety', body: 'About safety.', publishedAt: published },
    { type: 'article', locale: 'da', url: 'kladde', title: 'Kladde', body: 'Ikke udgivet.' },
    { type: 'index', locale: 'da', url: 'escort/region-hovedstaden/koebenhavn', title: 'Escort i København', intro: 'Find escort i København.', publishedAt: published },
  ]);
  await server.db.insert(searchKeywords).values([
    { keyword: 'escort kbh', kind: 'matched', targetUrl: '/escort/region-hovedstaden/koebenhavn/' },
    { keyword: 'spam', kind: 'ignored' },
  ]);
});
afterAll(async () => {
  await server?.close();
});

const get = async (path: string) => {
  const response = await fetch(`${server.url}/api/frontend/${path}`);
  return { status: response.status, body: response.status === 204 ? null : await response.json() };
};

describe('frontend reference calls (spec §7)', () => {
  it('languages: the site languages with name, title and icon', async () => {
    const { body } = await get('languages');
    expect(body.map((l: { name: string }) => l.name)).toEqual(['da', 'en']);
    expect(body[0]).toMatchObject({ name: 'da', title: 'Dansk', icon: expect.any(String) });
  });

  it('searchpageregions and searchpagecities: regions, and the cities of one region', async () => {
    const regions = (await get('searchpageregions')).body;
    expect(regions).toHaveLength(5);
    const north = regions.find((r: { slug: string }) => r.slug === 'region-nordjylland');
    const cities = (await get(`searchpagecities?Region=${north.slug}`)).body;
    expect(cities.length).toBeGreaterThan(5);
    expect(cities.every((c: { regionSlug: string }) => c.regionSlug === 'region-nordjylland')).toBe(true);
    expect(cities.map((c: { city: string }) => c.city)).toContain('Aalborg');
    expect((await get(`searchpagecities?Region=${north.id}`)).body).toEqual(cities);
  });

  it('servicelist: every service with its type, in the asked language', async () => {
    const da = (await get('servicelist')).body;
    const en = (await get('servicelist?Locale=en')).body;
    expect(da.length).toBeGreaterThan(10);
    expect(da.every((s: { type: number }) => [1, 2, 3, 4].includes(s.type))).toBe(true);
    expect(en.find((s: { slug: string }) => s.slug === 'fodmassage').name).toBe('Foot massage');
  });

  it('landingpagepage: a published page in the asked language; drafts and unknown pages are 404', async () => {
    expect((await get('landingpagepage?Kind=artikler&Url=tryghed')).body).toMatchObject({ title: 'Tryghed', body: 'Om tryghed.' });
    expect((await get('landingpagepage?Kind=artikler&Url=tryghed&Locale=en')).body).toMatchObject({ title: 'Safety' });
    expect((await get('landingpagepage?Kind=artikler&Url=kladde')).status).toBe(404);
    expect((await get('landingpagepage?Kind=artikler&Url=nope')).status).toBe(404);
    expect((await get('landingpagepages?Kind=artikler')).body).toEqual([{ url: 'tryghed', title: 'Tryghed' }]);
  });

  it('landingpageindexpage: the SEO text of a search landing page, by its path', async () => {
    const { body } = await get('landingpageindexpage?Url=/escort/region-hovedstaden/koebenhavn/');
    expect(body).toMatchObject({ title: 'Escort i København', intro: 'Find escort i København.' });
    expect((await get('landingpageindexpage?Url=/escort/')).status).toBe(404);
  });

  it('searchpagepagefreetext: where a keyword matched by SEO staff leads', async () => {
    expect((await get('searchpagepagefreetext?Text=Escort%20KBH')).body).toEqual({
      keyword: 'escort kbh',
      targetUrl: '/escort/region-hovedstaden/koebenhavn/',
    });
    expect((await get('searchpagepagefreetext?Text=spam')).body).toEqual({ keyword: 'spam', targetUrl: null });
  });
});

describe('calls for the site build and the header', () => {
  it('landingpageindexpages: every published SEO text of a language at once', async () => {
    const { body } = await get('landingpageindexpages?Locale=da');
    expect(body).toEqual([expect.objectContaining({ url: 'escort/region-hovedstaden/koebenhavn', title: 'Escort i København' })]);
    expect((await get('landingpageindexpages?Locale=en')).body).toEqual([]);
  });

  it('session: whether an advertiser is signed in, without a 401 for visitors', async () => {
    expect(await get('session')).toEqual({ status: 200, body: { signedIn: false } });
  });
});
