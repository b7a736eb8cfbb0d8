/**
 * Days as the product counts them: in Copenhagen, never UTC's date (which is a day behind between 23:00
 * and 24:00 UTC in winter, 22:00 and 24:00 in summer). Shared by the unit, integration and browser tests.
 */
import { isoDayOf } from '#lib/format.ts';

/** A yyyy-MM-dd day moved by whole calendar days (computed on the date alone, so DST changes cannot move it). */
function addDays(isoDay: string, days: number): string {
  const [year, month, day] = isoDay.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/**
 * The Copenhagen day `days` from now, as yyyy-MM-dd (a date field's value): today's date in Copenhagen
 * moved by calendar days (not `days` × 24 hours, which lands a day off near midnight across a DST change).
 */
export const isoDayFromNow = (days: number): string => addDays(isoDayOf(Date.now()), days);

/**
 * A date of birth `years` before today in Copenhagen, moved by `days`, as the form takes it (dd-MM-yyyy):
 * `yearsAgo(18, 1)` turns 18 tomorrow; `yearsAgo(18, -2)` turned 18 two days ago.
 */
export function yearsAgo(years: number, days = 0): string {
  const [year, month, day] = isoDayOf(Date.now()).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year - years, month - 1, day + days));
  return `${String(date.getUTCDate()).padStart(2, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${date.getUTCFullYear()}`;
}

/**
 * For a browser test that compares "today" (or this month) with what the server and the browser count
 * while it runs: when less than `withinMs` is left of the Copenhagen day, waits until the next day has
 * begun, so the whole test runs within one Copenhagen day. Answers that day (yyyy-MM-dd).
 */
export async function oneCopenhagenDay(withinMs: number): Promise<string> {
  const today = isoDayOf(Date.now());
  if (isoDayOf(Date.now() + withinMs) === today) return today;
  while (isoDayOf(Date.now()) === today) await new Promise((resolve) => setTimeout(resolve, 1000));
  return isoDayOf(Date.now());
}
