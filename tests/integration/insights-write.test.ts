/**
 * Advertiser insights written (issue 32, docs/decisions/040): the tallies' rows are added to
 * advert_insight_days, so two instances (two tallies) writing the same rows add up; rows of an advert that
 * is gone are left out; a write that fails keeps its counts for the next one. On PGlite, and on PostgreSQL
 * when DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { adverts, advertInsightDays } from '#server/db/schema.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { InsightTally } from '#server/domain/insights/tally.ts';
import { seedReference } from '#server/db/seed/seed-reference.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';
import { createAdvert } from '#tests/support/fixtures.ts';

let database: { handle: DatabaseHandle; drop: () => Promise<void> };
let first: number;
let second: number;
beforeAll(async () => {
  database = await openTestDatabase();
  await seedReference(database.handle.db, { siteUrl: 'http://localhost:3000' });
  first = (await createAdvert(database.handle.db, { name: 'Indsigt Ida' })).id;
  second = (await createAdvert(database.handle.db, { name: 'Indsigt Ulla' })).id;
});
afterAll(async () => {
  await database?.drop();
});

const rows = () => database.handle.db.select().from(advertInsightDays).orderBy(asc(advertInsightDays.advertId), asc(advertInsightDays.place));

describe('insights written (issue 32)', () => {
  it('adds every instance’s counts to the same rows', async () => {
    const a = new InsightTally();
    const b = new InsightTally();
    a.add({ figure: 'impression', advertId: first, place: 'front', rank: 3 }, '2026-12-02');
    a.add({ figure: 'view', advertId: first, place: 'advert' }, '2026-12-02');
    b.add({ figure: 'impression', advertId: first, place: 'front', rank: 5 }, '2026-12-02');
    b.add({ figure: 'contactTap', advertId: first, place: 'advert', channel: 'tel' }, '2026-12-02');
    b.add({ figure: 'phoneReveal', advertId: second, place: 'advert' }, '2026-12-02');
    await Promise.all([a.flush(database.handle.db), b.flush(database.handle.db)]);
    a.add({ figure: 'impression', advertId: first, place: 'front', rank: 1 }, '2026-12-02');
    expect(await a.flush(database.handle.db)).toBe(1);
    expect(await a.flush(database.handle.db)).toBe(0);
    expect(await rows()).toEqual([
      { advertId: first, day: '2026-12-02', place: 'advert', impressions: 0, rankSum: 0, views: 1, phoneReveals: 0, contactTaps: 1 },
      { advertId: first, day: '2026-12-02', place: 'front', impressions: 3, rankSum: 9, views: 0, phoneReveals: 0, contactTaps: 0 },
      { advertId: second, day: '2026-12-02', place: 'advert', impressions: 0, rankSum: 0, views: 0, phoneReveals: 1, contactTaps: 0 },
    ]);
  });

  it('leaves out an advert that is gone, and keeps what a failed write held for the next one', async () => {
    const gone = (await createAdvert(database.handle.db, { name: 'Indsigt Væk' })).id;
    const tally = new InsightTally();
    tally.add({ figure: 'view', advertId: gone, place: 'advert' }, '2026-12-03');
    tally.add({ figure: 'view', advertId: second, place: 'advert' }, '2026-12-03');
    await database.handle.db.delete(adverts).where(eq(adverts.id, gone));
    await tally.flush(database.handle.db);
    expect((await rows()).filter((row) => row.day === '2026-12-03').map((row) => row.advertId)).toEqual([second]);

    // The table is locked out for a moment: the write fails, the counts stay, the next write has them.
    tally.add({ figure: 'view', advertId: second, place: 'advert' }, '2026-12-03');
    await database.handle.db.execute(sql`alter table advert_insight_days rename to advert_insight_days_away`);
    await expect(tally.flush(database.handle.db)).rejects.toThrow();
    expect(tally.size).toBe(1);
    tally.add({ figure: 'view', advertId: second, place: 'advert' }, '2026-12-03');
    await database.handle.db.execute(sql`alter table advert_insight_days_away rename to advert_insight_days`);
    await tally.flush(database.handle.db);
    expect((await rows()).find((row) => row.advertId === second && row.day === '2026-12-03')!.views).toBe(3);
  });
});
