/**
 * An advert's opening hours: weekday 1 Monday … 7 Sunday with from/to times (HH:mm, Copenhagen time).
 * "Open now" is computed in the browser at the visitor's moment, in Europe/Copenhagen time. A period whose
 * end is not after its start runs past midnight into the next day ('20:00'–'02:00'); '00:00'–'00:00'
 * is the whole day.
 */
export type ScheduleEntry = { weekday: number; from: string; to: string };

const TIME_ZONE = 'Europe/Copenhagen';
const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const DAY = 24 * 60;

let formatter: Intl.DateTimeFormat | undefined;

/** Weekday (1 Monday … 7 Sunday) and minutes since midnight of a moment, in Copenhagen. */
export function copenhagenClock(date: Date): { weekday: number; minutes: number } {
  formatter ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: TIME_ZONE,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const parts = Object.fromEntries(formatter.formatToParts(date).map((part) => [part.type, part.value]));
  return {
    weekday: WEEKDAYS[parts['weekday'] ?? ''] ?? 1,
    minutes: Number(parts['hour']) * 60 + Number(parts['minute']),
  };
}

/** 'HH:mm' → minutes since midnight; null when unreadable. '24:00' is the end of the day. */
export function minutesOf(time: string): number | null {
  const match = /^(\d{1,2}):(\d{2})/.exec(time.trim());
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes <= DAY ? minutes : null;
}

/** Whether one schedule entry covers this weekday and minute (including a night running on from yesterday). */
function covers(entry: ScheduleEntry, weekday: number, minutes: number): boolean {
  const from = minutesOf(entry.from);
  const to = minutesOf(entry.to);
  if (from === null || to === null) return false;
  const previousDay = weekday === 1 ? 7 : weekday - 1;
  if (to > from) return entry.weekday === weekday && minutes >= from && minutes < to;
  // Runs past midnight (or the whole day when from === to === 0).
  const end = to === 0 ? DAY : to;
  if (from === 0 && to === 0) return entry.weekday === weekday;
  if (entry.weekday === weekday && minutes >= from) return true;
  return end !== DAY && entry.weekday === previousDay && minutes < end;
}

/** Is the advertiser open at this moment (Copenhagen time)? */
export function isOpenAt(schedule: ScheduleEntry[], date: Date): boolean {
  const { weekday, minutes } = copenhagenClock(date);
  return schedule.some((entry) => covers(entry, weekday, minutes));
}

/** The entries of each weekday, Monday first: [[1, [...]], [2, []], ...]. */
export function scheduleByWeekday(schedule: ScheduleEntry[]): [number, ScheduleEntry[]][] {
  return [1, 2, 3, 4, 5, 6, 7].map((weekday) => [
    weekday,
    schedule.filter((entry) => entry.weekday === weekday).sort((a, b) => (minutesOf(a.from) ?? 0) - (minutesOf(b.from) ?? 0)),
  ]);
}
