/** Days and months as the bookkeeper and support count them: in Europe/Copenhagen. */
import { formatDate } from '#lib/format.ts';
import { holidayEndOf } from '../adverts/holiday.ts';

/** `yyyy-MM-dd` → the instant that day starts in Copenhagen (summer and winter time alike). */
export function startOfCopenhagenDay(day: string): Date {
  return holidayEndOf(day);
}

/** `yyyy-MM-dd` → the next day, `yyyy-MM-dd`. */
export function dayAfter(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** The Copenhagen month of an instant, `yyyy-MM`. */
export function copenhagenMonthOf(at: Date): string {
  const [, month, year] = formatDate(at).split('-');
  return `${year}-${month}`;
}

/** Every month `yyyy-MM` from the month of `from` to the month of `to`, both included. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  let [year, month] = from.slice(0, 7).split('-').map(Number) as [number, number];
  const last = to.slice(0, 7);
  for (;;) {
    const key = `${year}-${String(month).padStart(2, '0')}`;
    if (key > last) return months;
    months.push(key);
    month += 1;
    if (month > 12) [year, month] = [year + 1, 1];
  }
}
