import { and, gt, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adverts } from '../../db/schema.ts';
import { publicAdvertCondition } from '../adverts/visibility.ts';
import type { Locale } from '../site/site-info.ts';
import { listAdvertCards, type AdvertCard } from './advert-card.ts';

export const FRONT_PAGE_SIZE = 60;

/** The minute that seeds the front-page order: the same for every instance and cache within it. */
export function shuffleMinute(now: Date): number {
  return Math.floor(now.getTime() / 60_000);
}

/**
 * Front-page adverts (DESIGN.md "Front page order"): front-page-boosted first, then the rest, each
 * group in an order reshuffled every minute by a hash of (id, minute).
 */
export async function listFrontPageAdverts(
  db: Db,
  now: Date,
  locale: Locale,
  limit = FRONT_PAGE_SIZE,
): Promise<{ minute: number; items: AdvertCard[] }> {
  const minute = shuffleMinute(now);
  const boosted = and(isNotNull(adverts.frontPageBoostUntil), gt(adverts.frontPageBoostUntil, now));
  const rows = await db
    .select({ id: adverts.id })
    .from(adverts)
    .where(publicAdvertCondition(now))
    .orderBy(
      sql`(${boosted}) desc`,
      sql`mod(${adverts.id}::bigint * 2654435761 + ${minute}::bigint * 40503, 4294967291)`,
    )
    .limit(limit);
  return { minute, items: await listAdvertCards(db, rows.map((r) => r.id), locale, now) };
}
