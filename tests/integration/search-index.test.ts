import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adverts, advertSearch, advertSearchDocuments, searchIndexState } from '#server/db/schema.ts';
import { refreshAdvertSearch, refreshAdvertSearchClocks, refreshDueAdvertSearch } from '#server/domain/search/refresh-advert-search.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';
import { seedReference } from '#server/db/seed/seed-reference.ts';
import { createAdvert } from '#tests/support/fixtures.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { searchProfiles } from '#server/domain/search/search-profiles.ts';
import { searchMemory } from '#server/domain/search/search-memory.ts';
import { listFrontPageAdverts } from '#server/domain/search/front-page.ts';
import { pruneSearchIndexLog, searchIndexChangesSince, searchIndexVersion } from '#server/domain/search/search-index-log.ts';
import { SearchProfilesSchema } from '#lib/schemas/search.ts';
import * as v from 'valibot';

let handle: DatabaseHandle;
let drop: () => Promise<void>;
const MINUTE = 60_000;

beforeAll(async () => {
  ({ handle, drop } = await openTestDatabase());
  await seedReference(handle.db, { siteUrl: 'http://localhost:3000' });
});
afterAll(async () => {
  await drop?.();
});

const indexed = async (id: number) => (await handle.db.select().from(advertSearch).where(eq(advertSearch.advertId, id))).length === 1;

describe('the search index follows the visibility rule', () => {
  it('holds public adverts only, and follows a change made to one', async () => {
    const { id } = await createAdvert(handle.db);
    expect(await indexed(id)).toBe(true);
    await handle.db.update(adverts).set({ status: 5 }).where(eq(adverts.id, id));
    await refreshAdvertSearch(handle.db, [id], new Date());
    expect(await indexed(id)).toBe(false);
  });

  it('drops an advert when it expires and brings one back when its holiday ends, with time alone', async () => {
    const now = Date.now();
    const expiring = await createAdvert(handle.db, { expirationDate: new Date(now + 5 * MINUTE) });
    const holiday = await createAdvert(handle.db, { holidayUntil: new Date(now + 5 * MINUTE) });
    expect(await indexed(expiring.id)).toBe(true);
    expect(await indexed(holiday.id)).toBe(false);

    const later = new Date(now + 10 * MINUTE);
    expect(await refreshDueAdvertSearch(handle.db, later)).toBeGreaterThanOrEqual(2);
    expect(await indexed(expiring.id)).toBe(false);
    expect(await indexed(holiday.id)).toBe(true);
    // Nothing more is due.
    expect(await refreshDueAdvertSearch(handle.db, later)).toBe(0);
  });

  it('remembers when it last looked, and then looks only at holidays that ended since', async () => {
    const now = Date.now();
    await refreshDueAdvertSearch(handle.db, new Date(now));
    const [state] = await handle.db.select().from(searchIndexState);
    expect(state?.checkedAt?.getTime()).toBe(now);
    const holiday = await createAdvert(handle.db, { holidayUntil: new Date(now + 5 * MINUTE) });
    expect(await indexed(holiday.id)).toBe(false);
    await refreshDueAdvertSearch(handle.db, new Date(now + 10 * MINUTE));
    expect(await indexed(holiday.id)).toBe(true);
  });

  it('a change of clocks alone (a purchase, a refund) gives the rows the full refresh would, in place or by the full refresh', async () => {
    const now = new Date();
    const rowsOf = async (id: number) => {
      const [row] = await handle.db.select().from(advertSearch).where(eq(advertSearch.advertId, id));
      const [document] = await handle.db.select().from(advertSearchDocuments).where(eq(advertSearchDocuments.advertId, id));
      if (!row || !document) return null;
      const { refreshedAt: _refreshed, ...search } = row;
      return { search, document };
    };
    // Both clocks bought for a public advert: the boosts, its rank and when to look again.
    const bought = await createAdvert(handle.db);
    const boosts = { frontPageBoostUntil: new Date(now.getTime() + 7 * 86_400_000), searchBoostUntil: new Date(now.getTime() + 3 * 86_400_000) };
    await handle.db.update(adverts).set({ ...boosts, expirationDate: new Date(now.getTime() + 30 * 86_400_000) }).where(eq(adverts.id, bought.id));
    const before = await searchIndexVersion(handle.db);
    await refreshAdvertSearchClocks(handle.db, [bought.id], now);
    expect((await searchIndexChangesSince(handle.db, before))?.advertIds).toEqual([bought.id]);
    const inPlace = await rowsOf(bought.id);
    expect(inPlace?.search).toMatchObject({ frontPageBoosted: true, recheckAt: boosts.searchBoostUntil });
    expect(inPlace?.search.rank).toBeGreaterThan(2 ** 41);
    expect(inPlace?.document.cardDa).toMatchObject({ frontPageBoosted: true, searchBoosted: true });
    await refreshAdvertSearch(handle.db, [bought.id], now);
    expect(inPlace).toEqual(await rowsOf(bought.id));

    // A package bought for an advert that had run out: public again, so it gets its rows.
    const renewed = await createAdvert(handle.db, { expirationDate: new Date(now.getTime() - 86_400_000) });
    expect(await indexed(renewed.id)).toBe(false);
    await handle.db.update(adverts).set({ expirationDate: new Date(now.getTime() + 30 * 86_400_000) }).where(eq(adverts.id, renewed.id));
    await refreshAdvertSearchClocks(handle.db, [renewed.id], now);
    expect(await indexed(renewed.id)).toBe(true);

    // A refund that takes the whole package back: no longer public, so its rows go.
    await handle.db.update(adverts).set({ expirationDate: now }).where(eq(adverts.id, renewed.id));
    await refreshAdvertSearchClocks(handle.db, [renewed.id], now);
    expect(await indexed(renewed.id)).toBe(false);
  });

  it('ranks a search-boosted advert first until its boost ends', async () => {
    const now = Date.now();
    const boosted = await createAdvert(handle.db, { searchBoostUntil: new Date(now + 5 * MINUTE) });
    const rankOf = async () => (await handle.db.select().from(advertSearch).where(eq(advertSearch.advertId, boosted.id)))[0]!.rank;
    expect(await rankOf()).toBeGreaterThan(2 ** 41);
    await refreshDueAdvertSearch(handle.db, new Date(now + 10 * MINUTE));
    expect(await rankOf()).toBeLessThan(2 ** 41);
  });
});

/** A search as the API reads it: every parameter at its default but those given. */
const search = (input: Record<string, unknown>) => searchProfiles(handle.db, v.parse(SearchProfilesSchema, { PageSize: 60, ...input }), new Date());
const namesFound = async (input: Record<string, unknown>) => (await search(input)).items.map((card) => card.name);

describe('the in-memory search index (searches run in memory, kept current by the change log)', () => {
  it('shows a change to the very next search: a new name, an advert gone, a new advert', async () => {
    const city = 'Aalborg';
    const first = await createAdvert(handle.db, { city, name: 'Memorytest Alma' });
    const second = await createAdvert(handle.db, { city, name: 'Memorytest Bea' });
    expect(await namesFound({ Url: '/escort/region-nordjylland/aalborg/', Text: 'memorytest' })).toEqual(
      expect.arrayContaining(['Memorytest Alma', 'Memorytest Bea']),
    );

    await handle.db.update(adverts).set({ name: 'Memorytest Alberta', updatedAt: new Date() }).where(eq(adverts.id, first.id));
    await handle.db.update(adverts).set({ status: 5 }).where(eq(adverts.id, second.id));
    await refreshAdvertSearch(handle.db, [first.id, second.id], new Date());
    const third = await createAdvert(handle.db, { city, name: 'Memorytest Cleo' });

    const names = await namesFound({ Url: '/escort/region-nordjylland/aalborg/' });
    expect(names).toContain('Memorytest Alberta');
    expect(names).toContain('Memorytest Cleo');
    expect(names).not.toContain('Memorytest Alma');
    expect(names).not.toContain('Memorytest Bea');
    // Most recently updated first.
    expect(names.indexOf('Memorytest Cleo')).toBeLessThan(names.indexOf('Memorytest Alberta'));
    const front = await listFrontPageAdverts(handle.db, new Date(), 'da', 10_000);
    expect(front.items.map((card) => card.id)).toEqual(expect.arrayContaining([first.id, third.id]));
    expect(front.items.map((card) => card.id)).not.toContain(second.id);
  });

  it('logs every refresh under a new version, and starts over when the log no longer reaches back', async () => {
    const before = await searchIndexVersion(handle.db);
    const { id } = await createAdvert(handle.db, { city: 'Odense', name: 'Memorytest Dagny' });
    const changes = await searchIndexChangesSince(handle.db, before);
    expect(changes?.version).toBeGreaterThan(before);
    expect(changes?.advertIds).toContain(id);
    expect(await searchIndexChangesSince(handle.db, changes!.version)).toEqual({ version: changes!.version, advertIds: [] });

    // Prune the whole log (but the newest entry) and change an advert: a search still sees the change.
    await searchProfiles(handle.db, v.parse(SearchProfilesSchema, {}), new Date());
    await handle.db.update(adverts).set({ name: 'Memorytest Dorthe', updatedAt: new Date() }).where(eq(adverts.id, id));
    await refreshAdvertSearch(handle.db, [id], new Date());
    await createAdvert(handle.db, { city: 'Odense', name: 'Memorytest Eir' });
    await pruneSearchIndexLog(handle.db, new Date(Date.now() + MINUTE));
    expect(await searchIndexChangesSince(handle.db, before)).toBeNull();
    expect(await namesFound({ Text: 'memorytest', City: 'odense' })).toEqual(['Memorytest Eir', 'Memorytest Dorthe']);
  });

  it('keeps its columns when a payment moves only a clock its rows do not hold, and reorders at once for a boost', async () => {
    const now = new Date();
    const city = 'Horsens';
    const older = await createAdvert(handle.db, { city, name: 'Memorytest Gudrun' });
    const newer = await createAdvert(handle.db, { city, name: 'Memorytest Hilde' });
    const url = '/escort/region-midtjylland/horsens/';
    expect(await namesFound({ Url: url })).toEqual(['Memorytest Hilde', 'Memorytest Gudrun']);
    const columns = (await searchMemory(handle.db)).columns();

    // A package bought for a public advert: only its recheck time moves, which no reader of the index shows;
    // nothing is logged as changed, so neither the searches after it nor the next build read anything again.
    const versionBefore = await searchIndexVersion(handle.db);
    const expiry = new Date(now.getTime() + 60 * 86_400_000);
    await handle.db.update(adverts).set({ expirationDate: expiry }).where(eq(adverts.id, older.id));
    await refreshAdvertSearchClocks(handle.db, [older.id], now);
    expect(await searchIndexVersion(handle.db)).toBe(versionBefore);
    const [packaged] = await handle.db.select().from(advertSearch).where(eq(advertSearch.advertId, older.id));
    expect(packaged?.recheckAt).toEqual(expiry);
    const afterPackage = await searchMemory(handle.db);
    expect(afterPackage.version).toBe(await searchIndexVersion(handle.db));
    expect(afterPackage.columns()).toBe(columns);
    expect(await namesFound({ Url: url })).toEqual(['Memorytest Hilde', 'Memorytest Gudrun']);

    // A search boost moves the older advert first for the very next search.
    await handle.db.update(adverts).set({ searchBoostUntil: new Date(now.getTime() + 86_400_000) }).where(eq(adverts.id, older.id));
    await refreshAdvertSearchClocks(handle.db, [older.id], now);
    expect((await searchIndexChangesSince(handle.db, versionBefore))?.advertIds).toEqual([older.id]);
    expect((await searchMemory(handle.db)).columns()).not.toBe(columns);
    expect(await namesFound({ Url: url })).toEqual(['Memorytest Gudrun', 'Memorytest Hilde']);
    expect(newer.id).toBeGreaterThan(older.id);
  });

  it('gives every concurrent search a view at least as new as the last write before it', async () => {
    const { id } = await createAdvert(handle.db, { city: 'Esbjerg', name: 'Memorytest Frida' });
    const searches = Array.from({ length: 5 }, () => namesFound({ City: 'esbjerg' }));
    await handle.db.update(adverts).set({ status: 5 }).where(eq(adverts.id, id));
    await refreshAdvertSearch(handle.db, [id], new Date());
    const after = await Promise.all(Array.from({ length: 5 }, () => namesFound({ City: 'esbjerg' })));
    await Promise.all(searches);
    for (const names of after) expect(names).not.toContain('Memorytest Frida');
  });

});
