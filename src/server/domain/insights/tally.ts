/**
 * Counting a beacon (issue 32, docs/decisions/040): its events, each checked (a public advert, not a bot,
 * within the address's budget, not a repeat of the same visitor within the window), added up in memory per
 * advert, Copenhagen day and place until the next write drains them.
 */
import { sql } from 'drizzle-orm';
import { isoDayOf } from '#lib/format.ts';
import type { Db } from '../../db/client.ts';
import { isBotAgent, type DayKeys } from '../visitors.ts';
import { readBeacon, type BeaconEvent } from './beacon.ts';
import type { AddressBudget, RepeatWindow } from './repeat-window.ts';

/** One row of `advert_insight_days` as it is added to (every figure a count to add). */
export type InsightRow = {
  advertId: number;
  day: string;
  place: string;
  impressions: number;
  rankSum: number;
  views: number;
  phoneReveals: number;
  contactTaps: number;
};

export class InsightTally {
  private rows = new Map<string, InsightRow>();

  add(event: BeaconEvent, day: string): void {
    const id = `${event.advertId}\u0000${day}\u0000${event.place}`;
    let row = this.rows.get(id);
    if (!row) {
      row = { advertId: event.advertId, day, place: event.place, impressions: 0, rankSum: 0, views: 0, phoneReveals: 0, contactTaps: 0 };
      this.rows.set(id, row);
    }
    if (event.figure === 'impression') {
      row.impressions += 1;
      row.rankSum += event.rank;
    } else if (event.figure === 'view') row.views += 1;
    else if (event.figure === 'phoneReveal') row.phoneReveals += 1;
    else row.contactTaps += 1;
  }

  /** The rows added up since the last drain; the tally starts again empty. */
  drain(): InsightRow[] {
    const rows = [...this.rows.values()];
    this.rows = new Map();
    return rows;
  }

  /**
   * Adds the held rows to `advert_insight_days` in one statement (each figure added to what the row holds,
   * so instances writing the same row add up) and answers how many rows it wrote. Rows of adverts that no
   * longer exist are left out. When the write fails the rows are held again for the next flush.
   */
  async flush(db: Db): Promise<number> {
    const rows = this.drain();
    if (rows.length === 0) return 0;
    try {
      await db.execute(sql`
        insert into advert_insight_days (advert_id, day, place, impressions, rank_sum, views, phone_reveals, contact_taps)
        select v.advert_id, v.day::date, v.place, v.impressions, v.rank_sum, v.views, v.phone_reveals, v.contact_taps
        from jsonb_to_recordset(${JSON.stringify(rows.map(toColumns))}::jsonb) as v(
          advert_id integer, day text, place text, impressions integer, rank_sum bigint, views integer, phone_reveals integer, contact_taps integer)
        where exists (select 1 from adverts a where a.id = v.advert_id)
        on conflict (advert_id, day, place) do update set
          impressions = advert_insight_days.impressions + excluded.impressions,
          rank_sum = advert_insight_days.rank_sum + excluded.rank_sum,
          views = advert_insight_days.views + excluded.views,
          phone_reveals = advert_insight_days.phone_reveals + excluded.phone_reveals,
          contact_taps = advert_insight_days.contact_taps + excluded.contact_taps`);
    } catch (error) {
      for (const row of rows) this.restore(row);
      throw error;
    }
    return rows.length;
  }

  /** A row that could not be written, added back to what is held. */
  private restore(row: InsightRow): void {
    const id = `${row.advertId}\u0000${row.day}\u0000${row.place}`;
    const held = this.rows.get(id);
    if (!held) {
      this.rows.set(id, row);
      return;
    }
    held.impressions += row.impressions;
    held.rankSum += row.rankSum;
    held.views += row.views;
    held.phoneReveals += row.phoneReveals;
    held.contactTaps += row.contactTaps;
  }

  get size(): number {
    return this.rows.size;
  }
}

const toColumns = (row: InsightRow) => ({
  advert_id: row.advertId,
  day: row.day,
  place: row.place,
  impressions: row.impressions,
  rank_sum: row.rankSum,
  views: row.views,
  phone_reveals: row.phoneReveals,
  contact_taps: row.contactTaps,
});

export type BeaconCounting = {
  keys: DayKeys;
  window: RepeatWindow;
  budget: AddressBudget;
  tally: InsightTally;
  /** Whether the id is a public advert's (the search memory's public ids). */
  isPublic: (advertId: number) => boolean;
  now: () => number;
};

/** A beacon from `address` with `userAgent`: its events that count are added to the tally; answers how many. */
export function countBeacon(counting: BeaconCounting, beacon: { body: string; address: string; userAgent: string | undefined }): number {
  if (isBotAgent(beacon.userAgent)) return 0;
  const day = isoDayOf(counting.now());
  const address = counting.keys.key(day, 'address', beacon.address);
  let counted = 0;
  for (const event of readBeacon(beacon.body)) {
    if (!counting.isPublic(event.advertId)) continue;
    if (counting.window.repeat(counting.keys.key(day, beacon.address, event.advertId, event.figure, event.place))) continue;
    if (!counting.budget.take(address)) break;
    counting.tally.add(event, day);
    counted += 1;
  }
  return counted;
}
