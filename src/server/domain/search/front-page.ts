import type { Db } from '../../db/client.ts';
import type { FrontPageAdverts } from '#lib/schemas/public-advert.ts';
import { memoryCards, searchMemory, type MemoryRow } from './search-memory.ts';
import type { Locale } from '../site/site-info.ts';

export const FRONT_PAGE_SIZE = 60;

/** The minute that seeds the front-page order: the same for every instance and cache within it. */
export function shuffleMinute(now: Date): number {
  return Math.floor(now.getTime() / 60_000);
}

/** Where an advert falls in a minute's order: a hash of (id, minute), the same on every instance. */
export function shufflePosition(advertId: number, minute: number): number {
  return Number((BigInt(advertId) * 2654435761n + BigInt(minute) * 40503n) % 4294967291n);
}

/**
 * Front-page adverts (DESIGN.md "Front page order"): front-page-boosted first, then the rest, each
 * group in an order reshuffled every minute by a hash of (id, minute). Reads the in-memory search
 * index, so only public adverts appear.
 */
export async function listFrontPageAdverts(
  db: Db,
  now: Date,
  locale: Locale,
  limit = FRONT_PAGE_SIZE,
): Promise<FrontPageAdverts> {
  const minute = shuffleMinute(now);
  const memory = await searchMemory(db);
  const ranked = memory.rows.map((row: MemoryRow) => ({
    id: row.id,
    boosted: row.frontPageBoosted,
    position: shufflePosition(row.id, minute),
  }));
  ranked.sort((a, b) => Number(b.boosted) - Number(a.boosted) || a.position - b.position);
  const ids = ranked.slice(0, limit).map((entry) => entry.id);
  return { minute, items: await memoryCards(db, memory, ids, locale) };
}
