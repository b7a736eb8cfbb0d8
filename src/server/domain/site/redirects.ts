import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pathRedirects } from '../../db/schema.ts';

/**
 * Permanent redirects of public addresses that moved (issue 17): a published SEO page given a new address,
 * a renamed city. Paths are site paths with both slashes ('/escort/region-x/by/'), English under '/en/'.
 * The caller passes its transaction, so the move and its redirect are one change.
 */

/** A site path as stored: a leading and a trailing slash, nothing else (no query, no host). */
export function sitePath(path: string): string {
  const trimmed = path.trim().replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}/` : '/';
}

/**
 * `from` now answers 301 to `to`. Chains stay flat: redirects that led to `from` lead to `to`; a redirect
 * from `to` (the address is used again, say a rename undone) is dropped, so nothing loops.
 */
export async function addPathRedirect(db: Db, from: string, to: string): Promise<void> {
  const fromPath = sitePath(from);
  const toPath = sitePath(to);
  if (fromPath === toPath) return;
  await db.delete(pathRedirects).where(eq(pathRedirects.fromPath, toPath));
  await db.update(pathRedirects).set({ toPath }).where(eq(pathRedirects.toPath, fromPath));
  await db
    .insert(pathRedirects)
    .values({ fromPath, toPath })
    .onConflictDoUpdate({ target: pathRedirects.fromPath, set: { toPath, createdAt: sql`now()` } });
}

/** The address is in use again (a page published there, a city named so): no redirect from it any more. */
export async function removePathRedirect(db: Db, path: string): Promise<void> {
  await db.delete(pathRedirects).where(eq(pathRedirects.fromPath, sitePath(path)));
}

/** Where a moved address leads now, or null. */
export async function redirectOf(db: Db, path: string): Promise<string | null> {
  const [row] = await db.select({ toPath: pathRedirects.toPath }).from(pathRedirects).where(eq(pathRedirects.fromPath, sitePath(path)));
  return row?.toPath ?? null;
}

/** Every redirect (the site build writes them for Netlify; the server keeps them in memory). */
export async function listPathRedirects(db: Db): Promise<{ fromPath: string; toPath: string }[]> {
  return db.select({ fromPath: pathRedirects.fromPath, toPath: pathRedirects.toPath }).from(pathRedirects).orderBy(pathRedirects.fromPath);
}
