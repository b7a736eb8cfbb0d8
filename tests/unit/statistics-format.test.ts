/**
 * The statistics screen's helpers (src/dashboards/support/statistics/statistics-format.ts): figures in both
 * languages, periods, the charts of a group, the figures beside a chart, the 7-day rule and the
 * transparency report's default period.
 */
import { describe, expect, it } from 'vitest';
import {
  STATISTICS_GROUPS,
  addsUp,
  chartsOf,
  columnsOf,
  formatFigure,
  formatPeriod,
  formatTick,
  lastHalfYear,
  sevenDayRule,
  shortPeriod,
  summaryOf,
} from '../../src/dashboards/support/statistics/statistics-format.ts';
import { STATISTICS_COLUMNS } from '#lib/schemas/statistics.ts';

describe('statistics figures', () => {
  it('writes counts, money, hours and shares in the user language', () => {
    expect(formatFigure(12345, 'count', 'da')).toBe('12.345');
    expect(formatFigure(12345, 'count', 'en')).toBe('12,345');
    expect(formatFigure(123400, 'ore', 'da')).toBe('1.234,00 DKK');
    expect(formatFigure(123400, 'ore', 'en')).toBe('1.234,00 DKK');
    expect(formatFigure(12.25, 'hours', 'da')).toBe('12,3 t');
    expect(formatFigure(12.25, 'hours', 'en')).toBe('12.3 h');
    expect(formatFigure(0.876, 'share', 'da')).toBe('88 %');
    expect(formatFigure(null, 'hours', 'en')).toBe('–');
    expect(formatFigure(0, 'count', 'da')).toBe('0');
  });

  it('writes axis ticks short: money in whole kroner, no half counts', () => {
    expect(formatTick(1_234_500, 'ore', 'da')).toBe('12.345 kr');
    expect(formatTick(168, 'hours', 'en')).toBe('168 h');
    expect(formatTick(0.5, 'share', 'da')).toBe('50 %');
    expect(formatTick(2.5, 'count', 'da')).toBe('');
    expect(formatTick(3, 'count', 'da')).toBe('3');
  });

  it('names days dd-MM-yyyy and months by name; dd-MM and MM-yyyy on an axis', () => {
    expect(formatPeriod('2026-11-03', 'day', 'da')).toBe('03-11-2026');
    expect(formatPeriod('2026-11', 'month', 'da')).toBe('november 2026');
    expect(formatPeriod('2026-01', 'month', 'en')).toBe('January 2026');
    expect(shortPeriod('2026-11-03', 'day')).toBe('03-11');
    expect(shortPeriod('2026-11', 'month')).toBe('11-2026');
  });
});

describe('statistics groups', () => {
  it('shows every column in exactly one group', () => {
    const shown = STATISTICS_GROUPS.flatMap((group) => columnsOf(group).map((column) => column.key));
    expect(shown.sort()).toEqual(STATISTICS_COLUMNS.map((column) => column.key).sort());
    expect(new Set(shown).size).toBe(shown.length);
  });

  it('draws one chart per measure of a group, never counts and hours on one axis', () => {
    const charts = chartsOf(columnsOf('reportTimes'));
    expect(charts.map((chart) => [chart.measure, chart.columns.map((column) => column.key)])).toEqual([
      ['hours', ['reportHoursMedian', 'reportHoursP90']],
      ['share', ['reportsWithin7DaysShare']],
      ['count', ['reportsOpenOver7Days']],
    ]);
    expect(chartsOf(columnsOf('adverts'))).toHaveLength(1);
  });

  it('adds up what happens in a period, not states, hours or shares', () => {
    expect(addsUp({ key: 'advertsCreated', measure: 'count' })).toBe(true);
    expect(addsUp({ key: 'netOre.membership', measure: 'ore' })).toBe(true);
    expect(addsUp({ key: 'public.escort', measure: 'count' })).toBe(false);
    expect(addsUp({ key: 'reportsOpenOver7Days', measure: 'count' })).toBe(false);
    expect(addsUp({ key: 'reportHoursMedian', measure: 'hours' })).toBe(false);
  });

  it('puts now, the period before and the total beside a chart', () => {
    const rows = [
      { period: '2026-11-24', advertsCreated: 2, reportHoursMedian: null },
      { period: '2026-11-25', advertsCreated: 3, reportHoursMedian: 5 },
      { period: '2026-11-26', advertsCreated: 1, reportHoursMedian: 7 },
    ];
    expect(summaryOf(rows, { key: 'advertsCreated', measure: 'count' })).toEqual({ current: 1, previous: 3, total: 6 });
    expect(summaryOf(rows, { key: 'reportHoursMedian', measure: 'hours' })).toEqual({ current: 7, previous: 5, total: null });
    expect(summaryOf(rows.slice(0, 1), { key: 'advertsCreated', measure: 'count' })).toEqual({ current: 2, previous: null, total: 2 });
  });
});

describe('the 7-day rule', () => {
  it('is met when every report decided was decided within 7 days and none is open longer', () => {
    const rows = [
      { reportsDecided: 4, reportsWithin7DaysShare: 1, reportsOpenOver7Days: 0 },
      { reportsDecided: 0, reportsWithin7DaysShare: null, reportsOpenOver7Days: 0 },
      { reportsDecided: 2, reportsWithin7DaysShare: 1, reportsOpenOver7Days: 0 },
    ];
    expect(sevenDayRule(rows)).toEqual({ decided: 6, within: 6, share: 1, openOver7Days: 0, state: 'met' });
  });

  it('is not met when a report took longer, or one is open over 7 days now', () => {
    expect(sevenDayRule([{ reportsDecided: 4, reportsWithin7DaysShare: 0.75, reportsOpenOver7Days: 0 }])).toMatchObject({ decided: 4, within: 3, state: 'notMet' });
    expect(sevenDayRule([{ reportsDecided: 0, reportsWithin7DaysShare: null, reportsOpenOver7Days: 2 }])).toEqual({ decided: 0, within: 0, share: null, openOver7Days: 2, state: 'notMet' });
    // Nothing decided and nothing open too long: nothing to measure, never shown as met (issue 31, item 8).
    expect(sevenDayRule([])).toMatchObject({ state: 'nothing', share: null });
    expect(sevenDayRule([{ reportsDecided: 0, reportsWithin7DaysShare: null, reportsOpenOver7Days: 0 }])).toMatchObject({ state: 'nothing' });
  });
});

describe('the transparency report default period', () => {
  it('is the last full calendar half-year', () => {
    expect(lastHalfYear('2026-11-26')).toEqual({ from: '2026-01-01', to: '2026-06-30' });
    expect(lastHalfYear('2026-07-01')).toEqual({ from: '2026-01-01', to: '2026-06-30' });
    expect(lastHalfYear('2026-06-30')).toEqual({ from: '2025-07-01', to: '2025-12-31' });
    expect(lastHalfYear('2027-01-01')).toEqual({ from: '2026-07-01', to: '2026-12-31' });
  });
});
