/**
 * schedule/: the opening hours of each weekday (from/to, Copenhagen time; a "to" before "from" runs past
 * midnight) or a day off, saved together for the whole week (POST schedule). A preview says whether the
 * advert would show "open now" with these hours, computed with src/lib/schedule.ts like the advert page.
 */
import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import * as v from 'valibot';
import { isOpenAt, type ScheduleEntry } from '#lib/schedule.ts';
import { UpdateProfileScheduleSchema } from '#lib/schemas/advert-edit.ts';
import { toast } from '#lib/stores/toasts.ts';
import { FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import { fieldText, noticeText, primaryButton } from '../../shared/form-text.ts';
import { scheduleApi, type ScheduleAnswer } from './api.ts';

type DayValues = { Weekday: number; DayOff: boolean; From: string; To: string };
type WeekValues = { Days: DayValues[] };

/** The times of an open day follow the API's own rules (updateprofileschedule); a day off needs none. */
const { From: time, To: toTime } = UpdateProfileScheduleSchema.pipe[0].entries;
const WeekSchema = v.object({
  Days: v.array(
    v.variant('DayOff', [
      v.object({ Weekday: v.number(), DayOff: v.literal(true), From: v.string(), To: v.string() }),
      v.pipe(
        v.object({ Weekday: v.number(), DayOff: v.literal(false), From: time, To: toTime }),
        v.forward(
          v.check((day) => day.From !== day.To, 'time'),
          ['To'],
        ),
      ),
    ]),
  ),
});
type WeekOutput = v.InferOutput<typeof WeekSchema>;

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

const valuesOf = (answer: ScheduleAnswer): WeekValues => ({
  Days: WEEKDAYS.map((weekday) => {
    const day = answer.days.find((d) => d.weekday === weekday);
    return { Weekday: weekday, DayOff: day?.off ?? true, From: day?.from?.slice(0, 5) ?? '', To: day?.to?.slice(0, 5) ?? '' };
  }),
});

export default function ScheduleScreen() {
  const t = useAppT(backendI18n);
  const { state, reload } = useScreenData(scheduleApi.load);
  return (
    <ScreenShell id="schedule-screen-heading" title={t('screens.schedule')} intro={t('schedule.intro')} state={state} loadError={t('schedule.loadError')} onRetry={reload}>
      {(answer) => <WeekForm answer={answer} />}
    </ScreenShell>
  );
}

function WeekForm({ answer }: { answer: ScheduleAnswer }) {
  const t = useAppT(backendI18n);
  const form = useApiForm<WeekValues, WeekOutput>({
    schema: WeekSchema as unknown as v.GenericSchema<WeekValues, WeekOutput>,
    defaultValues: valuesOf(answer),
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const open = values.Days.filter((day) => !day.DayOff).map(({ Weekday, From, To }) => ({ Weekday, From, To }));
      const saved = await scheduleApi.saveWeek(open);
      form.reset(valuesOf(saved));
      toast({ title: t('form.saved'), variant: 'success' });
    },
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const days = useWatch({ control: form.control, name: 'Days' });

  return (
    <form noValidate onSubmit={form.submit} className="mt-6 space-y-6">
      <FormNotice message={noticeText(t, form.notice)} />
      <div className="space-y-3">
        {WEEKDAYS.map((weekday, index) => {
          const dayOff = days[index]?.DayOff ?? true;
          const dayErrors = errors.Days?.[index];
          const fromError = fieldText(t, dayErrors?.From?.message);
          const toError = fieldText(t, dayErrors?.To?.message);
          const name = t(`common:advert.weekday${weekday}`);
          return (
            <fieldset key={weekday} className="rounded-xl border border-slate-200 bg-white p-4" data-weekday={weekday}>
              <legend className="px-1 font-semibold text-ink">{name}</legend>
              <div className="flex flex-wrap items-end gap-4">
                <div className="flex min-h-11 items-center gap-3">
                  <input type="checkbox" id={`day-${weekday}-off`} className="size-5" {...form.register(`Days.${index}.DayOff`)} />
                  <label htmlFor={`day-${weekday}-off`} className="text-sm text-ink">
                    {t('schedule.dayOff')}
                  </label>
                </div>
                {dayOff ? null : (
                  <>
                    <div>
                      <label htmlFor={`day-${weekday}-from`} className="block text-sm font-semibold text-ink">
                        {t('schedule.from')}
                      </label>
                      <input
                        id={`day-${weekday}-from`}
                        type="time"
                        aria-invalid={fromError ? 'true' : 'false'}
                        {...(fromError ? { 'aria-describedby': `day-${weekday}-from-error` } : {})}
                        className={controlClass(!!fromError, 'min-h-11 w-36')}
                        {...form.register(`Days.${index}.From`)}
                      />
                    </div>
                    <div>
                      <label htmlFor={`day-${weekday}-to`} className="block text-sm font-semibold text-ink">
                        {t('schedule.to')}
                      </label>
                      <input
                        id={`day-${weekday}-to`}
                        type="time"
                        aria-invalid={toError ? 'true' : 'false'}
                        {...(toError ? { 'aria-describedby': `day-${weekday}-to-error` } : {})}
                        className={controlClass(!!toError, 'min-h-11 w-36')}
                        {...form.register(`Days.${index}.To`)}
                      />
                    </div>
                  </>
                )}
              </div>
              {!dayOff && fromError ? (
                <p id={`day-${weekday}-from-error`} className="mt-1 text-sm text-red-700">
                  {t('schedule.from')}: {fromError}
                </p>
              ) : null}
              {!dayOff && toError ? (
                <p id={`day-${weekday}-to-error`} className="mt-1 text-sm text-red-700">
                  {t('schedule.to')}: {toError}
                </p>
              ) : null}
            </fieldset>
          );
        })}
      </div>
      <p className="max-w-prose text-sm text-slate-600">{t('schedule.midnightHint')}</p>
      <OpenNowPreview days={days} />
      <button type="submit" className={primaryButton} disabled={isSubmitting}>
        {isSubmitting ? t('form.saving') : t('form.save')}
      </button>
    </form>
  );
}

/** "Open now" as the advert page would show it with the hours on the screen (saved or not). */
function OpenNowPreview({ days }: { days: DayValues[] }) {
  const t = useAppT(backendI18n);
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const entries: ScheduleEntry[] = days.filter((day) => !day.DayOff && day.From && day.To).map((day) => ({ weekday: day.Weekday, from: day.From, to: day.To }));
  const open = isOpenAt(entries, now);
  return (
    <section aria-labelledby="open-now-title" className="rounded-xl border border-slate-200 bg-slate-50 p-4">
      <h2 id="open-now-title" className="font-semibold text-ink">
        {t('schedule.previewTitle')}
      </h2>
      <p className="mt-2 flex flex-wrap items-center gap-3 text-sm text-slate-700">
        <span
          data-testid="open-now"
          className={`rounded-full px-3 py-1 font-medium ${open ? 'bg-emerald-700 text-white' : 'bg-slate-200 text-slate-800'}`}
        >
          {open ? t('schedule.openNow') : t('schedule.closedNow')}
        </span>
        <span>{t('schedule.previewHelp')}</span>
      </p>
    </section>
  );
}
