import { and, asc, eq } from 'drizzle-orm';
import type { ScheduleInput } from '#lib/schemas/advert-edit.ts';
import { scheduleEntries } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { getOwnAdvert, publishAdvertChange } from './own-advert.ts';

/** One weekday (1 Monday … 7 Sunday): its hours, or a day off (from/to null). */
export type ScheduleDayView = { weekday: number; id: number | null; from: string | null; to: string | null; off: boolean };
export type ScheduleAnswer = { days: ScheduleDayView[] };

async function answerOf(ctx: DomainContext, advertId: number): Promise<ScheduleAnswer> {
  const rows = await ctx.db.select().from(scheduleEntries).where(eq(scheduleEntries.advertId, advertId)).orderBy(asc(scheduleEntries.weekday));
  const byDay = new Map(rows.map((row) => [row.weekday, row]));
  return {
    days: [1, 2, 3, 4, 5, 6, 7].map((weekday) => {
      const row = byDay.get(weekday);
      return { weekday, id: row?.id ?? null, from: row?.fromTime ?? null, to: row?.toTime ?? null, off: !row };
    }),
  };
}

/** schedule (GET): the seven weekdays with their hours or off. */
export async function getSchedule(ctx: DomainContext): Promise<ScheduleAnswer> {
  const advert = await getOwnAdvert(ctx);
  return answerOf(ctx, advert.id);
}

/** schedule (POST): the whole week at once; weekdays not given are days off. */
export async function saveSchedule(ctx: DomainContext, input: ScheduleInput): Promise<ScheduleAnswer> {
  const advert = await getOwnAdvert(ctx);
  const before = await answerOf(ctx, advert.id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(scheduleEntries).where(eq(scheduleEntries.advertId, advert.id));
    if (input.Days.length) {
      await tx.insert(scheduleEntries).values(input.Days.map((day) => ({ advertId: advert.id, weekday: day.Weekday, fromTime: day.From, toTime: day.To })));
    }
  });
  const after = await answerOf(ctx, advert.id);
  await writeAudit(ctx, { action: 'advert.schedule.save', targetType: 'advert', targetId: advert.id, before: before.days, after: after.days });
  await publishAdvertChange(ctx, advert.id, 'advert.schedule.save');
  return after;
}

/** updateprofileschedule: one weekday's hours (added, or changed when the day had hours). */
export async function updateProfileSchedule(ctx: DomainContext, input: { Weekday: number; From: string; To: string }): Promise<ScheduleAnswer> {
  const advert = await getOwnAdvert(ctx);
  const [before] = await ctx.db
    .select()
    .from(scheduleEntries)
    .where(and(eq(scheduleEntries.advertId, advert.id), eq(scheduleEntries.weekday, input.Weekday)));
  await ctx.db
    .insert(scheduleEntries)
    .values({ advertId: advert.id, weekday: input.Weekday, fromTime: input.From, toTime: input.To })
    .onConflictDoUpdate({ target: [scheduleEntries.advertId, scheduleEntries.weekday], set: { fromTime: input.From, toTime: input.To } });
  await writeAudit(ctx, {
    action: 'advert.schedule.update_day',
    targetType: 'advert',
    targetId: advert.id,
    before: before ?? null,
    after: { weekday: input.Weekday, from: input.From, to: input.To },
  });
  await publishAdvertChange(ctx, advert.id, 'advert.schedule.update_day');
  return answerOf(ctx, advert.id);
}

/** deleteprofileschedule: a day off, by schedule entry id (404 if not the advert's) or by weekday. */
export async function deleteProfileSchedule(ctx: DomainContext, input: { Id?: number | undefined; Weekday?: number | undefined }): Promise<ScheduleAnswer> {
  const advert = await getOwnAdvert(ctx);
  const condition = input.Id !== undefined ? eq(scheduleEntries.id, input.Id) : eq(scheduleEntries.weekday, input.Weekday!);
  const deleted = await ctx.db
    .delete(scheduleEntries)
    .where(and(eq(scheduleEntries.advertId, advert.id), condition))
    .returning();
  if (input.Id !== undefined && deleted.length === 0) throw notFound('Schedule entry');
  if (deleted.length) {
    await writeAudit(ctx, { action: 'advert.schedule.delete_day', targetType: 'advert', targetId: advert.id, before: deleted[0] });
    await publishAdvertChange(ctx, advert.id, 'advert.schedule.delete_day');
  }
  return answerOf(ctx, advert.id);
}
