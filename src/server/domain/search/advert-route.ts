import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adverts } from '../../db/schema.ts';
import { isAdvertPublic } from '../adverts/visibility.ts';
import { PROFILE_STATUS } from '../adverts/statuses.ts';
import { advertPath } from './advert-card.ts';

export type AdvertRoute = { state: 'public' | 'blocked' | 'gone'; canonicalPath: string };

/** Reads an advert id from the path forms the spec accepts: `{slug}-{id}`, a bare `{id}`, legacy `{slug}--{id}.html`. */
export function advertIdFromPath(pathname: string): number | null {
  const match =
    pathname.match(/^\/(?:en\/)?annonce\/(?:[^/]*-)?(\d{1,9})\/?$/) ?? pathname.match(/^\/(?:en\/)?P\/[^/]*--(\d{1,9})\.html\/?$/);
  return match ? Number(match[1]) : null;
}

/** Where an advert lives now, and whether the public may see it (a locked one shows the blocked page). */
export async function findAdvertRoute(db: Db, id: number, now: Date): Promise<AdvertRoute | null> {
  const [advert] = await db.select().from(adverts).where(eq(adverts.id, id)).limit(1);
  if (!advert) return null;
  const canonicalPath = advertPath(advert);
  if (isAdvertPublic(advert, now)) return { state: 'public', canonicalPath };
  return { state: advert.status === PROFILE_STATUS.Locked ? 'blocked' : 'gone', canonicalPath };
}
