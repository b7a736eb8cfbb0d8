/**
 * /support/statistics/ (Administration; issue 18, spec §2 support route statistics/): how the business is
 * doing, per day (last 90 days, GET statisticsperday with statisticsprofilecreated) or per month (last 24
 * months, GET statisticspermonth), switched in the address (`?unit=month`). Every group of figures
 * (STATISTICS_COLUMNS) is a section with small charts (uPlot, ./FigureChart.tsx) read at a glance and, beside
 * them, a table of now (still going on), the period before and the total; every period's numbers in a
 * table below. Whether reports are decided within 7 days is said on top and drawn as a line. "Download CSV"
 * is the same call with ?Format=csv. Below, the DSA transparency report of any period (./TransparencySection.tsx).
 */
import { useMemo, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useStore } from '@nanostores/react';
import { statisticsCsvHref, supportStatisticsApi } from '#lib/api/support-statistics.ts';
import { formatDateTime, isoDayOf } from '#lib/format.ts';
import { PUBLIC_KINDS, STATISTICS_DAYS, STATISTICS_MONTHS, type ProfileCreatedAnswer, type StatisticsAnswer, type StatisticsUnit } from '#lib/schemas/statistics.ts';
import { $locale } from '#lib/stores/locale.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { secondaryButton, smallButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { ScreenShell } from '../screen-data.tsx';
import { numberCell, rowHeading } from './numbers-table.tsx';
import { Table } from '../advert/advert-sections.tsx';
import { FigureChart } from './FigureChart.tsx';
import {
  STATISTICS_GROUPS,
  chartsOf,
  columnsOf,
  formatFigure,
  formatPeriod,
  lastHalfYear,
  sevenDayRule,
  summaryOf,
  type FigureColumn,
  type FigureRow,
  type Locale,
} from './statistics-format.ts';
import { TransparencySection } from './TransparencySection.tsx';

/** What the address holds: the unit and the transparency report's period (absent: the defaults). */
export type StatisticsQuery = { unit: StatisticsUnit; from: string; to: string };

/** The screen's address for a unit and a transparency period (defaults left out). */
export function statisticsHref(query: Partial<StatisticsQuery>): string {
  const params = new URLSearchParams();
  if (query.unit === 'month') params.set('unit', 'month');
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  const text = params.toString();
  return `${supportPath('statistics')}${text ? `?${text}` : ''}`;
}

export default function StatisticsScreen({ search }: SupportScreenProps) {
  const unit: StatisticsUnit = search['unit'] === 'month' ? 'month' : 'day';
  const fallback = lastHalfYear(isoDayOf(new Date()));
  const chosen = { from: search['from'] ?? '', to: search['to'] ?? '' };
  const period = chosen.from || chosen.to ? chosen : fallback;
  return (
    <div className="max-w-6xl">
      <Figures key={unit} unit={unit} chosen={chosen} />
      <TransparencySection key={`${period.from}\n${period.to}`} period={period} hrefOf={(next) => statisticsHref({ unit, ...next })} />
    </div>
  );
}

type Loaded = { figures: StatisticsAnswer; created: ProfileCreatedAnswer | null };

function Figures({ unit, chosen }: { unit: StatisticsUnit; chosen: { from: string; to: string } }) {
  const t = useAppT(supportI18n);
  const locale = useStore($locale) as Locale;
  const { state, reload } = useScreenData<Loaded>(async (signal) => {
    const [figures, created] = await Promise.all([
      supportStatisticsApi.statistics(unit, signal),
      unit === 'day' ? supportStatisticsApi.profileCreated(signal) : Promise.resolve(null),
    ]);
    return { figures, created };
  });
  return (
    <ScreenShell
      id="statistics-heading"
      title={t('screens.statistics')}
      intro={t('statistics.intro')}
      aside={<UnitSwitch t={t} unit={unit} chosen={chosen} />}
      state={state}
      loadError={t('statistics.loadError')}
      onRetry={reload}
    >
      {(loaded) => <FiguresView t={t} locale={locale} unit={unit} loaded={loaded} />}
    </ScreenShell>
  );
}

function UnitSwitch({ t, unit, chosen }: { t: TFunction; unit: StatisticsUnit; chosen: { from: string; to: string } }) {
  return (
    <nav aria-label={t('statistics.unitSwitch')} className="mt-4">
      <ul className="flex flex-wrap gap-2">
        {(['day', 'month'] as const).map((value) => (
          <li key={value}>
            <AppLink
              router={supportRouter}
              href={statisticsHref({ unit: value, ...chosen })}
              aria-current={value === unit ? 'page' : undefined}
              className={`${smallButton} ${value === unit ? 'border-brand-700 bg-brand-50 font-semibold' : ''}`}
            >
              {t(`statistics.units.${value}`, { count: value === 'day' ? STATISTICS_DAYS : STATISTICS_MONTHS })}
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A column with its name in the user's language (report reasons use the names the reports screens use). */
function labelled(t: TFunction, column: FigureColumn): FigureColumn & { label: string } {
  const label = column.key.startsWith('reports.') ? t(`moderation.reportReasons.${column.key.slice('reports.'.length)}`) : t(`statistics.columns.${column.key}`);
  return { ...column, label };
}

function FiguresView({ t, locale, unit, loaded }: { t: TFunction; locale: Locale; unit: StatisticsUnit; loaded: Loaded }) {
  const { figures, created } = loaded;
  const rows = figures.rows as unknown as FigureRow[];
  const createdRows = created?.rows as unknown as FigureRow[] | undefined;
  const groups = useMemo(
    () =>
      STATISTICS_GROUPS.flatMap((group) => {
        const own = { id: group, columns: columnsOf(group).map((column) => labelled(t, column)), rows };
        // The spec's profile-created (adverts created per day by kind) follows the adverts.
        if (group === 'adverts' && createdRows) {
          const byKind = { id: 'createdByKind', columns: PUBLIC_KINDS.map((kind) => ({ key: kind, measure: 'count' as const, label: t(`statistics.columns.public.${kind}`) })), rows: createdRows };
          return [own, byKind];
        }
        return [own];
      }),
    [t, rows, createdRows],
  );
  const rule = sevenDayRule(figures.rows);
  return (
    <div className="mt-6 space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-slate-700" data-generated-at>
          {t('statistics.generated', { time: formatDateTime(figures.generatedAt), period: formatPeriod(figures.partial, unit, locale) })}
        </p>
        <a href={statisticsCsvHref(unit)} download className={secondaryButton} data-statistics-csv>
          {t(`statistics.download.${unit}`)}
        </a>
      </div>
      <SevenDayRule t={t} unit={unit} rule={rule} />
      {groups.map((group) => (
        <GroupSection key={group.id} t={t} locale={locale} unit={unit} id={group.id} columns={group.columns} rows={group.rows} partial={figures.partial} />
      ))}
    </div>
  );
}

/** Green only when something was measured and held; red when not; neutral with nothing to measure. */
const SEVEN_DAY_BOX = { met: 'border-emerald-300 bg-emerald-50', notMet: 'border-red-300 bg-red-50', nothing: 'border-slate-300 bg-white' } as const;
const SEVEN_DAY_BADGE = { met: 'bg-emerald-700 text-white', notMet: 'bg-red-700 text-white', nothing: 'bg-slate-600 text-white' } as const;

function SevenDayRule({ t, unit, rule }: { t: TFunction; unit: StatisticsUnit; rule: ReturnType<typeof sevenDayRule> }) {
  const range = t(`statistics.range.${unit}`, { count: unit === 'day' ? STATISTICS_DAYS : STATISTICS_MONTHS });
  return (
    <section
      aria-labelledby="statistics-seven-days"
      data-seven-day-rule={rule.state}
      className={`rounded-xl border p-4 ${SEVEN_DAY_BOX[rule.state]}`}
    >
      <h2 id="statistics-seven-days" className="text-lg font-semibold text-ink">
        {t('statistics.sevenDays.title')}{' '}
        <span className={`ml-1 rounded px-2 py-0.5 text-sm font-semibold ${SEVEN_DAY_BADGE[rule.state]}`}>{t(`statistics.sevenDays.${rule.state}`)}</span>
      </h2>
      <p className="mt-1 text-sm text-slate-800">{t('statistics.sevenDays.rule')}</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-800">
        <li>
          {rule.decided === 0
            ? t('statistics.sevenDays.noneDecided', { range })
            : t('statistics.sevenDays.decided', { within: rule.within, decided: rule.decided, share: Math.round((rule.share ?? 0) * 100), range })}
        </li>
        <li data-open-over-seven-days={rule.openOver7Days}>{t('statistics.sevenDays.open', { count: rule.openOver7Days })}</li>
      </ul>
    </section>
  );
}

type GroupProps = {
  t: TFunction;
  locale: Locale;
  unit: StatisticsUnit;
  id: string;
  columns: (FigureColumn & { label: string })[];
  rows: FigureRow[];
  partial: string;
};

/** One group: its charts (one per measure) with now / before / total beside them, and every period's numbers below. */
function GroupSection({ t, locale, unit, id, columns, rows, partial }: GroupProps) {
  const title = t(`statistics.groups.${id}.title`);
  const headingId = `statistics-${id}`;
  const charts = useMemo(() => chartsOf(columns) as { measure: FigureColumn['measure']; columns: (FigureColumn & { label: string })[] }[], [columns]);
  const range = t(`statistics.range.${unit}`, { count: unit === 'day' ? STATISTICS_DAYS : STATISTICS_MONTHS });
  return (
    <section aria-labelledby={headingId} data-statistics-group={id} className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id={headingId} className="text-lg font-semibold text-ink">
        {title}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t(`statistics.groups.${id}.about`)}</p>
      {/* The charts and the table beside them, or below them where there is no room for both. */}
      <div className="mt-3 flex flex-wrap items-start gap-x-6 gap-y-2">
        <div className="min-w-0 flex-[1_1_40rem] space-y-4">
          {charts.map((chart) => (
            <FigureChart
              key={chart.measure}
              label={t('statistics.chartLabel', { title, figures: chart.columns.map((column) => column.label).join(', '), range })}
              unit={unit}
              locale={locale}
              measure={chart.measure}
              columns={chart.columns}
              rows={rows}
              periodLabel={t(`statistics.period.${unit}`)}
              partialLabel={t(`statistics.partial.${unit}`)}
              {...(id === 'reportTimes' && chart.measure === 'hours' ? { limitLabel: t('statistics.sevenDays.line') } : {})}
            />
          ))}
        </div>
        <div className="min-w-0 flex-[1_1_30rem]">
          <SummaryTable t={t} locale={locale} unit={unit} title={title} columns={columns} rows={rows} range={range} />
        </div>
      </div>
      <details className="mt-3">
        <summary className="cursor-pointer font-medium text-brand-700">{t(`statistics.numbers.${unit}`)}</summary>
        <Table numbers caption={t(`statistics.perPeriod.${unit}`, { title })} columns={[t(`statistics.period.${unit}`), ...columns.map((column) => column.label)]}>
          {[...rows].reverse().map((row) => (
            <tr key={row.period} data-period={row.period}>
              <th scope="row" className={`${rowHeading} whitespace-nowrap`}>
                {formatPeriod(row.period, unit, locale)}
                {row.period === partial ? <span className="ml-1 text-xs font-normal text-slate-600"> ({t(`statistics.partial.${unit}`)})</span> : null}
              </th>
              {columns.map((column) => (
                <td key={column.key} className={numberCell}>
                  {formatFigure(row[column.key] as number | null, column.measure, locale)}
                </td>
              ))}
            </tr>
          ))}
        </Table>
      </details>
    </section>
  );
}

function SummaryTable({ t, locale, unit, title, columns, rows, range }: { t: TFunction; locale: Locale; unit: StatisticsUnit; title: string; columns: (FigureColumn & { label: string })[]; rows: FigureRow[]; range: string }) {
  const headings = [t('statistics.summary.figure'), t(`statistics.summary.current.${unit}`), t(`statistics.summary.previous.${unit}`), t('statistics.summary.total', { range })];
  const value = (content: ReactNode, name: string) => (
    <td className={numberCell} {...{ [`data-${name}`]: '' }}>
      {content}
    </td>
  );
  return (
    <Table numbers caption={t('statistics.summary.caption', { title })} columns={headings} className="mt-0">
      {columns.map((column) => {
        const summary = summaryOf(rows, column);
        return (
          <tr key={column.key} data-column={column.key}>
            <th scope="row" className={rowHeading}>
              {column.label}
            </th>
            {value(formatFigure(summary.current, column.measure, locale), 'current')}
            {value(formatFigure(summary.previous, column.measure, locale), 'previous')}
            {value(summary.total === null ? '' : formatFigure(summary.total, column.measure, locale), 'total')}
          </tr>
        );
      })}
    </Table>
  );
}
