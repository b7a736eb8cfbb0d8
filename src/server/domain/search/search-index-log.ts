import { and, asc, gt, lt, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { isExclusiveDatabase, rowsOf, type Db } from '../../db/client.ts';
import { idArray } from '../../db/any-of.ts';
import { searchIndexLog, searchIndexState } from '../../db/schema.ts';

/**
 * Records that the search rows of these adverts changed: bumps the index version (the row lock makes
 * versions commit in order) and logs the ids under it. Called by refreshAdvertSearch after it wrote.
 */
export async function recordSearchIndexChange(db: Db, advertIds: number[]): Promise<number> {
  // After the commit, on the database handle itself: readers learn of the version only once it is visible.
  if (db instanceof PgTransaction) throw new Error('Refresh the search index after the transaction has committed');
  const result = await db.execute(sql`
    with bumped as (update search_index_state set version = version + 1 where id = 1 returning version)
    insert into search_index_log (version, advert_ids) select version, ${idArray(advertIds)} from bumped returning version`);
  const rows = rowsOf<{ version: string | number }>(result);
  const version = Number(rows[0]?.version ?? 0);
  if (isExclusiveDatabase(db)) localVersions.set(db, Math.max(localVersions.get(db) ?? 0, version));
  return version;
}

/** The newest index version this process wrote, per database of which it is the only client. */
const localVersions = new WeakMap<Db, number>();

/**
 * Whether the index may have changed since `version` was read: always true for a shared database (other
 * instances write to it); for a database only this process uses, only when this process recorded a newer
 * version (every index write goes through recordSearchIndexChange, here).
 */
export function searchIndexMayHaveChanged(db: Db, version: number): boolean {
  if (!isExclusiveDatabase(db)) return true;
  return (localVersions.get(db) ?? 0) > version;
}

/** The version of the search index now. */
export async function searchIndexVersion(db: Db): Promise<number> {
  const [row] = await db.select({ version: searchIndexState.version }).from(searchIndexState);
  return row?.version ?? 0;
}

export type SearchIndexChanges = { version: number; advertIds: number[] };

/**
 * What changed after `version`: the newest version and the adverts changed since (none when nothing
 * did), or null when the log no longer reaches back that far (the reader must start over).
 */
export async function searchIndexChangesSince(db: Db, version: number): Promise<SearchIndexChanges | null> {
  const rows = await db
    .select({ version: searchIndexLog.version, advertIds: searchIndexLog.advertIds })
    .from(searchIndexLog)
    .where(gt(searchIndexLog.version, version))
    .orderBy(asc(searchIndexLog.version));
  if (rows.length === 0) return { version, advertIds: [] };
  if (rows[0]!.version !== version + 1) return null;
  const ids = new Set<number>();
  for (const row of rows) for (const id of row.advertIds) ids.add(id);
  return { version: rows.at(-1)!.version, advertIds: [...ids] };
}

/** Drops log entries older than `before`, always keeping the newest (so "no rows" means "no change"). */
export async function pruneSearchIndexLog(db: Db, before: Date): Promise<void> {
  await db
    .delete(searchIndexLog)
    .where(and(lt(searchIndexLog.createdAt, before), lt(searchIndexLog.version, sql`(select version from search_index_state where id = 1)`)));
}
