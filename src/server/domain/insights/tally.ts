/**
 * Counting a beacon (issue 32, docs/decisions/040): its events, each checked (a public advert, not a bot,
 * within the address's budget, not a repeat of the same visitor within the window), added up in memory per
 * advert, Copenhagen day and place until the next write drains them.
 */
import { isoDayOf } from '#lib/format.ts';
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

  get size(): number {
    return this.rows.size;
  }
}

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
