import { and, asc, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { idArray } from '../../db/any-of.ts';
import { searchIndexLog, searchIndexState } from '../../db/schema.ts';

/**
 * Records that the search rows of these adverts changed: bumps the index version (the row lock makes
 * versions commit in order) and logs the ids under it. Called by refreshAdvertSearch after it wrote.
 */
export async function recordSearchIndexChange(db: Db, advertIds: number[]): Promise<number> {
  const result = await db.execute(sql`
    with bumped as (update search_index_state set version = version + 1 where id = 1 returning version)
    insert into search_index_log (version, advert_ids) select version, ${idArray(advertIds)} from bumped returning version`);
  const rows = (result as unknown as { rows?: { version: string | number }[] }).rows ?? (result as unknown as { version: string | number }[]);
  return Number(rows[0]?.version ?? 0);
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
