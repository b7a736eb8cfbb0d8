/**
 * Regions and cities for SEO staff over real HTTP (issue 17, "Regions and cities"; spec §6 support areas
 * "regions; cities"): the lists with public advert counts and each place's index page; a city added to a
 * region shows in the frontend's searchpagecities; a name already in the region is refused at its field;
 * a rename shows the new name in searchpagecities and in search, leaves a 301 from every old public address
 * (three kinds, Danish and English) and moves the city's index pages; each change is audited. Support-only
 * and Administration-only users are refused (403), anonymous callers and advertisers asked to sign in (401).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, landingPages } from '#server/db/schema.ts';
import { redirectOf } from '#server/domain/site/redirects.ts';
import { seedReference } from '#server/db/seed/seed-reference.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createAdvert } from '#tests/support/fixtures.ts';
import type { RenamedCity, SupportCity, SupportRegion } from '#lib/schemas/places.ts';
import { call, fieldErrors } from './accounts-helpers.ts';
import { signedInPerRole } from './support-helpers.ts';

let server: TestServer;
let seo: string;
let supportOnly: string;
let adminOnly: string;
let advertiser: string;

beforeAll(async () => {
  server = await startTestServer({ app: { rateLimitScale: 50 } });
  ({ SEO: seo, Support: supportOnly, Administration: adminOnly, advertiser } = await signedInPerRole(server, ['SEO', 'Support', 'Administration', 'advertiser']));
});
afterAll(async () => {
  await server?.close();
});

const stamp = () => Date.now().toString(36).slice(-5);

async function regionsAs(cookie: string | undefined): Promise<SupportRegion[]> {
  const response = await call(server, '/api/support/regions', { cookie });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as SupportRegion[];
}

async function addCity(regionId: number, name: string): Promise<SupportCity> {
  const response = await call(server, '/api/support/cities', { cookie: seo, body: { RegionId: regionId, Name: name } });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as SupportCity;
}

/** The frontend's list of a region's cities (what the public search and the site build use). */
async function publicCities(regionSlug: string): Promise<{ id: number; city: string; slug: string }[]> {
  const response = await call(server, '/api/frontend/searchpagecities', { query: { Region: regionSlug } });
  expect(response.status).toBe(200);
  return (await response.json()) as { id: number; city: string; slug: string }[];
}

/** A free-text search as a visitor makes it: the names and cities found. */
async function freeText(text: string): Promise<{ name: string; city: string | null }[]> {
  const response = await call(server, '/api/frontend/searchpageprofileswithfreetext', { body: { Text: text } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: { name: string; city: string | null }[] }).items.map(({ name, city }) => ({ name, city }));
}

describe('who may use regions and cities', () => {
  it('SEO staff may; Support-only and Administration-only users are refused; anonymous callers and advertisers must sign in as support', async () => {
    const [region] = await regionsAs(seo);
    const calls = [
      { path: '/api/support/regions' },
      { path: '/api/support/cities', query: { RegionId: region!.id } },
      { path: '/api/support/cities', body: { RegionId: region!.id, Name: `Nægtet ${stamp()}` } },
      { path: '/api/support/renamecity', body: { Id: region!.cities[0]!.id, Name: `Nægtet ${stamp()}` } },
    ];
    for (const request of calls) {
      for (const [who, cookie, status] of [
        ['Support', supportOnly, 403],
        ['Administration', adminOnly, 403],
        ['anonymous', undefined, 401],
        ['advertiser', advertiser, 401],
      ] as const) {
        const response = await call(server, request.path, { ...request, cookie });
        expect(response.status, `${request.path} ${request.body ? 'POST' : 'GET'} as ${who}`).toBe(status);
        expect(response.headers.get('content-type')).toContain('application/problem+json');
      }
    }
    // Nothing was added or renamed by the refused calls.
    expect(JSON.stringify(await regionsAs(seo))).not.toContain('Nægtet');
    expect((await call(server, '/api/support/cities', { cookie: seo, query: { RegionId: region!.id } })).status).toBe(200);
  });
});

describe('regions and cities for SEO staff', () => {
  it('lists every region with its cities, public advert counts and index pages', async () => {
    const regions = await regionsAs(seo);
    expect(regions.length).toBeGreaterThan(1);
    const region = regions.find((r) => r.cities.some((c) => c.name === 'Aalborg'))!;
    const aalborg = region.cities.find((c) => c.name === 'Aalborg')!;
    const before = aalborg.publicAdverts;
    await createAdvert(server.db, { name: 'Tælle Tine', city: 'Aalborg' });
    const after = (await regionsAs(seo)).find((r) => r.id === region.id)!;
    expect(after.cities.find((c) => c.id === aalborg.id)!.publicAdverts).toBe(before + 1);
    expect(after.publicAdverts).toBe(region.publicAdverts + 1);
    expect(aalborg.pages).toEqual({ escort: null, 'trans-escort': null, thaimassage: null });

    // A Danish index page of escort × Aalborg: its id is the place's page.
    const [page] = await server.db
      .insert(landingPages)
      .values({ type: 'index', locale: 'da', url: `escort/${region.slug}/${aalborg.slug}`, title: 'Escort i Aalborg', kind: 'escort', regionId: region.id, cityId: aalborg.id })
      .returning();
    const cities = (await (await call(server, '/api/support/cities', { cookie: seo, query: { RegionId: region.id } })).json()) as SupportCity[];
    expect(cities.find((c) => c.id === aalborg.id)!.pages).toEqual({ escort: page!.id, 'trans-escort': null, thaimassage: null });
    expect(cities.every((c) => c.regionId === region.id)).toBe(true);

    expect((await call(server, '/api/support/cities', { cookie: seo, query: { RegionId: 987_654 } })).status).toBe(404);
  });

  it('adds a city to a region: the public list has it; a name or address already in the region is refused at the name', async () => {
    const [region] = await regionsAs(seo);
    const name = `Østerby ${stamp()}`;
    const city = await addCity(region!.id, `  ${name} `);
    expect(city).toMatchObject({ regionId: region!.id, name, slug: `oesterby-${name.split(' ')[1]}`, publicAdverts: 0 });
    expect((await publicCities(region!.slug)).map((c) => c.city)).toContain(name);

    // The same name, another case, or a spelling with the same address (ø as oe): refused, in the user's words (a key).
    for (const taken of [name, name.toUpperCase(), name.replace('Ø', 'Oe')]) {
      const response = await call(server, '/api/support/cities', { cookie: seo, body: { RegionId: region!.id, Name: taken } });
      expect(response.status, taken).toBe(409);
      expect(await fieldErrors(response)).toEqual({ Name: 'cityExists' });
    }
    // Another region may have a city of that name.
    const other = (await regionsAs(seo)).find((r) => r.id !== region!.id)!;
    expect((await addCity(other.id, name)).regionId).toBe(other.id);

    // Empty, or no letter to make an address of.
    for (const [bad, message] of [['  ', 'required'], ['!!!', 'cityNameLetters']] as const) {
      const response = await call(server, '/api/support/cities', { cookie: seo, body: { RegionId: region!.id, Name: bad } });
      expect(response.status).toBe(400);
      expect(await fieldErrors(response)).toEqual({ Name: message });
    }
    expect((await call(server, '/api/support/cities', { cookie: seo, body: { RegionId: 987_654, Name: 'Ingensteds' } })).status).toBe(404);

    const [audit] = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'city.added'), eq(auditLog.targetId, String(city.id))));
    expect(audit?.after).toMatchObject({ regionId: region!.id, name, slug: city.slug });
    expect(audit?.actorType).toBe('support');
  });

  it('renames a city: the new name in the public list and in search, a 301 from every old address, the index pages follow, audited', async () => {
    const region = (await regionsAs(seo))[0]!;
    const oldName = `Gammelby ${stamp()}`;
    const city = await addCity(region.id, oldName);
    const advert = await createAdvert(server.db, { name: 'Flytte Frida', city: oldName });
    const oldUrl = `escort/${region.slug}/${city.slug}`;
    const pages = await server.db
      .insert(landingPages)
      .values(
        (['da', 'en'] as const).map((locale) => ({
          type: 'index',
          locale,
          url: oldUrl,
          title: locale === 'da' ? `Escort i ${oldName}` : `Escort in ${oldName}`,
          kind: 'escort',
          regionId: region.id,
          cityId: city.id,
          publishedAt: new Date(),
        })),
      )
      .returning();

    const newName = `Nyå ${stamp()}`;
    const response = await call(server, '/api/support/renamecity', { cookie: seo, body: { Id: city.id, Name: newName } });
    expect(response.status, await response.clone().text()).toBe(200);
    const renamed = (await response.json()) as RenamedCity;
    const newSlug = `nyaa-${newName.split(' ')[1]}`;
    expect(renamed).toMatchObject({ id: city.id, name: newName, slug: newSlug, publicAdverts: 1, pages: { escort: pages.find((p) => p.locale === 'da')!.id } });

    // The public list shows the new name only.
    const listed = (await publicCities(region.slug)).filter((c) => c.id === city.id);
    expect(listed).toEqual([expect.objectContaining({ city: newName, slug: newSlug })]);

    // Every old address of the city redirects to the new one: three kinds, Danish and English.
    const expected: [string, string][] = ['', '/en'].flatMap((prefix) =>
      ['escort', 'trans-escort', 'thaimassage'].map((kind): [string, string] => [`${prefix}/${kind}/${region.slug}/${city.slug}/`, `${prefix}/${kind}/${region.slug}/${newSlug}/`]),
    );
    for (const [from, to] of expected) expect(await redirectOf(server.db, from), from).toBe(to);
    expect(renamed.redirects.map(({ from, to }) => [from, to])).toEqual(expected);
    // A visitor (or a search engine) at an old address is sent on with a 301, the query kept.
    for (const [from, to] of [expected[0]!, expected[5]!]) {
      const visit = await fetch(`${server.url}${from}?incall=true`, { redirect: 'manual' });
      expect(visit.status, from).toBe(301);
      expect(visit.headers.get('location')).toBe(`${to}?incall=true`);
    }

    // The index pages, Danish and English, have the new address.
    const moved = await server.db.select({ url: landingPages.url }).from(landingPages).where(eq(landingPages.cityId, city.id));
    expect(moved.map((page) => page.url)).toEqual([`escort/${region.slug}/${newSlug}`, `escort/${region.slug}/${newSlug}`]);

    // A visitor's free-text search for the new name finds the advert, shown with the new name; the old name finds nothing there.
    expect(await freeText(newName)).toEqual([{ name: advert.name, city: newName }]);
    expect((await freeText(oldName)).filter((item) => item.name === advert.name)).toEqual([]);

    const [audit] = await server.db.select().from(auditLog).where(and(eq(auditLog.action, 'city.renamed'), eq(auditLog.targetId, String(city.id))));
    expect(audit?.before).toEqual({ regionId: region.id, name: oldName, slug: city.slug });
    expect(audit?.after).toMatchObject({ regionId: region.id, name: newName, slug: newSlug });

    // Renamed back: the addresses are the city's again, nothing loops; the redirects lead to the first name.
    const back = await call(server, '/api/support/renamecity', { cookie: seo, body: { Id: city.id, Name: oldName } });
    expect(back.status).toBe(200);
    for (const [from, to] of expected) {
      expect(await redirectOf(server.db, from)).toBeNull();
      expect(await redirectOf(server.db, to)).toBe(from);
    }
  });

  it('keeps a renamed city of the reference data renamed when the server starts again (the reference seed runs at every start)', async () => {
    const region = (await regionsAs(seo)).find((r) => r.cities.some((c) => c.name === 'Skagen'))!;
    const skagen = region.cities.find((c) => c.name === 'Skagen')!;
    const renamed = await call(server, '/api/support/renamecity', { cookie: seo, body: { Id: skagen.id, Name: 'Skagen By' } });
    expect(renamed.status).toBe(200);
    // Only the case of another city's name changed (same address): kept too.
    const other = region.cities.find((c) => c.id !== skagen.id)!;
    expect((await call(server, '/api/support/renamecity', { cookie: seo, body: { Id: other.id, Name: other.name.toUpperCase() } })).status).toBe(200);

    await seedReference(server.db, { siteUrl: 'http://localhost:3000' });
    const names = (await publicCities(region.slug)).map((c) => c.city);
    expect(names).toContain('Skagen By');
    expect(names).not.toContain('Skagen');
    expect(names).toContain(other.name.toUpperCase());
    expect(await redirectOf(server.db, `/escort/${region.slug}/skagen/`)).toBe(`/escort/${region.slug}/skagen-by/`);
  });

  it('refuses a rename to a name another city of the region has, keeping the city as it was', async () => {
    const region = (await regionsAs(seo))[0]!;
    const first = await addCity(region.id, `Førsteby ${stamp()}`);
    const second = await addCity(region.id, `Andenby ${stamp()}`);
    const response = await call(server, '/api/support/renamecity', { cookie: seo, body: { Id: second.id, Name: first.name.toLowerCase() } });
    expect(response.status).toBe(409);
    expect(await fieldErrors(response)).toEqual({ Name: 'cityExists' });
    expect((await publicCities(region.slug)).find((c) => c.id === second.id)?.city).toBe(second.name);
    expect(await redirectOf(server.db, `/escort/${region.slug}/${second.slug}/`)).toBeNull();
    expect((await call(server, '/api/support/renamecity', { cookie: seo, body: { Id: 987_654, Name: 'Ingensteds' } })).status).toBe(404);
  });
});
