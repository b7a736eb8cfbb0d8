import * as v from 'valibot';
import { REPORT_REASONS, type ReportReason } from './report-advert.ts';
import { STATEMENT_DECISIONS, type StatementDecision } from './moderation.ts';
import { typedDay } from './query-values.ts';

/**
 * Administration's figures (issue 18; spec §2 support route statistics/, spec §6 support API "statistics
 * per day, per month, profile-created") and the transparency report in the shape of the EU's harmonised
 * template for the Digital Services Act. Every figure is computed from the records themselves
 * (src/server/domain/statistics/), never kept twice; days are Copenhagen days.
 */

/** How the figures are grouped: by Copenhagen day (last 90 days) or by calendar month (last 24 months). */
export const STATISTICS_UNITS = ['day', 'month'] as const;
export type StatisticsUnit = (typeof STATISTICS_UNITS)[number];
export const STATISTICS_DAYS = 90;
export const STATISTICS_MONTHS = 24;

/** What a column counts, which says how the screen shows it: a count, money in øre, hours, a share 0..1. */
export type StatisticsMeasure = 'count' | 'ore' | 'hours' | 'share';

/** The advert kinds as the public site lists them. */
export const PUBLIC_KINDS = ['escort', 'transEscort', 'thaiMassage'] as const;
export type PublicKind = (typeof PUBLIC_KINDS)[number];

/** Products as orders record them: 1 Membership, 2 FrontpageBoost, 3 SearchBoost. */
export const STATISTICS_PRODUCTS = ['membership', 'frontPageBoost', 'searchBoost'] as const;
export type StatisticsProduct = (typeof STATISTICS_PRODUCTS)[number];

/**
 * Every column of a statistics row, in the order of the screen and the CSV. The group says under which
 * heading (and in which chart) it is shown; the measure how. A column that cannot be known for a period
 * is null (public adverts before the first daily count was taken; a median of nothing).
 */
export const STATISTICS_COLUMNS = [
  // Adverts: created (the spec's profile-created), went live (first approval), closed (by the advertiser
  // or deleted), locked (by support); public adverts at the end of the period by kind.
  { key: 'advertsCreated', group: 'adverts', measure: 'count' },
  { key: 'advertsLive', group: 'adverts', measure: 'count' },
  { key: 'advertsClosed', group: 'adverts', measure: 'count' },
  { key: 'advertsLocked', group: 'adverts', measure: 'count' },
  ...PUBLIC_KINDS.map((kind) => ({ key: `public.${kind}`, group: 'public', measure: 'count' }) as const),
  // Commerce: paid orders by product, revenue net and VAT by product (from the receipts), refunds
  // (credit notes: count and total incl. VAT) and chargebacks.
  ...STATISTICS_PRODUCTS.map((product) => ({ key: `orders.${product}`, group: 'orders', measure: 'count' }) as const),
  ...STATISTICS_PRODUCTS.map((product) => ({ key: `netOre.${product}`, group: 'revenue', measure: 'ore' }) as const),
  ...STATISTICS_PRODUCTS.map((product) => ({ key: `vatOre.${product}`, group: 'revenue', measure: 'ore' }) as const),
  { key: 'refunds', group: 'refunds', measure: 'count' },
  { key: 'refundedOre', group: 'refunds', measure: 'ore' },
  { key: 'chargebacks', group: 'refunds', measure: 'count' },
  // Visitors' searches (search_term_days) and the share that found nothing.
  { key: 'searches', group: 'searches', measure: 'count' },
  { key: 'searchesNoResultsShare', group: 'searches', measure: 'share' },
  // Trust and safety: reports received by reason, decided, time from report to decision, and whether
  // they were decided within 7 days (the card networks' rule for adult content).
  { key: 'reportsReceived', group: 'reports', measure: 'count' },
  ...REPORT_REASONS.map((reason) => ({ key: `reports.${reason}`, group: 'reportReasons', measure: 'count' }) as const),
  { key: 'reportsDecided', group: 'reports', measure: 'count' },
  { key: 'reportHoursMedian', group: 'reportTimes', measure: 'hours' },
  { key: 'reportHoursP90', group: 'reportTimes', measure: 'hours' },
  /** Of the reports decided in the period, the share decided within 7 days of being received. */
  { key: 'reportsWithin7DaysShare', group: 'reportTimes', measure: 'share' },
  /** At the end of the period (or now, for the current one): reports still open after more than 7 days. */
  { key: 'reportsOpenOver7Days', group: 'reportTimes', measure: 'count' },
  { key: 'verificationsDecided', group: 'verifications', measure: 'count' },
  { key: 'verificationHoursMedian', group: 'verifications', measure: 'hours' },
  { key: 'statements', group: 'statements', measure: 'count' },
  { key: 'appeals', group: 'statements', measure: 'count' },
  { key: 'appealsReversed', group: 'statements', measure: 'count' },
] as const satisfies readonly { key: string; group: string; measure: StatisticsMeasure }[];

export type StatisticsColumn = (typeof STATISTICS_COLUMNS)[number]['key'];
export type StatisticsGroup = (typeof STATISTICS_COLUMNS)[number]['group'];

/** One day (period 'yyyy-MM-dd') or one month (period 'yyyy-MM'), oldest first. */
export type StatisticsRow = { period: string } & Record<StatisticsColumn, number | null>;

/**
 * statisticsperday, statisticspermonth (GET): every period of the range, oldest first, the empty ones
 * included (as zeros), the current day or month last and marked `partial` (it is still going on).
 */
export type StatisticsAnswer = { unit: StatisticsUnit; rows: StatisticsRow[]; partial: string; generatedAt: string };

/** statisticsprofilecreated (GET): the spec's adverts created per day of the range, by kind. */
export type ProfileCreatedAnswer = { rows: ({ period: string; total: number } & Record<PublicKind, number>)[] };

/** ?Format=csv answers the same rows as text/csv (a download, named after the call and the range). */
export const StatisticsQuerySchema = v.object({
  Format: v.optional(v.picklist(['json', 'csv'], 'invalid'), 'json'),
});

/** transparencyreport (GET): any period, From and To inclusive Copenhagen days (To not before From). */
export const TransparencyQuerySchema = v.pipe(
  v.object({ From: typedDay, To: typedDay, Format: v.optional(v.picklist(['json', 'csv'], 'invalid'), 'json') }),
  v.forward(
    v.check((input) => input.From <= input.To, 'dateRange'),
    ['To'],
  ),
);
export type TransparencyQuery = v.InferOutput<typeof TransparencyQuerySchema>;

/**
 * The transparency report in the sections of the DSA harmonised template (Implementing Regulation (EU)
 * 2024/2835): notices (art. 16) by type and outcome, own-initiative moderation, statements of reasons
 * (art. 17), complaints through the internal system (art. 20) and their outcomes, with median handling
 * times in hours (null where there is nothing to take a median of).
 */
export type TransparencyReport = {
  from: string;
  to: string;
  notices: {
    byType: { type: ReportReason; received: number; actionTaken: number; noAction: number; open: number; medianHours: number | null }[];
    total: { received: number; actionTaken: number; noAction: number; open: number; medianHours: number | null };
  };
  /** Decisions support took without a notice (verification, media and advert decisions), by kind of decision. */
  ownInitiative: { byDecision: { decision: StatementDecision; count: number }[]; total: number };
  statements: { byDecision: { decision: StatementDecision; count: number }[]; total: number };
  appeals: { received: number; upheld: number; reversed: number; pending: number; medianHours: number | null };
  verifications: { decided: number; validated: number; declined: number; rejected: number; medianHours: number | null };
};

export { REPORT_REASONS, STATEMENT_DECISIONS };
