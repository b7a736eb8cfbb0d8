import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adverts, advertSearch } from '#server/db/schema.ts';
import { refreshAdvertSearch, refreshDueAdvertSearch } from '#server/domain/search/refresh-advert-search.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';
import { seedReference } from '#server/db/seed/seed-reference.ts';
import { createAdvert } from '#tests/support/fixtures.ts';
import type { DatabaseHandle } from '#server/db/client.ts';

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

  it('ranks a search-boosted advert first until its boost ends', async () => {
    const now = Date.now();
    const boosted = await createAdvert(handle.db, { searchBoostUntil: new Date(now + 5 * MINUTE) });
    const rankOf = async () => (await handle.db.select().from(advertSearch).where(eq(advertSearch.advertId, boosted.id)))[0]!.rank;
    expect(await rankOf()).toBeGreaterThan(2 ** 41);
    await refreshDueAdvertSearch(handle.db, new Date(now + 10 * MINUTE));
    expect(await rankOf()).toBeLessThan(2 ** 41);
  });
});
