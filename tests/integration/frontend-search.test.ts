import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { contentReports, languages, pairedKeywords, searchKeywords, services } from '#server/db/schema.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createAdvert, regionSlugOf } from '#tests/support/fixtures.ts';

let server: TestServer;
const ids: Record<string, number> = {};

const DAY = 86_400_000;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  // A small, controlled directory: each advert differs from the baseline in one thing.
  ids['baseline'] = (await createAdvert(db, { name: 'Astrid Base', languageCodes: ['da'], serviceSlugs: ['middag-og-selskab'] })).id;
  ids['aarhus'] = (await createAdvert(db, { name: 'Birte Aarhus', city: 'Aarhus', languageCodes: ['en'] })).id;
  ids['trans'] = (await createAdvert(db, { name: 'Cleo Trans', gender: 5, languageCodes: ['da', 'en'] })).id;
  ids['thai'] = (await createAdvert(db, { name: 'Malee Thai', kind: 1, nationalityCode: 'TH', serviceSlugs: ['thaimassage', 'fodmassage'], languageCodes: ['th'] })).id;
  ids['older'] = (await createAdvert(db, { name: 'Dorte Older', age: 52, height: 182, weight: 95, breastType: 2 })).id;
  ids['validated'] = (await createAdvert(db, { name: 'Eva Validated', validationStatus: 2, incall: true })).id;
  ids['video'] = (await createAdvert(db, { name: 'Frida Video', video: true, outcall: true })).id;
  ids['reviewed'] = (await createAdvert(db, { name: 'Gry Reviewed', approvedReviews: 2, breastType: 1 })).id;
  ids['boosted'] = (await createAdvert(db, { name: 'Hanne Boosted', searchBoostUntil: new Date(Date.now() + DAY), frontPageBoostUntil: new Date(Date.now() + DAY), updatedAt: new Date(Date.now() - 10 * DAY) })).id;
  ids['hidden'] = (await createAdvert(db, { name: 'Ida Hidden', status: 0, approvedAt: null })).id;
  ids['locked'] = (await createAdvert(db, { name: 'Jane Locked', status: 2 })).id;
  ids['massageWords'] = (await createAdvert(db, { name: 'Karin Words', description: 'Afslappende massager i rolige omgivelser.' })).id;
});
afterAll(async () => {
  await server?.close();
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${server.url}${path}`, { headers });
  return { status: response.status, headers: response.headers, body: await response.json() };
};
const search = async (params: Record<string, string | number | boolean | number[]>) => {
  const response = await fetch(`${server.url}/api/frontend/searchpageprofiles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { total: number; items: { id: number; name: string }[] };
};
const names = (result: { items: { name: string }[] }) => result.items.map((i) => i.name).sort();

describe('searchpageprofiles: every filter changes the results (spec §7, §5)', () => {
  it('shows public adverts only, search-boosted first', async () => {
    const all = await search({});
    expect(all.total).toBe(10);
    expect(all.items[0]!.id).toBe(ids['boosted']);
    expect(names(all)).not.toContain('Ida Hidden');
    expect(names(all)).not.toContain('Jane Locked');
  });

  it('chooses the kind by flags or by the landing URL', async () => {
    expect(names(await search({ Thaimassage: true }))).toEqual(['Malee Thai']);
    expect(names(await search({ TransEscort: true }))).toEqual(['Cleo Trans']);
    expect((await search({ Escort: true })).total).toBe(8);
    expect(names(await search({ Url: '/thaimassage/' }))).toEqual(['Malee Thai']);
    expect((await search({ Escort: true, TransEscort: true })).total).toBe(9);
  });

  it('filters by region and city, by slug or by name, normalised', async () => {
    const aarhus = await regionSlugOf(server.db, 'Aarhus');
    expect(names(await search({ Location: aarhus.region }))).toEqual(['Birte Aarhus']);
    expect(names(await search({ Location: aarhus.region, City: aarhus.city }))).toEqual(['Birte Aarhus']);
    expect(names(await search({ Url: `/escort/${aarhus.region}/${aarhus.city}/` }))).toEqual(['Birte Aarhus']);
    expect((await search({ City: 'KØBENHAVN' })).total).toBe(9);
    expect((await search({ Location: 'no-such-region' })).total).toBe(0);
  });

  it('filters by age, height and weight ranges', async () => {
    expect(names(await search({ AgeFrom: 50, AgeTo: 60 }))).toEqual(['Dorte Older']);
    expect(names(await search({ HeightFrom: 180 }))).toEqual(['Dorte Older']);
    expect(names(await search({ WeightFrom: 90, WeightTo: 120 }))).toEqual(['Dorte Older']);
    expect((await search({ AgeFrom: 18, AgeTo: 80 })).total).toBe(10);
  });

  it('filters by languages (any), services (all), nationalities, breasts', async () => {
    const [th] = await server.db.select().from(languages).where(eq(languages.code, 'th'));
    const [en] = await server.db.select().from(languages).where(eq(languages.code, 'en'));
    expect(names(await search({ Languages: [th!.id] }))).toEqual(['Malee Thai']);
    expect(names(await search({ Languages: `${th!.id},${en!.id}` as unknown as number[] }))).toEqual(['Birte Aarhus', 'Cleo Trans', 'Malee Thai']);
    const [thai] = await server.db.select().from(services).where(eq(services.slug, 'thaimassage'));
    const [foot] = await server.db.select().from(services).where(eq(services.slug, 'fodmassage'));
    const [dinner] = await server.db.select().from(services).where(eq(services.slug, 'middag-og-selskab'));
    expect(names(await search({ Services: [thai!.id, foot!.id] }))).toEqual(['Malee Thai']);
    expect((await search({ Services: [thai!.id, dinner!.id] })).total).toBe(0);
    const nationalities = await (await fetch(`${server.url}/api/frontend/searchpagenationalitylist`)).json();
    const thaiNationality = nationalities.find((n: { code: string }) => n.code === 'TH');
    expect(names(await search({ Nationalities: [thaiNationality.id] }))).toEqual(['Malee Thai']);
    expect(names(await search({ Breasts: [2] }))).toEqual(['Dorte Older']);
    expect(names(await search({ Breasts: [1, 2] }))).toEqual(['Dorte Older', 'Gry Reviewed']);
  });

  it('filters by incall, outcall, validated, video and review', async () => {
    expect(names(await search({ Incall: true }))).toEqual(['Eva Validated']);
    expect(names(await search({ Outcall: true }))).toEqual(['Frida Video']);
    expect(names(await search({ Validated: true }))).toEqual(['Eva Validated']);
    expect(names(await search({ Video: true }))).toEqual(['Frida Video']);
    expect(names(await search({ Review: true }))).toEqual(['Gry Reviewed']);
  });

  it('pages through results', async () => {
    const first = await search({ PageSize: 4, Page: 1 });
    const third = await search({ PageSize: 4, Page: 3 });
    expect(first.items).toHaveLength(4);
    expect(third.items).toHaveLength(2);
    expect(first.total).toBe(10);
  });

  it('takes its parameters from the query string too, any case, and names bad ones', async () => {
    const response = await fetch(`${server.url}/api/frontend/searchpageprofiles?thaimassage=true&agefrom=20`);
    expect(names(await response.json())).toEqual(['Malee Thai']);
    const bad = await fetch(`${server.url}/api/frontend/searchpageprofiles?AgeFrom=12&Languages=a,b`);
    expect(bad.status).toBe(400);
    const problem = await bad.json();
    expect(problem.errors.map((e: { field: string }) => e.field).sort()).toEqual(['AgeFrom', 'Languages']);
  });

  it('answers cards with what a result list shows', async () => {
    const result = await search({ Video: true });
    expect(result.items[0]).toMatchObject({
      name: 'Frida Video',
      url: `/annonce/frida-video-${ids['video']}/`,
      kind: 'escort',
      city: 'København',
      hasVideo: true,
      picture: { variants: [expect.objectContaining({ url: expect.stringMatching(/^\/media\/pictures\//), width: 320 })] },
    });
  });
});

describe('free-text search', () => {
  it('matches names, cities and services, with Danish stemming and small typos', async () => {
    const freeText = async (Text: string) => {
      const response = await fetch(`${server.url}/api/frontend/searchpageprofileswithfreetext`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Text }),
      });
      return (await response.json()) as { total: number; items: { name: string }[] };
    };
    expect(names(await freeText('Malee'))).toEqual(['Malee Thai']);
    expect(names(await freeText('aarhus'))).toEqual(['Birte Aarhus']);
    // Danish typing: æ, ø and å or their spelled-out forms (ae, oe, aa) find the same.
    expect(names(await freeText('Århus'))).toEqual(['Birte Aarhus']);
    const copenhagen = names(await freeText('københavn'));
    expect(copenhagen.length).toBeGreaterThan(1);
    expect(names(await freeText('koebenhavn'))).toEqual(copenhagen);
    expect(names(await freeText('KØBENHAVN'))).toEqual(copenhagen);
    // A plural or a definite form finds what the word itself finds.
    expect(names(await freeText('fodmassagen'))).toEqual(names(await freeText('fodmassage')));
    expect(names(await freeText('fodmassager'))).toEqual(names(await freeText('fodmassage')));
    expect(names(await freeText('fodmassage'))).toEqual(['Malee Thai']);
    expect(names(await freeText('massage'))).toContain('Karin Words'); // "massager" stems to "massag"
    expect(names(await freeText('Malle'))).toEqual(['Malee Thai']); // a typo
    expect(names(await freeText('aarhsu'))).toEqual(['Birte Aarhus']); // a typo in a city
    expect(names(await freeText('thai Malle'))).toEqual(['Malee Thai']); // one word right, one wrong
    expect((await freeText('xyzzy')).total).toBe(0);

    // A search writes nothing by itself: terms are counted in memory (search-terms.test.ts).
    expect((await server.db.select().from(searchKeywords)).map((k) => k.keyword)).not.toContain('xyzzy');
  });

  it('rescues a typo or a foreign place name and says so; when nothing is found, names the places the words name (issue 31, item 3)', async () => {
    type Answer = { total: number; items: { name: string }[]; keyword: string; spelledAs: string | null; places: { name: string; regionSlug: string; citySlug: string | null }[] };
    const freeText = async (query: Record<string, string>) =>
      (await (await fetch(`${server.url}/api/frontend/searchpageprofileswithfreetext?${new URLSearchParams(query).toString()}`)).json()) as Answer;
    const copenhagen = names(await freeText({ Text: 'københavn' }));
    // What the words as typed find is not rescued.
    expect(await freeText({ Text: 'københavn' })).toMatchObject({ spelledAs: null, places: [] });
    // German, English and French names of København, and a typo, find its adverts and say what they were read as.
    for (const typed of ['Kopenhagen', 'Copenhagen', 'copenhague']) {
      const answer = await freeText({ Text: typed });
      expect(names(answer), typed).toEqual(copenhagen);
      expect(answer.spelledAs, typed).toBe('København');
      expect(answer.keyword).toBe(typed.toLowerCase());
    }
    expect(await freeText({ Text: 'aarhsu' })).toMatchObject({ spelledAs: 'Aarhus', total: 1 });
    expect(await freeText({ Text: 'Malle' })).toMatchObject({ spelledAs: 'malee', total: 1 });
    // Elsinore is Helsingør, where no advert is: nothing found, and the places the word names are offered.
    const elsinore = await freeText({ Text: 'Elsinore' });
    expect(elsinore).toMatchObject({ total: 0, spelledAs: null });
    expect(elsinore.places).toEqual([
      { name: 'Helsingør', regionSlug: 'region-hovedstaden', citySlug: 'helsingoer', region: 'Region Hovedstaden' },
      { name: 'Region Hovedstaden', regionSlug: 'region-hovedstaden', citySlug: null, region: 'Region Hovedstaden' },
    ]);
    // København with a filter nothing meets: its place is offered, not another spelling.
    const filtered = await freeText({ Text: 'Kopenhagen', AgeFrom: '70' });
    expect(filtered).toMatchObject({ total: 0, spelledAs: null });
    expect(filtered.places.map((place) => place.name)).toEqual(['København', 'Region Hovedstaden']);
    expect(await freeText({ Text: 'xyzzy' })).toMatchObject({ total: 0, spelledAs: null, places: [] });

    // The location box knows the foreign names too.
    const suggestions = (await get('/api/frontend/searchpagesearchlocation?Text=Copenh')).body;
    expect(suggestions[0]).toMatchObject({ type: 'city', name: 'København', citySlug: 'koebenhavn' });
  });

  it('applies paired keywords kept by SEO staff (held 30 s in memory: another instance\'s pair shows within that)', async () => {
    await server.db.insert(pairedKeywords).values({ keyword: 'siam', pairedWith: 'thaimassage' });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    let response: Response;
    try {
      response = await fetch(`${server.url}/api/frontend/searchpageprofileswithfreetext?Text=siam`);
    } finally {
      vi.useRealTimers();
    }
    expect(names(await response.json())).toEqual(['Malee Thai']);
  });
});

describe('front page and profile', () => {
  it('orders the front page with boosted adverts first, the same for everyone within a minute', async () => {
    const first = await get('/api/frontend/frontpageprofiles');
    const second = await get('/api/frontend/frontpageprofiles');
    expect(first.body.items[0].id).toBe(ids['boosted']);
    expect(second.body.items.map((i: { id: number }) => i.id)).toEqual(first.body.items.map((i: { id: number }) => i.id));
    expect(first.body.items).toHaveLength(10);
    expect(Number(first.headers.get('cache-control')!.match(/max-age=(\d+)/)![1])).toBeLessThanOrEqual(60);
  });

  it('answers the full profile of a public advert, 404 for a hidden one and 410 for a locked one', async () => {
    const profile = await get(`/api/frontend/fullprofile?Id=${ids['thai']}`);
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({
      name: 'Malee Thai',
      kind: 'thaimassage',
      nationality: { code: 'TH', name: 'Thailandsk' },
      services: expect.arrayContaining([expect.objectContaining({ slug: 'thaimassage', type: 4 })]),
      location: { city: 'København', citySlug: 'koebenhavn' },
    });
    const english = await get(`/api/frontend/fullprofile?Id=${ids['thai']}&Locale=en`);
    expect(english.body.nationality.name).toBe('Thai');
    expect((await get(`/api/frontend/fullprofile?Id=${ids['hidden']}`)).status).toBe(404);
    expect((await get(`/api/frontend/fullprofile?Id=${ids['locked']}`)).status).toBe(410);
    expect((await get('/api/frontend/fullprofile?Id=abc')).status).toBe(400);
  });

  it('lists active areas, references, services, countries and location suggestions', async () => {
    const areas = (await get('/api/frontend/frontpageactiveareas')).body;
    expect(areas[0]).toMatchObject({ city: 'København', n: 9 });
    const references = (await get('/api/frontend/profilesreferences?Locale=en')).body;
    expect(references.breastTypes).toEqual([{ id: 1, name: 'Natural' }, { id: 2, name: 'Silicone' }]);
    expect(references.languages.length).toBeGreaterThan(10);
    const byName = (await get('/api/frontend/supportservicelist?Sort=name')).body.map((s: { name: string }) => s.name);
    expect(byName).toEqual([...byName].sort((a: string, b: string) => a.localeCompare(b, 'da')));
    const countries = (await get('/api/frontend/countrylist?Locale=da')).body;
    expect(countries).toContainEqual({ code: 'DK', name: 'Danmark' });
    const suggestions = (await get('/api/frontend/searchpagesearchlocation?Text=kø')).body;
    expect(suggestions[0]).toMatchObject({ type: 'city', name: 'København', citySlug: 'koebenhavn' });
  });
});

describe('reportadvert', () => {
  it('stores a report for support, urgent for suspected minors, and acknowledges it', async () => {
    const response = await fetch(`${server.url}/api/frontend/reportadvert`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ AdvertId: ids['baseline'], Reason: 'minor', Details: 'Looks very young.', Url: '/annonce/x/', GoodFaith: true }),
    });
    expect(response.status).toBe(201);
    const { id } = await response.json();
    const [stored] = await server.db.select().from(contentReports).where(eq(contentReports.id, id));
    expect(stored).toMatchObject({ reason: 'minor', priority: 2, goodFaith: true, reporterEmail: null });
  });

  it('needs name and email for other reasons, and the good-faith statement always', async () => {
    const response = await fetch(`${server.url}/api/frontend/reportadvert`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ AdvertId: ids['baseline'], Reason: 'fake', GoodFaith: false }),
    });
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem.errors.map((e: { field: string }) => e.field).sort()).toEqual(['GoodFaith', 'Name', 'Email'].sort());
  });
});

describe('fullprofiles (bulk, for the site build)', () => {
  /** The site build's call: with its credential. */
  const build = () => ({ authorization: `Bearer ${server.siteBuildToken}` });

  it('is for the site build only: 401 without its credential or with another, never cached', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer not-the-build-token-0123456789' }, { authorization: server.siteBuildToken }];
    for (const headers of attempts) {
      const refused = await get('/api/frontend/fullprofiles?Take=100&Locales=da,en', headers);
      expect(refused.status).toBe(401);
      expect(JSON.stringify(refused.body)).not.toContain('"phone"');
    }
    const answered = await get('/api/frontend/fullprofiles?Take=100&Locales=da,en', build());
    expect(answered.status).toBe(200);
    expect(answered.headers.get('cache-control')).toBe('no-store');
    expect(answered.body.byLocale.da.length).toBeGreaterThan(0);
  });

  it('pages through every public advert in id order, with the same shape as fullprofile', async () => {
    const first = (await get('/api/frontend/fullprofiles?Take=4', build())).body;
    expect(first.items).toHaveLength(4);
    const rest = (await get(`/api/frontend/fullprofiles?Take=100&AfterId=${first.nextAfterId}`, build())).body;
    expect(rest.nextAfterId).toBeNull();
    const all = [...first.items, ...rest.items];
    expect(all).toHaveLength(10);
    expect(all.map((p: { id: number }) => p.id)).toEqual([...all.map((p: { id: number }) => p.id)].sort((a, b) => a - b));
    const single = (await get(`/api/frontend/fullprofile?Id=${ids['thai']}`)).body;
    expect(all.find((p: { id: number }) => p.id === ids['thai'])).toEqual(single);
  });

  it('answers both languages from one call with Locales, each as fullprofile gives it', async () => {
    const page = (await get('/api/frontend/fullprofiles?Take=100&Locales=da,en', build())).body;
    expect(page.nextAfterId).toBeNull();
    expect(page.byLocale.da).toHaveLength(10);
    expect(page.byLocale.en.map((p: { id: number }) => p.id)).toEqual(page.byLocale.da.map((p: { id: number }) => p.id));
    for (const locale of ['da', 'en']) {
      const single = (await get(`/api/frontend/fullprofile?Id=${ids['thai']}&Locale=${locale}`)).body;
      expect(page.byLocale[locale].find((p: { id: number }) => p.id === ids['thai'])).toEqual(single);
    }
    const bad = await get('/api/frontend/fullprofiles?Locales=da,xx', build());
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toMatch(/^Locales/);
  });
});
