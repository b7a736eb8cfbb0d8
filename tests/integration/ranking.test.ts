import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshDueAdvertSearch } from '#server/domain/search/refresh-advert-search.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createAdvert, regionSlugOf } from '#tests/support/fixtures.ts';

/**
 * How adverts are ordered over HTTP (docs/decisions/026): boosted adverts first where the boost was
 * bought, turned fairly every minute, an ended boost no longer first. The server's clock is the test's.
 */
const MINUTE = 60_000;
const DAY = 86_400_000;

let server: TestServer;
/** The server's clock, moved by the tests. */
let clock = new Date();
const ids: Record<string, number> = {};

beforeAll(async () => {
  server = await startTestServer({ now: () => clock });
  const db = server.db;
  const soon = new Date(Date.now() + 30 * MINUTE);
  const later = new Date(Date.now() + DAY);
  ids['frontA'] = (await createAdvert(db, { name: 'Front A', frontPageBoostUntil: soon })).id;
  ids['frontB'] = (await createAdvert(db, { name: 'Front B', frontPageBoostUntil: later })).id;
  ids['searchCph'] = (await createAdvert(db, { name: 'Search Cph', searchBoostUntil: soon })).id;
  ids['searchCph2'] = (await createAdvert(db, { name: 'Search Cph 2', searchBoostUntil: later })).id;
  ids['searchAarhus'] = (await createAdvert(db, { name: 'Search Aarhus', city: 'Aarhus', searchBoostUntil: later })).id;
  ids['searchThai'] = (await createAdvert(db, { name: 'Search Thai', kind: 1, searchBoostUntil: later })).id;
  // Boosted everywhere, but on holiday: not public, so no boost counts.
  ids['onHoliday'] = (await createAdvert(db, { name: 'On Holiday', holidayUntil: later, frontPageBoostUntil: later, searchBoostUntil: later })).id;
  for (let n = 0; n < 8; n += 1) ids[`plain${n}`] = (await createAdvert(db, { name: `Plain ${n}`, updatedAt: new Date(Date.now() - (n + 1) * DAY) })).id;
});
afterAll(async () => {
  await server?.close();
});

const frontPage = async (): Promise<number[]> => {
  const response = await fetch(`${server.url}/api/frontend/frontpageprofiles`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: { id: number }[] }).items.map((item) => item.id);
};
const search = async (params: Record<string, string | number | boolean>): Promise<number[]> => {
  const response = await fetch(`${server.url}/api/frontend/searchpageprofiles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  expect(response.status).toBe(200);
  const maxAge = Number(response.headers.get('cache-control')!.match(/max-age=(\d+)/)![1]);
  expect(maxAge).toBeLessThanOrEqual(60 - clock.getUTCSeconds());
  return ((await response.json()) as { items: { id: number }[] }).items.map((item) => item.id);
};
const pair = (...names: string[]) => names.map((name) => ids[name]!).sort();
const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));
/** To the start (+1 s) of the next minute that begins a round of two (ranking.ts: k boosted adverts take k minutes). */
const startRoundOfTwo = () => (clock = new Date((Math.floor(clock.getTime() / (2 * MINUTE)) + 1) * 2 * MINUTE + 1000));

describe('the front page (front-page boost)', () => {
  it('shows the front-page-boosted adverts first, each first once in two minutes, and no other boost', async () => {
    startRoundOfTwo();
    const firsts: number[] = [];
    for (let minute = 0; minute < 2; minute += 1) {
      const order = await frontPage();
      expect(order.slice(0, 2).sort()).toEqual(pair('frontA', 'frontB'));
      expect(order).not.toContain(ids['onHoliday']);
      expect(order).toHaveLength(14);
      firsts.push(order[0]!);
      advance(MINUTE);
    }
    expect(firsts.sort()).toEqual(pair('frontA', 'frontB'));
  });

  it('keeps one order within a minute and another in the next', async () => {
    const first = await frontPage();
    advance(30_000);
    expect(await frontPage()).toEqual(first);
    const orders = new Set([first.join()]);
    for (let minute = 0; minute < 3; minute += 1) {
      advance(MINUTE);
      orders.add((await frontPage()).join());
    }
    expect(orders.size).toBeGreaterThan(1);
  });
});

describe('search results (search boost)', () => {
  it('puts the search-boosted adverts of the kind and place first, taking turns each minute', async () => {
    const cph = await regionSlugOf(server.db, 'København');
    const url = `/escort/${cph.region}/${cph.city}/`;
    startRoundOfTwo();
    const firsts = new Set<number>();
    for (let minute = 0; minute < 2; minute += 1) {
      const order = await search({ Url: url });
      expect(order.slice(0, 2).sort()).toEqual(pair('searchCph', 'searchCph2'));
      expect(order).not.toContain(ids['searchAarhus']);
      expect(order).not.toContain(ids['searchThai']);
      expect(order).not.toContain(ids['onHoliday']);
      // A front-page boost counts on the front page only.
      expect(order.slice(0, 2)).not.toContain(ids['frontA']);
      // The rest: most recently updated first, as before.
      expect(order.slice(-8)).toEqual(Array.from({ length: 8 }, (_, n) => ids[`plain${n}`]));
      firsts.add(order[0]!);
      // Page by page, the same minute's order.
      const paged = [...(await search({ Url: url, PageSize: 1, Page: 1 })), ...(await search({ Url: url, PageSize: 1, Page: 2 }))];
      expect(paged).toEqual(order.slice(0, 2));
      advance(MINUTE);
    }
    expect([...firsts].sort()).toEqual(pair('searchCph', 'searchCph2'));
  });

  it('puts a boosted advert first in its own kind and region, and on no front page', async () => {
    const aarhus = await regionSlugOf(server.db, 'Aarhus');
    expect((await search({ Url: `/escort/${aarhus.region}/` }))[0]).toBe(ids['searchAarhus']);
    expect((await search({ Url: '/thaimassage/' }))[0]).toBe(ids['searchThai']);
    expect((await search({ Thaimassage: true }))[0]).toBe(ids['searchThai']);
    const front = await frontPage();
    expect(front.slice(0, 2)).not.toContain(ids['searchAarhus']);
    expect(front.slice(0, 2)).not.toContain(ids['searchThai']);
  });
});

describe('an ended boost', () => {
  it('is no longer first once the minute job has seen it end', async () => {
    advance(40 * MINUTE);
    await refreshDueAdvertSearch(server.db, clock);
    const cph = await regionSlugOf(server.db, 'København');
    for (let minute = 0; minute < 3; minute += 1) {
      expect((await frontPage())[0]).toBe(ids['frontB']);
      expect((await frontPage()).slice(1)).toContain(ids['frontA']);
      const order = await search({ Url: `/escort/${cph.region}/${cph.city}/` });
      expect(order[0]).toBe(ids['searchCph2']);
      expect(order.indexOf(ids['searchCph']!)).toBeGreaterThan(0);
      advance(MINUTE);
    }
  });
});
