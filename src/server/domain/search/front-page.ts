import type { Db } from '../../db/client.ts';
import type { FrontPageAdverts } from '#lib/schemas/public-advert.ts';
import { memoryCards, searchMemory } from './search-memory.ts';
import { boostedFirst, shuffleMinute, shufflePosition } from './ranking.ts';
import type { Locale } from '../site/site-info.ts';

export const FRONT_PAGE_SIZE = 60;

/**
 * Front-page adverts (DESIGN.md "Front page order", ranking.ts): front-page-boosted first, rotated fairly
 * each minute, then the rest in an order reshuffled every minute by a hash of (id, minute). Reads the
 * in-memory search index, so only public adverts appear.
 */
export async function listFrontPageAdverts(
  db: Db,
  now: Date,
  locale: Locale,
  limit = FRONT_PAGE_SIZE,
): Promise<FrontPageAdverts> {
  const minute = shuffleMinute(now);
  const memory = await searchMemory(db);
  const boosted: number[] = [];
  const rest: { id: number; position: number }[] = [];
  for (const row of memory.rows) {
    if (row.frontPageBoosted) boosted.push(row.id);
    else rest.push({ id: row.id, position: shufflePosition(row.id, minute) });
  }
  rest.sort((a, b) => a.position - b.position);
  const ids = boostedFirst(
    boosted,
    rest.slice(0, limit).map((entry) => entry.id),
    minute,
  ).slice(0, limit);
  return { minute, items: await memoryCards(db, memory, ids, locale) };
}
