/**
 * Calls of Administration's statistics screen (/api/support/statisticsperday, statisticspermonth,
 * statisticsprofilecreated, transparencyreport; issue 18) made from the browser, and the addresses of their
 * CSV downloads (the same calls with ?Format=csv: plain links, the session cookie goes with them).
 */
import { createApiClient, type ClientOptions } from './client.ts';
import type { ProfileCreatedAnswer, StatisticsAnswer, StatisticsUnit, TransparencyReport } from '../schemas/statistics.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** The call of each unit's figures. */
export const STATISTICS_CALLS: Record<StatisticsUnit, 'statisticsperday' | 'statisticspermonth'> = {
  day: 'statisticsperday',
  month: 'statisticspermonth',
};

export type TransparencyPeriod = { from: string; to: string };

export function createSupportStatisticsApi(options: ClientOptions = {}) {
  const client = createApiClient('support', options);
  return {
    /** statisticsperday (last 90 days) or statisticspermonth (last 24 months), oldest first, the current period last. */
    statistics: (unit: StatisticsUnit, signal?: AbortSignal) => client.get<StatisticsAnswer>(STATISTICS_CALLS[unit], withSignal(signal)),
    /** statisticsprofilecreated: adverts created per day, by kind. */
    profileCreated: (signal?: AbortSignal) => client.get<ProfileCreatedAnswer>('statisticsprofilecreated', withSignal(signal)),
    /** transparencyreport: the DSA transparency report of a period (From and To inclusive, yyyy-MM-dd). */
    transparency: (period: TransparencyPeriod, signal?: AbortSignal) =>
      client.get<TransparencyReport>('transparencyreport', { searchParams: { From: period.from, To: period.to }, ...withSignal(signal) }),
  };
}

export const supportStatisticsApi = createSupportStatisticsApi();

/** The CSV download of a unit's figures. */
export const statisticsCsvHref = (unit: StatisticsUnit): string => `/api/support/${STATISTICS_CALLS[unit]}?Format=csv`;

/** The CSV download of the transparency report of a period. */
export const transparencyCsvHref = (period: TransparencyPeriod): string =>
  `/api/support/transparencyreport?${new URLSearchParams({ From: period.from, To: period.to, Format: 'csv' }).toString()}`;
