/**
 * The statistics screen's pure helpers (issue 18): how a figure is written (a count, DKK from øre, hours, a
 * share as %; in the user's language), how a period is named (days dd-MM-yyyy, months by name; dd-MM and
 * MM-yyyy on a chart's axis), which columns go in which group and chart, the figures beside a chart (the
 * current period, the one before and the total where adding up means something), whether reports are
 * decided within 7 days, and the transparency report's default period (the last full calendar half-year).
 */
import { formatDkk, formatIsoDay } from '#lib/format.ts';
import { STATISTICS_COLUMNS, type StatisticsColumn, type StatisticsGroup, type StatisticsMeasure, type StatisticsRow, type StatisticsUnit } from '#lib/schemas/statistics.ts';

export type Locale = 'da' | 'en';

/** A column of a group's table and chart: the key (its value in a row, its name in the catalog) and how it is shown. */
export type FigureColumn = { key: string; measure: StatisticsMeasure };

/** A row of figures: the period and a value per column (null where it cannot be known). */
export type FigureRow = { period: string } & Record<string, number | string | null>;

const languageTag = (locale: Locale) => (locale === 'da' ? 'da-DK' : 'en-GB');

/** The groups in the order of the screen (their first column's place). */
export const STATISTICS_GROUPS: readonly StatisticsGroup[] = [...new Set(STATISTICS_COLUMNS.map((column) => column.group))];

/** A group's columns, in the order of the screen and the CSV. */
export const columnsOf = (group: StatisticsGroup): FigureColumn[] =>
  STATISTICS_COLUMNS.filter((column) => column.group === group).map(({ key, measure }) => ({ key, measure }));

/** A group's charts: one per measure (counts, money, hours and shares are never drawn on one axis), in the order of their first column. */
export function chartsOf(columns: FigureColumn[]): { measure: StatisticsMeasure; columns: FigureColumn[] }[] {
  const charts: { measure: StatisticsMeasure; columns: FigureColumn[] }[] = [];
  for (const column of columns) {
    const chart = charts.find((c) => c.measure === column.measure);
    if (chart) chart.columns.push(column);
    else charts.push({ measure: column.measure, columns: [column] });
  }
  return charts;
}

/**
 * Whether a column's values of several periods add up to something: counts and money that happen in a period
 * do; a state at the end of a period (public adverts, reports open over 7 days), hours and shares do not.
 */
export function addsUp(column: FigureColumn): boolean {
  if (column.measure !== 'count' && column.measure !== 'ore') return false;
  return !column.key.startsWith('public.') && column.key !== 'reportsOpenOver7Days';
}

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: Locale, fractionDigits: number): Intl.NumberFormat {
  const key = `${locale}:${fractionDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(languageTag(locale), { maximumFractionDigits: fractionDigits, minimumFractionDigits: 0 });
    numberFormats.set(key, format);
  }
  return format;
}

/** The mark of "nothing to show" (a median of nothing, public adverts before they were first counted). */
export const NO_VALUE = '–';

/** A figure as the tables write it: 1.234 / 1,234; 1.234,00 DKK; 12,5 t / 12.5 h; 87 %. */
export function formatFigure(value: number | null | undefined, measure: StatisticsMeasure, locale: Locale): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
  switch (measure) {
    case 'ore':
      return formatDkk(value);
    case 'hours':
      return `${numberFormat(locale, 1).format(value)} ${locale === 'da' ? 't' : 'h'}`;
    case 'share':
      return `${numberFormat(locale, 0).format(Math.round(value * 100))} %`;
    default:
      return numberFormat(locale, 0).format(value);
  }
}

/** A figure on a chart's axis: short (money in whole kroner). */
export function formatTick(value: number, measure: StatisticsMeasure, locale: Locale): string {
  switch (measure) {
    case 'ore':
      return `${numberFormat(locale, 0).format(Math.round(value / 100))} kr`;
    case 'hours':
      return `${numberFormat(locale, 0).format(value)} ${locale === 'da' ? 't' : 'h'}`;
    case 'share':
      return `${numberFormat(locale, 0).format(Math.round(value * 100))} %`;
    default:
      return Number.isInteger(value) ? numberFormat(locale, 0).format(value) : '';
  }
}

/** A period as the tables name it: a day dd-MM-yyyy, a month by its name ("november 2026", "November 2026"). */
export function formatPeriod(period: string, unit: StatisticsUnit, locale: Locale): string {
  if (unit === 'day') return formatIsoDay(period);
  const [year, month] = period.split('-').map(Number);
  if (!year || !month) return period;
  return new Intl.DateTimeFormat(languageTag(locale), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(year, month - 1, 1));
}

/** A period on a chart's axis: a day dd-MM, a month MM-yyyy. */
export function shortPeriod(period: string, unit: StatisticsUnit): string {
  const [year, month, day] = period.split('-');
  return unit === 'day' ? `${day}-${month}` : `${month}-${year}`;
}

/** A number of a row (null when missing or not a number). */
export function valueOf(row: FigureRow | undefined, key: string): number | null {
  const value = row?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** What a group shows beside its chart for one column: now (still going on), the period before, and the whole range's total where it adds up. */
export type FigureSummary = { current: number | null; previous: number | null; total: number | null };

export function summaryOf(rows: FigureRow[], column: FigureColumn): FigureSummary {
  const current = valueOf(rows.at(-1), column.key);
  const previous = rows.length > 1 ? valueOf(rows.at(-2), column.key) : null;
  const total = addsUp(column) ? rows.reduce((sum, row) => sum + (valueOf(row, column.key) ?? 0), 0) : null;
  return { current, previous, total };
}

/**
 * Whether reports are decided within 7 days (the card networks' rule for adult content) over the rows:
 * of the reports decided, how many within 7 days of being received, and how many are open over 7 days now.
 */
/**
 * The card schemes' 7-day rule over the shown periods: `met` (every decided report within 7 days, none
 * open longer), `notMet`, or `nothing` when no report was decided and none is open too long (nothing to
 * measure: not shown as met, issue 31 item 8).
 */
export type SevenDayRule = { decided: number; within: number; share: number | null; openOver7Days: number; state: 'met' | 'notMet' | 'nothing' };

export function sevenDayRule(rows: Pick<StatisticsRow, 'reportsDecided' | 'reportsWithin7DaysShare' | 'reportsOpenOver7Days'>[]): SevenDayRule {
  let decided = 0;
  let within = 0;
  for (const row of rows) {
    const count = row.reportsDecided ?? 0;
    if (count === 0) continue;
    decided += count;
    within += Math.round((row.reportsWithin7DaysShare ?? 0) * count);
  }
  const openOver7Days = rows.at(-1)?.reportsOpenOver7Days ?? 0;
  const state = openOver7Days > 0 || within < decided ? 'notMet' : decided === 0 ? 'nothing' : 'met';
  return { decided, within, share: decided === 0 ? null : within / decided, openOver7Days, state };
}

/** 7 days in hours: the line on the chart of the time from report to decision. */
export const SEVEN_DAYS_HOURS = 7 * 24;

/** The last full calendar half-year before a day (yyyy-MM-dd): January to June, or July to December. */
export function lastHalfYear(today: string): { from: string; to: string } {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  return month <= 6 ? { from: `${year - 1}-07-01`, to: `${year - 1}-12-31` } : { from: `${year}-01-01`, to: `${year}-06-30` };
}

/** The catalog key of a column's name (`statistics.columns.*`). */
export const columnLabelKey = (key: StatisticsColumn | string) => `statistics.columns.${key}`;
