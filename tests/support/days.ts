/**
 * Days as the product counts them: in Copenhagen, never UTC's date (which is a day behind between 23:00
 * and 24:00 UTC in winter, 22:00 and 24:00 in summer). Shared by the unit, integration and browser tests.
 */
import { isoDayOf } from '#lib/format.ts';

const DAY = 86_400_000;

/** The Copenhagen day `days` from now, as yyyy-MM-dd (a date field's value). */
export const isoDayFromNow = (days: number): string => isoDayOf(Date.now() + days * DAY);

/**
 * A date of birth `years` before today in Copenhagen, moved by `days`, as the form takes it (dd-MM-yyyy):
 * `yearsAgo(18, 1)` turns 18 tomorrow; `yearsAgo(18, -2)` turned 18 two days ago.
 */
export function yearsAgo(years: number, days = 0): string {
  const [year, month, day] = isoDayOf(Date.now()).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year - years, month - 1, day + days));
  return `${String(date.getUTCDate()).padStart(2, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${date.getUTCFullYear()}`;
}
