import { desc, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { advertSearch } from '../../db/schema.ts';
import type { FrontPageAdverts } from '#lib/schemas/public-advert.ts';
import { cardsOf } from './search-profiles.ts';
import type { Locale } from '../site/site-info.ts';

export const FRONT_PAGE_SIZE = 60;

/** The minute that seeds the front-page order: the same for every instance and cache within it. */
export function shuffleMinute(now: Date): number {
  return Math.floor(now.getTime() / 60_000);
}

/**
 * Front-page adverts (DESIGN.md "Front page order"): front-page-boosted first, then the rest, each
 * group in an order reshuffled every minute by a hash of (id, minute). Reads the search index, so
 * only public adverts appear.
 */
export async function listFrontPageAdverts(
  db: Db,
  now: Date,
  locale: Locale,
  limit = FRONT_PAGE_SIZE,
): Promise<FrontPageAdverts> {
  const minute = shuffleMinute(now);
  const rows = await db
    .select({ id: advertSearch.advertId })
    .from(advertSearch)
    .orderBy(
      desc(advertSearch.frontPageBoosted),
      sql`mod(${advertSearch.advertId}::bigint * 2654435761 + ${minute}::bigint * 40503, 4294967291)`,
    )
    .limit(limit);
  return { minute, items: await cardsOf(db, rows.map((row) => row.id), locale) };
}
