/**
 * The schedule screen's calls: GET schedule and POST schedule (the whole week at once; weekdays not sent
 * are days off). The API's per-day calls (updateprofileschedule, deleteprofileschedule) are not needed by
 * this form, which always saves the week together.
 */
import { backendApi } from '#lib/api/backend.ts';

/** One weekday (1 Monday … 7 Sunday): its hours (HH:mm, Copenhagen time), or a day off (off, from/to null). */
export type ScheduleDay = { weekday: number; id: number | null; from: string | null; to: string | null; off: boolean };
export type ScheduleAnswer = { days: ScheduleDay[] };

/** A weekday with hours, as the API takes it; weekdays not sent are days off. */
export type ScheduleDayInput = { Weekday: number; From: string; To: string };

const client = backendApi.client;

export const scheduleApi = {
  load: (signal?: AbortSignal) => client.get<ScheduleAnswer>('schedule', signal ? { signal } : {}),
  /** POST schedule: the whole week at once (the form saves every day together). */
  saveWeek: (days: ScheduleDayInput[]) => client.post<ScheduleAnswer>('schedule', { json: { Days: days } }),
};
