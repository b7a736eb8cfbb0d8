/**
 * The one figure the records cannot give afterwards: how many adverts were public at the end of a day, by
 * kind (docs/decisions/030-statistics.md). The statistics job counts advert_search (one row per advert
 * public now; its kind 0 escort, 1 trans escort, 2 Thai massage) into public_advert_days.
 */
import { sql } from 'drizzle-orm';
import { PUBLIC_KINDS } from '#lib/schemas/statistics.ts';
import { isoDayOf } from '#lib/format.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import { addDays } from './statistics.ts';

/** The public adverts by kind right now, as rows of public_advert_days for `day`. */
function countedRows(day: string, now: Date) {
  const kinds = sql.join(
    PUBLIC_KINDS.map((kind, number) => sql`(${number}::int, ${kind}::text)`),
    sql`, `,
  );
  return sql`select ${day}::date, k.kind, coalesce(c.count, 0), ${now.toISOString()}::timestamptz
    from (values ${kinds}) as k(number, kind)
    left join (select kind, count(*)::int as count from advert_search group by kind) c on c.kind = k.number`;
}

/**
 * Counts the public adverts now: today's row (Copenhagen) is written or refreshed, so the current day
 * shows a value and the day's last run leaves what it ended with; yesterday's row, if no run counted it
 * before midnight (the server was down), is written from this count, the nearest there is. Answers
 * today's counts by kind.
 */
export async function countPublicAdverts(db: Db, now: Date): Promise<Record<string, number>> {
  const today = isoDayOf(now);
  await db.execute(sql`insert into public_advert_days (day, kind, count, counted_at) ${countedRows(addDays(today, -1), now)}
    on conflict (day, kind) do nothing`);
  await db.execute(sql`insert into public_advert_days (day, kind, count, counted_at) ${countedRows(today, now)}
    on conflict (day, kind) do update set count = excluded.count, counted_at = excluded.counted_at`);
  const rows = rowsOf<{ kind: string; count: number }>(await db.execute(sql`select kind, count from public_advert_days where day = ${today}::date`));
  return Object.fromEntries(rows.map((row) => [row.kind, row.count]));
}
