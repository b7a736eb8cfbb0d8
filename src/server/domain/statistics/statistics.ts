/**
 * Administration's statistics (issue 18; spec §2 support route statistics/, spec §6 statistics per day,
 * per month, profile-created) and the transparency report in the sections of the DSA harmonised template.
 * Every figure comes from its records at request time through the SQL pieces of figures.ts, grouped by
 * Copenhagen day or month, or over the report's whole period: the screens and the report share those
 * pieces, so no figure is computed in two places (docs/decisions/030-statistics.md). Permission:
 * `stats:read:any` (Administration).
 */
import {
  PUBLIC_KINDS,
  REPORT_REASONS,
  STATEMENT_DECISIONS,
  STATISTICS_COLUMNS,
  STATISTICS_DAYS,
  STATISTICS_MONTHS,
  STATISTICS_PRODUCTS,
  type ProfileCreatedAnswer,
  type StatisticsAnswer,
  type StatisticsColumn,
  type StatisticsRow,
  type StatisticsUnit,
  type TransparencyQuery,
  type TransparencyReport,
} from '#lib/schemas/statistics.ts';
import { sql } from 'drizzle-orm';
import { isoDayOf } from '#lib/format.ts';
import type { Db } from '../../db/client.ts';
import type { DomainContext } from '../context.ts';
import { requirePermission } from '../permissions.ts';
import { startOfCopenhagenDay } from '../commerce/copenhagen-days.ts';
import { csvOf, type CsvFile, type CsvValue } from '../csv.ts';
import {
  advertStatusChanges,
  advertsCreated,
  appealsDecided,
  appealsReceived,
  publicAdverts,
  reportsDecided,
  reportsOpenOver7Days,
  reportsReceived,
  sales,
  searches,
  statementsIssued,
  verificationsDecided,
  type StatisticsRange,
} from './figures.ts';

/** `yyyy-MM-dd` moved by whole days (calendar days: summer time changes nothing). */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** `yyyy-MM` moved by whole months. */
function addMonths(month: string, months: number): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, number - 1 + months, 1)).toISOString().slice(0, 7);
}

/** The range of whole Copenhagen days from..to (inclusive) with the instants it spans. */
export function rangeOf(from: string, to: string): StatisticsRange {
  return { from, to, start: startOfCopenhagenDay(from), end: startOfCopenhagenDay(addDays(to, 1)) };
}

type Period = { key: string; end: Date };

/** The periods of a unit's range, oldest first, each with the instant it ends; the last one is the current one. */
function periodsOf(unit: StatisticsUnit, now: Date): { range: StatisticsRange; periods: Period[] } {
  const today = isoDayOf(now);
  const periods: Period[] = [];
  if (unit === 'day') {
    const from = addDays(today, -(STATISTICS_DAYS - 1));
    for (let day = from; day <= today; day = addDays(day, 1)) periods.push({ key: day, end: startOfCopenhagenDay(addDays(day, 1)) });
    return { range: rangeOf(from, today), periods };
  }
  const first = addMonths(today.slice(0, 7), -(STATISTICS_MONTHS - 1));
  for (let month = first; month <= today.slice(0, 7); month = addMonths(month, 1)) {
    periods.push({ key: month, end: startOfCopenhagenDay(`${addMonths(month, 1)}-01`) });
  }
  return { range: rangeOf(`${first}-01`, today), periods };
}

/**
 * The queries of one answer run in one read-only transaction: its figures come from one snapshot of the
 * records (a report decided meanwhile is not counted as decided and as still open), and PostgreSQL's JIT
 * compilation is off for them, since compiling costs these short grouped queries more (15-25 ms each at
 * 50,000 adverts) than it saves. PGlite has no JIT; the setting changes nothing there.
 */
function readFigures<T>(db: Db, read: (db: Db) => Promise<T>): Promise<T> {
  return db.transaction(
    async (tx) => {
      await tx.execute(sql`set local jit = off`);
      return read(tx);
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** Columns that are unknown (null) rather than zero when a period has nothing to count. */
const NULL_WHEN_NOTHING = new Set<StatisticsColumn>([
  ...PUBLIC_KINDS.map((kind) => `public.${kind}` as const),
  'searchesNoResultsShare',
  'reportHoursMedian',
  'reportHoursP90',
  'reportsWithin7DaysShare',
  'verificationHoursMedian',
]);

/** Hours to one decimal; null stays null. */
const hours = (value: number | null | undefined): number | null => (value == null ? null : Math.round(value * 10) / 10);
/** A share 0..1 to four decimals; a share of nothing is null. */
const share = (part: number, whole: number): number | null => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

function emptyRow(period: string): StatisticsRow {
  const row: Record<string, string | number | null> = { period };
  for (const column of STATISTICS_COLUMNS) row[column.key] = NULL_WHEN_NOTHING.has(column.key) ? null : 0;
  return row as StatisticsRow;
}

/**
 * A period's figures stop changing once it is over and its late records are in (the visitors' search
 * terms of its last day, the public adverts counted a minute before midnight or at the next hourly run):
 * SETTLED_MS after its end. Settled rows are kept per database and unit, so an answer computes only the
 * periods still open and those settled since the last answer (the current month and the one before it
 * for a day or two; today and yesterday): the first answer after a start reads the whole range (about
 * 400 ms at 50,000 adverts on PGlite; `warmStatistics` does it when the server starts), the next ones a
 * few weeks of records. Records are never written into a settled period by the
 * product (every figure counts by when something happened); an erasure that removes an advert long after
 * does not lower the count of adverts created then until the server restarts.
 */
const SETTLED_MS = 2 * 86_400_000;
const settledRows = new WeakMap<Db, Map<string, StatisticsRow>>();

/** The first day of a period (`yyyy-MM-dd` of a day, `yyyy-MM` of a month). */
const firstDayOf = (unit: StatisticsUnit, key: string): string => (unit === 'day' ? key : `${key}-01`);

async function statisticsOf(ctx: DomainContext, unit: StatisticsUnit): Promise<StatisticsAnswer> {
  requirePermission(ctx.actor, 'stats:read:any');
  const now = ctx.now();
  const { range, periods } = periodsOf(unit, now);
  let memory = settledRows.get(ctx.db);
  if (!memory) settledRows.set(ctx.db, (memory = new Map()));
  const keyOf = (period: Period) => `${unit}:${period.key}`;
  const isSettled = (period: Period) => period.end.getTime() <= now.getTime() - SETTLED_MS;
  // From the first period not remembered on: the open ones, and those settled since the last answer.
  const first = periods.findIndex((period) => !isSettled(period) || !memory.has(keyOf(period)));
  const computing = periods.slice(first);
  const computed = await rowsOf(ctx, unit, first === 0 ? range : rangeOf(firstDayOf(unit, computing[0]!.key), range.to), computing, now);
  const current = new Set(periods.map(keyOf));
  for (const key of [...memory.keys()]) if (key.startsWith(`${unit}:`) && !current.has(key)) memory.delete(key);
  for (const period of computing) if (isSettled(period)) memory.set(keyOf(period), computed.get(period.key)!);
  const rows = periods.map((period) => computed.get(period.key) ?? memory.get(keyOf(period))!);
  return { unit, rows, partial: periods.at(-1)!.key, generatedAt: now.toISOString() };
}

/** The figures of `periods` (consecutive, oldest first, covering `range`) from the records. */
async function rowsOf(ctx: DomainContext, unit: StatisticsUnit, range: StatisticsRange, periods: Period[], now: Date): Promise<Map<string, StatisticsRow>> {
  const rows = new Map(periods.map((period) => [period.key, emptyRow(period.key)]));
  const rowOf = (period: string): Record<string, number | null> | undefined => rows.get(period) as Record<string, number | null> | undefined;
  const moments = periods.map((period) => ({ period: period.key, at: period.end < now ? period.end : now }));

  // One after another: a transaction is one connection, which takes one query at a time.
  const { created, changes, publicCounts, sold, searched, received, decided, openLong, verified, statements, appeals, appealDecisions } = await readFigures(
    ctx.db,
    async (db) => ({
      created: await advertsCreated(db, unit, range, { byKind: false }),
      changes: await advertStatusChanges(db, unit, range),
      publicCounts: await publicAdverts(db, unit, range),
      sold: await sales(db, unit, range),
      searched: await searches(db, unit, range),
      received: await reportsReceived(db, unit, range),
      decided: await reportsDecided(db, unit, range),
      openLong: await reportsOpenOver7Days(db, moments, range),
      verified: await verificationsDecided(db, unit, range),
      statements: await statementsIssued(db, unit, range),
      appeals: await appealsReceived(db, unit, range),
      appealDecisions: await appealsDecided(db, unit, range),
    }),
  );

  for (const figure of created) {
    const row = rowOf(figure.period);
    if (row) row['advertsCreated'] = figure.total;
  }
  for (const figure of changes) {
    const row = rowOf(figure.period);
    if (!row) continue;
    row['advertsLive'] = figure.live;
    row['advertsClosed'] = figure.closed;
    row['advertsLocked'] = figure.locked;
  }
  for (const figure of publicCounts) {
    const row = rowOf(figure.period);
    if (row && (PUBLIC_KINDS as readonly string[]).includes(figure.kind)) row[`public.${figure.kind}`] = figure.count;
  }
  for (const figure of sold) {
    const row = rowOf(figure.period);
    const product = STATISTICS_PRODUCTS[figure.product - 1];
    if (!row) continue;
    if (product) {
      row[`orders.${product}`] = (row[`orders.${product}`] ?? 0) + figure.orders;
      row[`netOre.${product}`] = (row[`netOre.${product}`] ?? 0) + figure.net;
      row[`vatOre.${product}`] = (row[`vatOre.${product}`] ?? 0) + figure.vat;
    }
    row['refunds'] = (row['refunds'] ?? 0) + figure.refunds;
    row['refundedOre'] = (row['refundedOre'] ?? 0) + figure.refunded;
    row['chargebacks'] = (row['chargebacks'] ?? 0) + figure.chargebacks;
  }
  for (const figure of searched) {
    const row = rowOf(figure.period);
    if (!row) continue;
    row['searches'] = figure.searches;
    row['searchesNoResultsShare'] = share(figure.noResults, figure.searches);
  }
  for (const figure of received) {
    const row = rowOf(figure.period);
    if (!row) continue;
    if (figure.reason === null) row['reportsReceived'] = figure.received;
    else if ((REPORT_REASONS as readonly string[]).includes(figure.reason)) row[`reports.${figure.reason}`] = figure.received;
  }
  for (const figure of decided) {
    const row = rowOf(figure.period);
    if (!row) continue;
    row['reportsDecided'] = figure.decided;
    row['reportHoursMedian'] = hours(figure.medianHours);
    row['reportHoursP90'] = hours(figure.p90Hours);
    row['reportsWithin7DaysShare'] = share(figure.within7Days, figure.decided);
  }
  for (const figure of openLong) {
    const row = rowOf(figure.period);
    if (row) row['reportsOpenOver7Days'] = figure.open;
  }
  for (const figure of verified) {
    const row = rowOf(figure.period);
    if (!row) continue;
    row['verificationsDecided'] = figure.decided;
    row['verificationHoursMedian'] = hours(figure.medianHours);
  }
  for (const figure of statements) {
    const row = rowOf(figure.period);
    if (row) row['statements'] = (row['statements'] ?? 0) + figure.count;
  }
  for (const figure of appeals) {
    const row = rowOf(figure.period);
    if (row) row['appeals'] = figure.received;
  }
  for (const figure of appealDecisions) {
    const row = rowOf(figure.period);
    if (row) row['appealsReversed'] = figure.reversed;
  }

  return rows;
}

/**
 * Fills the memory of settled periods (per day and per month) in the background when a server starts, so
 * the first Administration to open the screen does not wait for two years of records.
 */
export async function warmStatistics(db: Db): Promise<void> {
  const ctx: DomainContext = { db, actor: { type: 'system' }, events: { publish: () => {} }, now: () => new Date() };
  await statisticsOf(ctx, 'day');
  await statisticsOf(ctx, 'month');
}

/** statisticsperday: the last STATISTICS_DAYS Copenhagen days, today included (and marked partial). */
export const statisticsPerDay = (ctx: DomainContext): Promise<StatisticsAnswer> => statisticsOf(ctx, 'day');

/** statisticspermonth: the last STATISTICS_MONTHS months, the current one included (and marked partial). */
export const statisticsPerMonth = (ctx: DomainContext): Promise<StatisticsAnswer> => statisticsOf(ctx, 'month');

/** statisticsprofilecreated: adverts created per Copenhagen day of the last STATISTICS_DAYS days, by public kind. */
export async function profilesCreated(ctx: DomainContext): Promise<ProfileCreatedAnswer> {
  requirePermission(ctx.actor, 'stats:read:any');
  const { range, periods } = periodsOf('day', ctx.now());
  const byDay = new Map((await readFigures(ctx.db, (db) => advertsCreated(db, 'day', range, { byKind: true }))).map((figure) => [figure.period, figure]));
  return {
    rows: periods.map((period) => {
      const figure = byDay.get(period.key);
      return {
        period: period.key,
        total: figure?.total ?? 0,
        escort: figure?.escort ?? 0,
        transEscort: figure?.transEscort ?? 0,
        thaiMassage: figure?.thaiMassage ?? 0,
      };
    }),
  };
}

/**
 * transparencyreport: From..To (inclusive Copenhagen days) in the sections of the DSA harmonised template.
 * Notices are the reports received in the period, by reason, with their outcome as it stands now and the
 * median hours to decision; own-initiative decisions are the statements of reasons of the period that
 * answered no report; appeals are those received in the period (pending: still undecided) and those
 * decided in it (upheld, reversed, median hours); verifications are those decided in the period.
 */
export async function transparencyReport(ctx: DomainContext, query: Pick<TransparencyQuery, 'From' | 'To'>): Promise<TransparencyReport> {
  requirePermission(ctx.actor, 'stats:read:any');
  const range = rangeOf(query.From, query.To);
  const { received, statements, appeals, appealDecisions, verified } = await readFigures(ctx.db, async (db) => ({
    received: await reportsReceived(db, 'all', range),
    statements: await statementsIssued(db, 'all', range),
    appeals: await appealsReceived(db, 'all', range),
    appealDecisions: await appealsDecided(db, 'all', range),
    verified: await verificationsDecided(db, 'all', range),
  }));
  const notice = (figure: (typeof received)[number] | undefined) => ({
    received: figure?.received ?? 0,
    actionTaken: figure?.actionTaken ?? 0,
    noAction: figure?.noAction ?? 0,
    open: figure?.open ?? 0,
    medianHours: hours(figure?.medianHours),
  });
  const byDecision = (own: boolean | null) =>
    STATEMENT_DECISIONS.map((decision) => ({
      decision,
      count: statements.filter((row) => row.decision === decision && (own === null || row.ownInitiative === own)).reduce((sum, row) => sum + row.count, 0),
    }));
  const ownInitiative = byDecision(true);
  const allStatements = byDecision(null);
  const total = (list: { count: number }[]) => list.reduce((sum, row) => sum + row.count, 0);
  const [appealFigure] = appeals;
  const [appealDecision] = appealDecisions;
  const [verification] = verified;
  return {
    from: query.From,
    to: query.To,
    notices: {
      byType: REPORT_REASONS.map((type) => ({ type, ...notice(received.find((row) => row.reason === type)) })),
      total: notice(received.find((row) => row.reason === null)),
    },
    ownInitiative: { byDecision: ownInitiative, total: total(ownInitiative) },
    statements: { byDecision: allStatements, total: total(allStatements) },
    appeals: {
      received: appealFigure?.received ?? 0,
      upheld: appealDecision?.upheld ?? 0,
      reversed: appealDecision?.reversed ?? 0,
      pending: appealFigure?.pending ?? 0,
      medianHours: hours(appealDecision?.medianHours),
    },
    verifications: {
      decided: verification?.decided ?? 0,
      validated: verification?.validated ?? 0,
      declined: verification?.declined ?? 0,
      rejected: verification?.rejected ?? 0,
      medianHours: hours(verification?.medianHours),
    },
  };
}

// ---- CSV downloads ----------------------------------------------------------------------------

/** The per-day or per-month rows as CSV: the period, then every column of STATISTICS_COLUMNS by its key. */
export function statisticsCsv(answer: StatisticsAnswer): CsvFile {
  const keys = STATISTICS_COLUMNS.map((column) => column.key);
  const lines: CsvValue[][] = [['period', ...keys], ...answer.rows.map((row) => [row.period, ...keys.map((key) => row[key])])];
  const first = answer.rows[0]?.period ?? '';
  const last = answer.rows.at(-1)?.period ?? '';
  return { fileName: `statistics-per-${answer.unit}-${first}-${last}.csv`, csv: csvOf(lines) };
}

export function profilesCreatedCsv(answer: ProfileCreatedAnswer): CsvFile {
  const lines: CsvValue[][] = [
    ['period', 'total', ...PUBLIC_KINDS],
    ...answer.rows.map((row) => [row.period, row.total, ...PUBLIC_KINDS.map((kind) => row[kind])]),
  ];
  return { fileName: `profiles-created-${answer.rows[0]?.period ?? ''}-${answer.rows.at(-1)?.period ?? ''}.csv`, csv: csvOf(lines) };
}

/** The transparency report as CSV, one line per figure: section, item, value (an unknown median empty). */
export function transparencyCsv(report: TransparencyReport): CsvFile {
  const lines: CsvValue[][] = [['section', 'item', 'value'], ['period', 'from', report.from], ['period', 'to', report.to]];
  const notice = (name: string, figure: TransparencyReport['notices']['total']) => {
    for (const item of ['received', 'actionTaken', 'noAction', 'open', 'medianHours'] as const) lines.push(['notices', `${name}.${item}`, figure[item]]);
  };
  for (const figure of report.notices.byType) notice(figure.type, figure);
  notice('total', report.notices.total);
  for (const section of ['ownInitiative', 'statements'] as const) {
    for (const figure of report[section].byDecision) lines.push([section, figure.decision, figure.count]);
    lines.push([section, 'total', report[section].total]);
  }
  for (const [item, value] of Object.entries(report.appeals)) lines.push(['appeals', item, value]);
  for (const [item, value] of Object.entries(report.verifications)) lines.push(['verifications', item, value]);
  return { fileName: `transparency-report-${report.from}-${report.to}.csv`, csv: csvOf(lines) };
}
