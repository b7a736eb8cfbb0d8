import type { Advert } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { getOwnAdvert, publishAdvertChange, updateOwnAdvert } from './own-advert.ts';
import { PROFILE_STATUS } from './statuses.ts';

const DAY = 86_400_000;
/** The longest holiday one can set at a time. */
export const MAX_HOLIDAY_DAYS = 365;

/** The paid periods of an advert that a holiday must not eat. */
export type PaidPeriods = Pick<Advert, 'expirationDate' | 'frontPageBoostUntil' | 'searchBoostUntil'>;

/**
 * The holiday rule (docs/decisions/011): days on holiday are given back. Setting a holiday moves every
 * paid period still running (membership expiration, front-page and search boosts) later by the
 * holiday's length; changing or ending a holiday first takes back what is left of the old one. So the
 * advertiser always gets exactly the time they were away, whether the holiday runs out or ends early.
 */
export function shiftPaidPeriods(periods: PaidPeriods, oldUntil: Date | null, newUntil: Date | null, now: Date): PaidPeriods {
  const remainingOld = oldUntil && oldUntil > now ? oldUntil.getTime() - now.getTime() : 0;
  const added = newUntil && newUntil > now ? newUntil.getTime() - now.getTime() : 0;
  const shift = (date: Date | null): Date | null => {
    if (!date) return null;
    // A period that has run out (counting the old holiday's give-back) stays as it is.
    if (date.getTime() - remainingOld <= now.getTime()) return date;
    return new Date(date.getTime() - remainingOld + added);
  };
  return {
    expirationDate: shift(periods.expirationDate),
    frontPageBoostUntil: shift(periods.frontPageBoostUntil),
    searchBoostUntil: shift(periods.searchBoostUntil),
  };
}

/** The UTC offset of Copenhagen at an instant, in milliseconds. */
function copenhagenOffsetMs(at: Date): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Copenhagen', timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) * 60_000;
}

/** `yyyy-MM-dd` → the start of that day in Copenhagen; an ISO time → that instant. */
export function holidayEndOf(value: string): Date {
  if (value.includes('T')) return new Date(value);
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, day);
  const first = wall - copenhagenOffsetMs(new Date(wall));
  return new Date(wall - copenhagenOffsetMs(new Date(first)));
}

export type HolidayAnswer = { onHoliday: boolean; holidayUntil: string | null; expirationDate: string | null };

function answerOf(advert: Pick<Advert, 'holidayUntil' | 'expirationDate'>, now: Date): HolidayAnswer {
  const on = advert.holidayUntil !== null && advert.holidayUntil > now;
  return { onHoliday: on, holidayUntil: on ? advert.holidayUntil!.toISOString() : null, expirationDate: advert.expirationDate?.toISOString() ?? null };
}

/**
 * Sets or ends the holiday: the paid periods move with it (`shiftPaidPeriods`), the change is audited with
 * before and after, and published (search index, site rebuild).
 */
async function moveHoliday(
  ctx: DomainContext,
  advert: Advert,
  until: Date | null,
  now: Date,
  action: 'advert.holiday.set' | 'advert.holiday.reset',
): Promise<HolidayAnswer> {
  const change = { holidayUntil: until, ...shiftPaidPeriods(advert, advert.holidayUntil, until, now) };
  await updateOwnAdvert(ctx, advert, change);
  await writeAudit(ctx, {
    action,
    targetType: 'advert',
    targetId: advert.id,
    before: { holidayUntil: advert.holidayUntil, expirationDate: advert.expirationDate, frontPageBoostUntil: advert.frontPageBoostUntil, searchBoostUntil: advert.searchBoostUntil },
    after: change,
  });
  await publishAdvertChange(ctx, advert.id, action);
  return answerOf({ ...advert, ...change }, now);
}

/**
 * setprofileholiday: hides an Active advert from the public until a date in the future (at most a year
 * ahead); the paid days are given back (`shiftPaidPeriods`). Setting it again moves the date.
 */
export async function setProfileHoliday(ctx: DomainContext, input: { Until: string }): Promise<HolidayAnswer> {
  const advert = await getOwnAdvert(ctx);
  const now = ctx.now();
  const until = holidayEndOf(input.Until);
  if (Number.isNaN(until.getTime()) || until <= now) {
    throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'Until', message: 'futureDate' }]);
  }
  if (until.getTime() - now.getTime() > MAX_HOLIDAY_DAYS * DAY) {
    throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'Until', message: 'range' }]);
  }
  if (advert.status !== PROFILE_STATUS.Active) throw new AppError('CONFLICT', 'Only an active advert can go on holiday');
  return moveHoliday(ctx, advert, until, now, 'advert.holiday.set');
}

/** resetprofileholidation: back now; what is left of the holiday is taken back from the paid periods. */
export async function resetProfileHoliday(ctx: DomainContext): Promise<HolidayAnswer> {
  const advert = await getOwnAdvert(ctx);
  const now = ctx.now();
  if (advert.holidayUntil === null) return answerOf(advert, now);
  return moveHoliday(ctx, advert, null, now, 'advert.holiday.reset');
}
