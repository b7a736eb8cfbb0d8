/**
 * The transparency report on /support/statistics/ (Administration; issue 18): any period, From and To
 * inclusive (default the last full calendar half-year), in the sections of the EU's harmonised template for
 * the Digital Services Act (GET transparencyreport): notices by type and outcome, own-initiative decisions,
 * statements of reasons, appeals and verifications with median handling times, each a table; the same as
 * CSV (?Format=csv). The period is in the address (`?from=&to=`); a bad one is refused at its field, by the
 * schema the call validates with before the call, by the call's field errors after.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import * as v from 'valibot';
import { useStore } from '@nanostores/react';
import { fieldErrorsOf, isApiError } from '#lib/api/errors.ts';
import { supportStatisticsApi, transparencyCsvHref, type TransparencyPeriod } from '#lib/api/support-statistics.ts';
import { dayFieldText, dayFieldValue, formatIsoDay } from '#lib/format.ts';
import { TransparencyQuerySchema, type TransparencyReport } from '#lib/schemas/statistics.ts';
import { $locale } from '#lib/stores/locale.ts';
import { Field, controlClass } from '../../../components/form/Field.tsx';
import { DayInput } from '../../../components/form/DayInput.tsx';
import { fieldText, secondaryButton, smallButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportRouter } from '../routes.ts';
import { numberCell, rowHeading, totalHeading } from './numbers-table.tsx';
import { Table } from '../advert/advert-sections.tsx';
import { formatFigure, type Locale } from './statistics-format.ts';

type FieldErrors = Partial<Record<'From' | 'To', string>>;
type Loaded = { report: TransparencyReport } | { errors: FieldErrors };

/** The field errors of a period by the call's schema, or null when it is good. */
export function periodErrors(period: TransparencyPeriod): FieldErrors | null {
  const result = v.safeParse(TransparencyQuerySchema, { From: period.from, To: period.to });
  if (result.success) return null;
  const errors: FieldErrors = {};
  for (const issue of result.issues) {
    const field = v.getDotPath(issue);
    if ((field === 'From' || field === 'To') && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

function errorsOf(list: { field: string; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const { field, message } of list) {
    const key = field.toLowerCase() === 'from' ? 'From' : field.toLowerCase() === 'to' ? 'To' : null;
    if (key && !errors[key]) errors[key] = message;
  }
  // A refusal of the period as a whole is shown at To.
  if (!errors.From && !errors.To && list[0]) errors.To = list[0].message;
  return errors;
}

export function TransparencySection({ period, hrefOf }: { period: TransparencyPeriod; hrefOf: (period: TransparencyPeriod) => string }) {
  const t = useAppT(supportI18n);
  const locale = useStore($locale) as Locale;
  const { state, reload } = useScreenData<Loaded>(async (signal) => {
    // A period typed into the address goes to the call as it is: its refusals are shown at the fields.
    try {
      return { report: await supportStatisticsApi.transparency(period, signal) };
    } catch (error) {
      if (isApiError(error, 400)) return { errors: errorsOf(fieldErrorsOf(error)) };
      throw error;
    }
  });
  const initialErrors = state.status === 'ready' && 'errors' in state.data ? state.data.errors : {};
  return (
    <section aria-labelledby="transparency-heading" className="mt-12 space-y-4" data-transparency>
      <h2 id="transparency-heading" className="text-2xl font-bold tracking-tight text-ink">
        {t('statistics.transparency.title')}
      </h2>
      <p className="max-w-prose text-slate-700">{t('statistics.transparency.intro')}</p>
      <PeriodForm key={state.status} t={t} period={period} initialErrors={initialErrors} hrefOf={hrefOf} />
      {state.status === 'loading' ? <p className="text-slate-700">{t('app.loading')}</p> : null}
      {state.status === 'error' ? (
        <div>
          <p role="alert" className="text-red-800">
            {t('statistics.transparency.loadError')}
          </p>
          <button type="button" className={`${smallButton} mt-3`} onClick={reload}>
            {t('app.retry')}
          </button>
        </div>
      ) : null}
      {state.status === 'ready' && 'report' in state.data ? <ReportView t={t} locale={locale} report={state.data.report} /> : null}
    </section>
  );
}

function PeriodForm({ t, period, initialErrors, hrefOf }: { t: TFunction; period: TransparencyPeriod; initialErrors: FieldErrors; hrefOf: (period: TransparencyPeriod) => string }) {
  // Shown as typed (dd-mm-yyyy); the address carries the days as yyyy-MM-dd.
  const [values, setValues] = useState({ from: dayFieldText(period.from), to: dayFieldText(period.to) });
  const [errors, setErrors] = useState<FieldErrors>(initialErrors);
  function submit(event: FormEvent) {
    event.preventDefault();
    const wrong = periodErrors(values);
    if (wrong) {
      setErrors(wrong);
      return;
    }
    setErrors({});
    supportRouter.open(hrefOf({ from: dayFieldValue(values.from), to: dayFieldValue(values.to) }));
  }
  return (
    <form noValidate onSubmit={submit} aria-label={t('statistics.transparency.period')} className="flex flex-wrap items-start gap-4 rounded-xl border border-slate-200 bg-white p-4">
      {(['from', 'to'] as const).map((key) => {
        const field = key === 'from' ? 'From' : 'To';
        const error = fieldText(t, errors[field]);
        return (
          <Field key={key} id={`transparency-${key}`} label={t(`statistics.transparency.${key}`)} error={error}>
            {(control) => (
              <DayInput
                {...control}
                placeholder={t('dayField.placeholder')}
                value={values[key]}
                onChange={(e) => setValues({ ...values, [key]: e.target.value })}
                className={controlClass(Boolean(error), 'h-11')}
              />
            )}
          </Field>
        );
      })}
      <button type="submit" className={`${secondaryButton} mt-6`}>
        {t('statistics.transparency.show')}
      </button>
    </form>
  );
}

function ReportView({ t, locale, report }: { t: TFunction; locale: Locale; report: TransparencyReport }) {
  const count = (value: number) => formatFigure(value, 'count', locale);
  const hours = (value: number | null) => formatFigure(value, 'hours', locale);
  const decision = (key: string) => t(`statistics.decisions.${key}`);
  const range = { from: formatIsoDay(report.from), to: formatIsoDay(report.to) };
  return (
    <div className="space-y-8" data-transparency-report={`${report.from}/${report.to}`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 className="text-xl font-semibold text-ink">{t('statistics.transparency.reportFor', range)}</h3>
        <a href={transparencyCsvHref({ from: report.from, to: report.to })} download className={secondaryButton} data-transparency-csv>
          {t('statistics.transparency.download')}
        </a>
      </div>

      <ReportPart title={t('statistics.transparency.notices.title')} about={t('statistics.transparency.notices.about')}>
        <Table numbers
          caption={t('statistics.transparency.notices.caption', range)}
          columns={(['type', 'received', 'actionTaken', 'noAction', 'open', 'medianHours'] as const).map((column) => t(`statistics.transparency.notices.${column}`))}
        >
          {[...report.notices.byType.map((row) => ({ ...row, label: t(`moderation.reportReasons.${row.type}`), key: row.type })), { ...report.notices.total, label: t('statistics.transparency.total'), key: 'total' }].map(
            (row) => (
              <tr key={row.key} data-notice={row.key} className={row.key === 'total' ? 'bg-slate-50 font-semibold' : undefined}>
                <th scope="row" className={row.key === 'total' ? totalHeading : rowHeading}>
                  {row.label}
                </th>
                <td className={numberCell} data-received>
                  {count(row.received)}
                </td>
                <td className={numberCell}>{count(row.actionTaken)}</td>
                <td className={numberCell}>{count(row.noAction)}</td>
                <td className={numberCell}>{count(row.open)}</td>
                <td className={numberCell}>{hours(row.medianHours)}</td>
              </tr>
            ),
          )}
        </Table>
      </ReportPart>

      {(['ownInitiative', 'statements'] as const).map((part) => (
        <ReportPart key={part} title={t(`statistics.transparency.${part}.title`)} about={t(`statistics.transparency.${part}.about`)}>
          <Table numbers className="mt-4 max-w-2xl" caption={t(`statistics.transparency.${part}.caption`, range)} columns={[t('statistics.transparency.decision'), t('statistics.transparency.count')]}>
            {report[part].byDecision.map((row) => (
              <tr key={row.decision} data-decision={row.decision}>
                <th scope="row" className={rowHeading}>
                  {decision(row.decision)}
                </th>
                <td className={numberCell}>{count(row.count)}</td>
              </tr>
            ))}
            <tr className="bg-slate-50 font-semibold" data-decision="total">
              <th scope="row" className={totalHeading}>
                {t('statistics.transparency.total')}
              </th>
              <td className={numberCell}>{count(report[part].total)}</td>
            </tr>
          </Table>
        </ReportPart>
      ))}

      <ReportPart title={t('statistics.transparency.appeals.title')} about={t('statistics.transparency.appeals.about')}>
        <FigureTable
          caption={t('statistics.transparency.appeals.caption', range)}
          headings={[t('statistics.transparency.figure'), t('statistics.transparency.value')]}
          rows={[
            ['received', count(report.appeals.received)],
            ['upheld', count(report.appeals.upheld)],
            ['reversed', count(report.appeals.reversed)],
            ['pending', count(report.appeals.pending)],
            ['medianHours', hours(report.appeals.medianHours)],
          ].map(([key, value]) => [key!, t(`statistics.transparency.appeals.${key}`), value!])}
        />
      </ReportPart>

      <ReportPart title={t('statistics.transparency.verifications.title')} about={t('statistics.transparency.verifications.about')}>
        <FigureTable
          caption={t('statistics.transparency.verifications.caption', range)}
          headings={[t('statistics.transparency.figure'), t('statistics.transparency.value')]}
          rows={[
            ['decided', count(report.verifications.decided)],
            ['validated', count(report.verifications.validated)],
            ['declined', count(report.verifications.declined)],
            ['rejected', count(report.verifications.rejected)],
            ['medianHours', hours(report.verifications.medianHours)],
          ].map(([key, value]) => [key!, t(`statistics.transparency.verifications.${key}`), value!])}
        />
      </ReportPart>
    </div>
  );
}

function ReportPart({ title, about, children }: { title: string; about: string; children: ReactNode }) {
  return (
    <div>
      <h4 className="text-lg font-semibold text-ink">{title}</h4>
      <p className="mt-1 max-w-prose text-sm text-slate-700">{about}</p>
      {children}
    </div>
  );
}

/** A table of named figures: one row each. */
function FigureTable({ caption, headings, rows }: { caption: string; headings: string[]; rows: [string, string, string][] }) {
  return (
    <Table numbers className="mt-4 max-w-2xl" caption={caption} columns={headings}>
      {rows.map(([key, label, value]) => (
        <tr key={key} data-figure={key}>
          <th scope="row" className={rowHeading}>
            {label}
          </th>
          <td className={numberCell}>{value}</td>
        </tr>
      ))}
    </Table>
  );
}
