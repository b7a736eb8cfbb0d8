import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adverts, migratedAdverts } from '../../db/schema.ts';
import { isAdvertPublic } from '../adverts/visibility.ts';
import { PROFILE_STATUS } from '../adverts/statuses.ts';
import { advertPath } from './advert-card.ts';

export type AdvertRoute = { state: 'public' | 'blocked' | 'gone'; canonicalPath: string };

/** Reads an advert id from the path forms the spec accepts: `{slug}-{id}` and a bare `{id}`. */
export function advertIdFromPath(pathname: string): number | null {
  const match = pathname.match(/^\/(?:en\/)?annonce\/(?:[^/]*-)?(\d{1,9})\/?$/);
  return match ? Number(match[1]) : null;
}

/**
 * Reads the old site's advert id from its address, `/P/{slug}--{old id}.html/` (with or without the slash):
 * an id of the site this one replaces, never one of ours (docs/decisions/032-old-addresses.md).
 */
export function oldAdvertIdFromPath(pathname: string): number | null {
  const match = pathname.match(/^\/(?:en\/)?P\/[^/]*--(\d{1,9})\.html\/?$/);
  return match ? Number(match[1]) : null;
}

/** Imports that will never become an advert: the old address is gone for good (410). */
const GONE_STATES = ['refused', 'deleted'];

/**
 * Where the old site's address of an imported advert leads (issue 18): to the new advert's page once it
 * is public; gone (410) when support refused the import, it was deleted unclaimed, or the new advert was
 * deleted; null (404) while it is on its way (imported, invited, claimed and waiting for approval) or
 * never imported.
 */
export function legacyRouteOf(
  row: { state: string; advert: (Parameters<typeof isAdvertPublic>[0] & { id: number; name: string }) | null },
  now: Date,
): { state: 'public'; canonicalPath: string } | { state: 'gone' } | null {
  if (GONE_STATES.includes(row.state)) return { state: 'gone' };
  if (!row.advert) return null;
  if (isAdvertPublic(row.advert, now)) return { state: 'public', canonicalPath: advertPath(row.advert) };
  if (row.advert.deletedAt !== null || row.advert.status === PROFILE_STATUS.Deleted) return { state: 'gone' };
  return null;
}

const legacyColumns = {
  oldId: migratedAdverts.oldId,
  oldSlug: migratedAdverts.oldSlug,
  state: migratedAdverts.state,
  advert: adverts,
};

/** The old address's answer for one old id (`legacyRouteOf`). */
export async function findLegacyRoute(db: Db, oldId: number, now: Date): Promise<ReturnType<typeof legacyRouteOf>> {
  const [row] = await db
    .select(legacyColumns)
    .from(migratedAdverts)
    .leftJoin(adverts, eq(adverts.id, migratedAdverts.advertId))
    .where(eq(migratedAdverts.oldId, oldId))
    .limit(1);
  return row ? legacyRouteOf(row, now) : null;
}

/**
 * Every old address with a final answer, for a deployment that cannot ask us (Netlify's _redirects):
 * the old address with and without its slash, to the public advert (301) or gone (410).
 */
export async function listLegacyRedirects(db: Db, now: Date): Promise<{ fromPath: string; toPath: string | null; status: 301 | 410 }[]> {
  const rows = await db
    .select(legacyColumns)
    .from(migratedAdverts)
    .leftJoin(adverts, eq(adverts.id, migratedAdverts.advertId))
    .orderBy(migratedAdverts.oldId);
  return rows.flatMap((row) => {
    const route = legacyRouteOf(row, now);
    // An erased account's import has no slug left: its address is never published (our server answers it by id).
    if (!route || row.oldSlug === '') return [];
    const path = `/P/${row.oldSlug}--${row.oldId}.html`;
    return [path, `${path}/`].map((fromPath) =>
      route.state === 'public' ? { fromPath, toPath: route.canonicalPath, status: 301 as const } : { fromPath, toPath: null, status: 410 as const },
    );
  });
}

/** Where an advert lives now, and whether the public may see it (a locked one shows the blocked page). */
export async function findAdvertRoute(db: Db, id: number, now: Date): Promise<AdvertRoute | null> {
  const [advert] = await db.select().from(adverts).where(eq(adverts.id, id)).limit(1);
  if (!advert) return null;
  const canonicalPath = advertPath(advert);
  if (isAdvertPublic(advert, now)) return { state: 'public', canonicalPath };
  return { state: advert.status === PROFILE_STATUS.Locked ? 'blocked' : 'gone', canonicalPath };
}
