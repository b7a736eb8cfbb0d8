/**
 * Administration's statistics and the DSA transparency report over real HTTP (issue 18, "Statistics" and
 * "Tests and figures"; spec §6 statistics per day, per month, profile-created): a seeded history whose
 * right answers this file knows (adverts created, approved, locked and closed on known Copenhagen days,
 * public adverts counted, orders with receipts, a refund and a chargeback, searches, reports with known
 * times to decision, verifications, statements of reasons with and without a report, appeals), read back
 * per day, per month, as CSV and as the transparency report. Days are Copenhagen days relative to today,
 * so the file passes at any hour (also 23:00-24:00 UTC). Support and SEO users are refused; the full
 * permission table is support-permissions.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgTransactionConfig } from 'drizzle-orm/pg-core';
import { advertSearch, auditLog, contentReports, publicAdvertDays, searchTermDays, statementsOfReasons, verifications, orders, orderEvents } from '#server/db/schema.ts';
import type { Db } from '#server/db/client.ts';
import { STATISTICS_COLUMNS, STATISTICS_DAYS, type ProfileCreatedAnswer, type StatisticsAnswer, type StatisticsRow, type TransparencyReport } from '#lib/schemas/statistics.ts';
import { startOfCopenhagenDay } from '#server/domain/commerce/copenhagen-days.ts';
import { ORDER_STATUS } from '#server/domain/commerce/order-status.ts';
import { issueSalesDocument } from '#server/domain/commerce/sales-documents.ts';
import { countPublicAdverts } from '#server/domain/statistics/public-advert-days.ts';
import { statisticsPerDay, statisticsPerMonth, transparencyReport } from '#server/domain/statistics/statistics.ts';
import { nextPublicAdvertCount } from '#server/jobs/statistics-job.ts';
import type { DomainContext } from '#server/domain/context.ts';
import { isoDayOf } from '#lib/format.ts';
import { isoDayFromNow, oneCopenhagenDay } from '#tests/support/days.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createAdvert } from '#tests/support/fixtures.ts';
import { call } from './accounts-helpers.ts';
import { signedInPerRole } from './support-helpers.ts';
import { createPaidOrder, refundOrder, type PaidOrder } from './commerce-helpers.ts';

const HOUR = 3_600_000;

/** `hour` o'clock (Copenhagen) on the day `days` before today. */
const at = (daysAgo: number, hour: number) => new Date(startOfCopenhagenDay(isoDayFromNow(-daysAgo)).getTime() + hour * HOUR);
/** `yyyy-MM` moved by months from the current Copenhagen month. */
function monthFromNow(months: number): string {
  const [year, month] = isoDayFromNow(0).split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month - 1 + months, 1)).toISOString().slice(0, 7);
}
const atDayOf = (day: string, hour: number) => new Date(startOfCopenhagenDay(day).getTime() + hour * HOUR);

// The days and the month the assertions read: far enough back that nothing else in this file lands there.
const D2 = isoDayFromNow(-2);
const D3 = isoDayFromNow(-3);
const D10 = isoDayFromNow(-10);
const D15 = isoDayFromNow(-15);
const D20 = isoDayFromNow(-20);
/** Four months back: wholly before the per-day range, within the per-month one. */
const M4 = monthFromNow(-4);
const M5 = monthFromNow(-5);

let server: TestServer;
let admin: string;
let support: string;
let seo: string;
let paid: { d2Membership: PaidOrder[]; d2Boost: PaidOrder };
/** The report support decides over HTTP (a lock): its statement must name it. */
let decidedReportId: number;
let decidedAdvertId: number;

async function chargeBack(db: Db, order: PaidOrder, when: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(orders).set({ status: ORDER_STATUS.ChargedBack, updatedAt: when }).where(eq(orders.id, order.order.id));
    await tx.insert(orderEvents).values({ orderId: order.order.id, fromStatus: ORDER_STATUS.Paid, toStatus: ORDER_STATUS.ChargedBack, actorType: 'provider', reason: 'Chargeback', createdAt: when });
    await issueSalesDocument(tx, { kind: 'credit_note', orderId: order.order.id, refersTo: order.receipt.id, locale: 'da', lines: order.receipt.lines, reason: 'Chargeback', now: when });
  });
}

beforeAll(async () => {
  // The file compares days it computes with days the server computes: both within one Copenhagen day.
  await oneCopenhagenDay(60_000);
  server = await startTestServer({ app: { rateLimitScale: 50 } });
  const db = server.db;
  ({ Administration: admin, Support: support, SEO: seo } = await signedInPerRole(server, ['Administration', 'Support', 'SEO']));

  // Adverts created: on D3 two escorts, a trans escort and a Thai massage; in M4 three.
  const created = [
    await createAdvert(db, { createdAt: at(3, 9), kind: 0, gender: 1 }),
    await createAdvert(db, { createdAt: at(3, 10), kind: 0, gender: 2 }),
    await createAdvert(db, { createdAt: at(3, 11), kind: 0, gender: 5 }),
    await createAdvert(db, { createdAt: at(3, 12), kind: 1, gender: 1 }),
    await createAdvert(db, { createdAt: atDayOf(`${M4}-01`, 10), kind: 0 }),
    await createAdvert(db, { createdAt: atDayOf(`${M4}-15`, 10), kind: 0 }),
    await createAdvert(db, { createdAt: atDayOf(`${M4}-15`, 11), kind: 1 }),
  ];
  const [a1, a2, a3, a4, m1] = [created[0]!, created[1]!, created[2]!, created[3]!, created[4]!];

  // Status changes as changeAdvertStatus and deleteAdvertiser audit them.
  const audit = (action: string, advertId: number, when: Date, status: number) =>
    ({ actorType: 'support', actorId: null, action, targetType: 'advert', targetId: String(advertId), before: { status: 0 }, after: { status }, createdAt: when });
  await db.insert(auditLog).values([
    audit('advert.approve', a1.id, at(3, 14), 1), // went live on D3
    audit('advert.approve', a1.id, at(2, 9), 1), // approved again on D2 (after an unlock): not live again
    audit('advert.approve', a2.id, at(2, 10), 1), // went live on D2
    audit('advert.lock', a3.id, at(2, 11), 2),
    audit('advert.deactivate', a4.id, at(2, 12), 5),
    audit('advert.deleted', a3.id, at(10, 9), 3),
    audit('advert.status.change', a2.id, at(10, 10), 5), // support closes it
    audit('advert.status.change', a2.id, at(10, 11), 1), // and opens it again: not a close
    audit('advert.approve', m1.id, atDayOf(`${M4}-01`, 12), 1),
    audit('advert.deactivate', m1.id, atDayOf(`${M4}-15`, 12), 5),
  ]);

  // Public adverts as the daily count left them (D10 never counted).
  await db.insert(publicAdvertDays).values([
    { day: D2, kind: 'escort', count: 10 },
    { day: D2, kind: 'transEscort', count: 2 },
    { day: D2, kind: 'thaiMassage', count: 3 },
    { day: D3, kind: 'escort', count: 9 },
    { day: `${M4}-01`, kind: 'escort', count: 5 },
    { day: `${M4}-15`, kind: 'escort', count: 7 },
    { day: `${M4}-15`, kind: 'thaiMassage', count: 1 },
  ]);

  // Orders: on D2 two memberships and a front-page boost paid, one D20 membership refunded and another charged back.
  const buyer = { accountId: a1.accountId, advertId: a1.id };
  paid = {
    d2Membership: [await createPaidOrder(db, { ...buyer, paidAt: at(2, 10) }), await createPaidOrder(db, { ...buyer, paidAt: at(2, 11) })],
    d2Boost: await createPaidOrder(db, { ...buyer, productCode: 'frontpage-boost-7', paidAt: at(2, 12) }),
  };
  const refunded = await createPaidOrder(db, { ...buyer, paidAt: at(20, 10) });
  const chargedBack = await createPaidOrder(db, { ...buyer, paidAt: at(20, 11) });
  await refundOrder(db, refunded, { at: at(2, 13) });
  await chargeBack(db, chargedBack, at(2, 14));

  // Visitors' searches.
  await db.insert(searchTermDays).values([
    { day: D2, term: 'koebenhavn', searches: 30, noResults: 8 },
    { day: D2, term: 'hot stone', searches: 10, noResults: 2 },
    { day: D10, term: 'kbh', searches: 5, noResults: 5 },
    { day: `${M4}-01`, term: 'aarhus', searches: 7, noResults: 0 },
  ]);

  // Reports: four decided on D2 at noon, 2, 24, 192 and 432 hours after they came in; two still open.
  const decidedAt = at(2, 12);
  const report = (reason: string, hoursBefore: number, status: number) => ({
    advertId: a1.id,
    reason,
    createdAt: new Date(decidedAt.getTime() - hoursBefore * HOUR),
    status,
    decision: status === 2 ? 'lock-advert' : 'no-action',
    decisionReason: 'Vurderet.',
    decidedAt,
  });
  const [r1] = await db
    .insert(contentReports)
    .values([
      report('minor', 2, 2),
      report('spam', 24, 3),
      report('fake', 192, 3),
      report('other', 432, 2),
      { advertId: a1.id, reason: 'trafficking', createdAt: at(2, 9), status: 0 },
      { advertId: a1.id, reason: 'other', createdAt: at(20, 8), status: 0 },
      // In M4: one decided 5 hours after it came in.
      { advertId: m1.id, reason: 'spam', createdAt: atDayOf(`${M4}-10`, 8), status: 3, decision: 'no-action', decisionReason: 'Ok.', decidedAt: atDayOf(`${M4}-10`, 13) },
    ])
    .returning({ id: contentReports.id });

  // Verifications decided on D2 (4 and 10 hours after submission) and D3 (1 hour); one still pending.
  const verification = (status: number, decided: Date, hoursBefore: number) => ({
    accountId: a2.accountId,
    advertId: a2.id,
    method: 'document',
    status,
    submittedAt: new Date(decided.getTime() - hoursBefore * HOUR),
    decidedAt: decided,
  });
  await db.insert(verifications).values([
    verification(2, at(2, 12), 4),
    verification(3, at(2, 14), 10),
    verification(4, at(3, 12), 1),
    { accountId: a2.accountId, advertId: a2.id, method: 'document', status: 1, submittedAt: at(2, 8) },
  ]);

  // Statements of reasons: one answering report r1, three on support's own initiative; appeals on three.
  const statement = (decision: string, created: Date, reportId: number | null) => ({ advertId: a1.id, accountId: a1.accountId, decision, what: 'Annonce', reason: 'Vilkår.', createdAt: created, reportId });
  await db.insert(statementsOfReasons).values([
    statement('advert.locked', at(2, 12), r1!.id),
    { ...statement('picture.declined', at(2, 10), null), appealText: 'Billedet er mit eget.', appealedAt: at(2, 13), appealDecision: 'reversed', appealDecidedAt: at(2, 15) },
    { ...statement('verification.declined', at(3, 9), null), appealText: 'Dokumentet er gyldigt.', appealedAt: at(3, 10) },
    { ...statement('advert.locked', at(10, 5), null), appealText: 'Annoncen følger reglerne.', appealedAt: at(10, 6), appealDecision: 'upheld', appealDecidedAt: at(10, 12) },
  ]);

  // Support decides a report today with a lock, through the real call: the statement names the report.
  const target = await createAdvert(db, { name: 'Rapporteret Rita' });
  decidedAdvertId = target.id;
  const [today] = await db.insert(contentReports).values({ advertId: target.id, reason: 'fake', status: 0 }).returning({ id: contentReports.id });
  decidedReportId = today!.id;
  const decided = await call(server, '/api/support/decidecontentreport', {
    cookie: support,
    body: { Id: decidedReportId, Decision: 'lock-advert', Reason: 'Falske billeder.', Rule: 'terms.other' },
  });
  expect(decided.status, await decided.clone().text()).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

async function getJson<T>(path: string, query: Record<string, string> = {}, cookie = admin): Promise<T> {
  const response = await call(server, path, { cookie, query });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('cache-control')).toBe('private, no-store');
  return (await response.json()) as T;
}
const rowOf = (answer: StatisticsAnswer, period: string): StatisticsRow => {
  const row = answer.rows.find((candidate) => candidate.period === period);
  expect(row, `no row for ${period}`).toBeDefined();
  return row!;
};

describe('statistics per day', () => {
  it('answers every day of the last 90, oldest first, today last and partial, the empty days as zeros', async () => {
    const answer = await getJson<StatisticsAnswer>('/api/support/statisticsperday');
    expect(answer.unit).toBe('day');
    expect(answer.rows).toHaveLength(STATISTICS_DAYS);
    expect(answer.rows[0]!.period).toBe(isoDayFromNow(-(STATISTICS_DAYS - 1)));
    expect(answer.rows.at(-1)!.period).toBe(isoDayFromNow(0));
    expect(answer.partial).toBe(isoDayFromNow(0));
    // A day with nothing: zeros, and null where nothing can be known (no count taken, a median of nothing).
    const empty = rowOf(answer, isoDayFromNow(-40));
    expect(empty).toMatchObject({ advertsCreated: 0, advertsLive: 0, 'orders.membership': 0, searches: 0, reportsReceived: 0, statements: 0 });
    expect(empty).toMatchObject({ 'public.escort': null, reportHoursMedian: null, reportsWithin7DaysShare: null, searchesNoResultsShare: null, verificationHoursMedian: null });
    for (const column of STATISTICS_COLUMNS) expect(Object.keys(empty)).toContain(column.key);
  });

  it('counts adverts created, gone live (first approval only), closed and locked, and the public adverts counted', async () => {
    const answer = await getJson<StatisticsAnswer>('/api/support/statisticsperday');
    expect(rowOf(answer, D3)).toMatchObject({ advertsCreated: 4, advertsLive: 1, advertsClosed: 0, advertsLocked: 0, 'public.escort': 9, 'public.transEscort': null });
    expect(rowOf(answer, D2)).toMatchObject({ advertsCreated: 0, advertsLive: 1, advertsClosed: 1, advertsLocked: 1 });
    expect(rowOf(answer, D2)).toMatchObject({ 'public.escort': 10, 'public.transEscort': 2, 'public.thaiMassage': 3 });
    // A deletion and support's close count; support's reopening does not. D10 was never counted.
    expect(rowOf(answer, D10)).toMatchObject({ advertsClosed: 2, advertsLive: 0, 'public.escort': null });
  });

  it('counts orders and revenue by product from the receipts, refunds and chargebacks from the credit notes', async () => {
    const answer = await getJson<StatisticsAnswer>('/api/support/statisticsperday');
    const [first, second] = paid.d2Membership as [PaidOrder, PaidOrder];
    expect(first.receipt.netOre + first.receipt.vatOre).toBe(49_900);
    expect(rowOf(answer, D2)).toMatchObject({
      'orders.membership': 2,
      'netOre.membership': first.receipt.netOre + second.receipt.netOre,
      'vatOre.membership': first.receipt.vatOre + second.receipt.vatOre,
      'orders.frontPageBoost': 1,
      'netOre.frontPageBoost': paid.d2Boost.receipt.netOre,
      'orders.searchBoost': 0,
      refunds: 1,
      refundedOre: 49_900,
      chargebacks: 1,
    });
    // The two orders later refunded and charged back were sold on D20.
    expect(rowOf(answer, D20)).toMatchObject({ 'orders.membership': 2, refunds: 0, chargebacks: 0 });
  });

  it('counts searches and the share that found nothing', async () => {
    const answer = await getJson<StatisticsAnswer>('/api/support/statisticsperday');
    expect(rowOf(answer, D2)).toMatchObject({ searches: 40, searchesNoResultsShare: 0.25 });
    expect(rowOf(answer, D10)).toMatchObject({ searches: 5, searchesNoResultsShare: 1 });
  });

  it('counts reports received by reason and decided, the median and 90th percentile hours, the 7-day share and those open over 7 days', async () => {
    const answer = await getJson<StatisticsAnswer>('/api/support/statisticsperday');
    expect(rowOf(answer, D2)).toMatchObject({
      reportsReceived: 2,
      'reports.minor': 1,
      'reports.trafficking': 1,
      'reports.spam': 0,
      reportsDecided: 4,
      // 2, 24, 192 and 432 hours: median (24 + 192) / 2; 90th percentile 192 + 0.7 × (432 − 192).
      reportHoursMedian: 108,
      reportHoursP90: 360,
      reportsWithin7DaysShare: 0.5,
      // At the end of D2 only the report received on D20 and never decided is open over 7 days.
      reportsOpenOver7Days: 1,
    });
    expect(rowOf(answer, D3)).toMatchObject({ reportsReceived: 1, 'reports.spam': 1, reportsDecided: 0, reportHoursMedian: null });
    // At the end of D3 the reports received on D10 and D20 (decided on D2) were still open, and the open one.
    expect(rowOf(answer, D3).reportsOpenOver7Days).toBe(3);
    expect(rowOf(answer, D15).reportsOpenOver7Days).toBe(0);
    // Today (so far): the one received on D20 is still open.
    expect(answer.rows.at(-1)!.reportsOpenOver7Days).toBe(1);
  });

  it('counts verifications decided with their median time, statements of reasons, appeals and appeals reversed', async () => {
    const answer = await getJson<StatisticsAnswer>('/api/support/statisticsperday');
    expect(rowOf(answer, D2)).toMatchObject({ verificationsDecided: 2, verificationHoursMedian: 7, statements: 2, appeals: 1, appealsReversed: 1 });
    expect(rowOf(answer, D3)).toMatchObject({ verificationsDecided: 1, verificationHoursMedian: 1, statements: 1, appeals: 1, appealsReversed: 0 });
    expect(rowOf(answer, D10)).toMatchObject({ statements: 1, appeals: 1, appealsReversed: 0 });
  });

  it('downloads the same rows as CSV, named after the range', async () => {
    const answer = await getJson<StatisticsAnswer>('/api/support/statisticsperday');
    const response = await call(server, '/api/support/statisticsperday', { cookie: admin, query: { Format: 'csv' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="statistics-per-day-${isoDayFromNow(-(STATISTICS_DAYS - 1))}-${isoDayFromNow(0)}.csv"`);
    const lines = (await response.text()).split('\r\n');
    expect(lines[0]).toBe(['period', ...STATISTICS_COLUMNS.map((column) => column.key)].join(','));
    expect(lines[0]).toContain(',public.escort,');
    expect(lines).toHaveLength(STATISTICS_DAYS + 2); // header, the days, and the empty string after the last CRLF
    const d2 = lines.find((line) => line.startsWith(`${D2},`))!;
    expect(d2).toBe([D2, ...STATISTICS_COLUMNS.map((column) => rowOf(answer, D2)[column.key] ?? '')].join(','));
    expect(d2.startsWith(`${D2},0,1,1,1,10,2,3,2,1,0,`)).toBe(true);
    // An unknown public count is an empty field.
    expect(lines.find((line) => line.startsWith(`${D10},`))!.split(',').slice(5, 8)).toEqual(['', '', '']);
  });

  it('refuses a format it does not know at its field', async () => {
    const response = await call(server, '/api/support/statisticsperday', { cookie: admin, query: { Format: 'xlsx' } });
    expect(response.status).toBe(400);
  });
});

describe('statistics per month', () => {
  it('answers the last 24 months with the current one partial, a month by its records and its last public count', async () => {
    const answer = await getJson<StatisticsAnswer>('/api/support/statisticspermonth');
    expect(answer.unit).toBe('month');
    expect(answer.rows).toHaveLength(24);
    expect(answer.rows[0]!.period).toBe(monthFromNow(-23));
    expect(answer.partial).toBe(monthFromNow(0));
    expect(rowOf(answer, M4)).toMatchObject({
      advertsCreated: 3,
      advertsLive: 1,
      advertsClosed: 1,
      'public.escort': 7,
      'public.thaiMassage': 1,
      'public.transEscort': null,
      searches: 7,
      searchesNoResultsShare: 0,
      reportsReceived: 1,
      'reports.spam': 1,
      reportsDecided: 1,
      reportHoursMedian: 5,
      reportHoursP90: 5,
      reportsWithin7DaysShare: 1,
      reportsOpenOver7Days: 0,
    });
    expect(rowOf(answer, M5)).toMatchObject({ advertsCreated: 0, searches: 0, reportsDecided: 0, reportHoursMedian: null, 'public.escort': null });
    // The month of D2 holds at least D2's orders (D20 may be in the month before).
    expect(rowOf(answer, D2.slice(0, 7))['orders.frontPageBoost']).toBe(1);
  });

  it('remembers the settled months: the same answer again, while the current month follows new records', async () => {
    const first = await getJson<StatisticsAnswer>('/api/support/statisticspermonth');
    const [report] = await server.db.insert(contentReports).values({ reason: 'other', status: 0 }).returning({ id: contentReports.id });
    try {
      const again = await getJson<StatisticsAnswer>('/api/support/statisticspermonth');
      expect(again.rows.slice(0, -2)).toEqual(first.rows.slice(0, -2));
      expect(rowOf(again, monthFromNow(0))['reportsReceived']).toBe(Number(rowOf(first, monthFromNow(0))['reportsReceived']) + 1);
    } finally {
      await server.db.delete(contentReports).where(eq(contentReports.id, report!.id));
    }
  });

  it('downloads as CSV named after the months', async () => {
    const response = await call(server, '/api/support/statisticspermonth', { cookie: admin, query: { format: 'csv' } });
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="statistics-per-month-${monthFromNow(-23)}-${monthFromNow(0)}.csv"`);
    const lines = (await response.text()).split('\r\n');
    expect(lines.find((line) => line.startsWith(`${M4},`))!.startsWith(`${M4},3,1,1,0,7,,1,`)).toBe(true);
  });
});

describe('profiles created', () => {
  it('answers the adverts created per day by public kind, and as CSV', async () => {
    const answer = await getJson<ProfileCreatedAnswer>('/api/support/statisticsprofilecreated');
    expect(answer.rows).toHaveLength(STATISTICS_DAYS);
    expect(answer.rows.find((row) => row.period === D3)).toEqual({ period: D3, total: 4, escort: 2, transEscort: 1, thaiMassage: 1 });
    expect(answer.rows.find((row) => row.period === D2)).toEqual({ period: D2, total: 0, escort: 0, transEscort: 0, thaiMassage: 0 });
    const response = await call(server, '/api/support/statisticsprofilecreated', { cookie: admin, query: { Format: 'csv' } });
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="profiles-created-${isoDayFromNow(-(STATISTICS_DAYS - 1))}-${isoDayFromNow(0)}.csv"`);
    const lines = (await response.text()).split('\r\n');
    expect(lines[0]).toBe('period,total,escort,transEscort,thaiMassage');
    expect(lines).toContain(`${D3},4,2,1,1`);
  });
});

describe('the transparency report', () => {
  it('counts notices by type and outcome, own-initiative decisions, statements, appeals and verifications of the period', async () => {
    const report = await getJson<TransparencyReport>('/api/support/transparencyreport', { From: D20, To: D2 });
    expect(report).toMatchObject({ from: D20, to: D2 });
    expect(report.notices.total).toEqual({ received: 6, actionTaken: 2, noAction: 2, open: 2, medianHours: 108 });
    expect(report.notices.byType.map((row) => row.type)).toEqual(['minor', 'trafficking', 'not-consensual', 'fake', 'spam', 'other']);
    expect(report.notices.byType.find((row) => row.type === 'other')).toEqual({ type: 'other', received: 2, actionTaken: 1, noAction: 0, open: 1, medianHours: 432 });
    expect(report.notices.byType.find((row) => row.type === 'not-consensual')).toEqual({ type: 'not-consensual', received: 0, actionTaken: 0, noAction: 0, open: 0, medianHours: null });
    expect(report.statements.total).toBe(4);
    expect(report.statements.byDecision.find((row) => row.decision === 'advert.locked')?.count).toBe(2);
    // Own initiative: the statements that answered no report.
    expect(report.ownInitiative.total).toBe(3);
    expect(report.ownInitiative.byDecision.filter((row) => row.count > 0)).toEqual([
      { decision: 'advert.locked', count: 1 },
      { decision: 'picture.declined', count: 1 },
      { decision: 'verification.declined', count: 1 },
    ]);
    // Appeals decided after 2 and 6 hours: median 4.
    expect(report.appeals).toEqual({ received: 3, upheld: 1, reversed: 1, pending: 1, medianHours: 4 });
    expect(report.verifications).toEqual({ decided: 3, validated: 1, declined: 1, rejected: 1, medianHours: 4 });
  });

  it("counts support's lock of a reported advert as answering the notice, not as its own initiative", async () => {
    const [statement] = await server.db.select().from(statementsOfReasons).where(eq(statementsOfReasons.advertId, decidedAdvertId));
    expect(statement).toMatchObject({ decision: 'advert.locked', reportId: decidedReportId });
    const today = isoDayOf(new Date());
    const report = await getJson<TransparencyReport>('/api/support/transparencyreport', { From: today, To: today });
    expect(report.statements.total).toBe(1);
    expect(report.ownInitiative.total).toBe(0);
    expect(report.notices.byType.find((row) => row.type === 'fake')).toMatchObject({ received: 1, actionTaken: 1, open: 0 });
  });

  it('downloads as CSV, one line per figure', async () => {
    const response = await call(server, '/api/support/transparencyreport', { cookie: admin, query: { From: D20, To: D2, Format: 'csv' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="transparency-report-${D20}-${D2}.csv"`);
    const lines = (await response.text()).split('\r\n');
    expect(lines.slice(0, 3)).toEqual(['section,item,value', `period,from,${D20}`, `period,to,${D2}`]);
    expect(lines).toEqual(expect.arrayContaining(['notices,total.received,6', 'notices,other.medianHours,432', 'notices,fake.medianHours,192', 'notices,not-consensual.medianHours,']));
    expect(lines).toEqual(expect.arrayContaining(['ownInitiative,total,3', 'statements,advert.locked,2', 'appeals,medianHours,4', 'verifications,rejected,1']));
  });

  it('refuses a period that ends before it starts, at To', async () => {
    const response = await call(server, '/api/support/transparencyreport', { cookie: admin, query: { From: D2, To: D20 } });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('dateRange');
  });
});

describe('the daily count of public adverts', () => {
  it("writes today's row from the search index (and yesterday's when no run counted it), and the day shows it", async () => {
    const now = new Date();
    const counts = await countPublicAdverts(server.db, now);
    const index = await server.db.select({ kind: advertSearch.kind, n: sql<number>`count(*)::int` }).from(advertSearch).groupBy(advertSearch.kind);
    const expected = { escort: 0, transEscort: 0, thaiMassage: 0 };
    for (const row of index) expected[(['escort', 'transEscort', 'thaiMassage'] as const)[row.kind]!] = row.n;
    expect(counts).toEqual(expected);
    expect(expected.escort).toBeGreaterThan(0);
    const answer = await getJson<StatisticsAnswer>('/api/support/statisticsperday');
    const today = answer.rows.at(-1)!;
    expect([today['public.escort'], today['public.transEscort'], today['public.thaiMassage']]).toEqual([expected.escort, expected.transEscort, expected.thaiMassage]);
    expect(rowOf(answer, isoDayFromNow(-1))['public.escort']).toBe(expected.escort);
    // Counting again refreshes today's row and leaves yesterday's as it was.
    await server.db.update(publicAdvertDays).set({ count: 99 }).where(eq(publicAdvertDays.day, isoDayFromNow(-1)));
    await countPublicAdverts(server.db, new Date());
    const again = await getJson<StatisticsAnswer>('/api/support/statisticsperday');
    expect(rowOf(again, isoDayFromNow(-1))['public.escort']).toBe(99);
    expect(again.rows.at(-1)!['public.escort']).toBe(expected.escort);
  });

  it('runs hourly and once more a minute before Copenhagen midnight', () => {
    const midnight = startOfCopenhagenDay('2026-06-15');
    expect(nextPublicAdvertCount(new Date(midnight.getTime() - 30 * 60_000)).toISOString()).toBe(new Date(midnight.getTime() - 60_000).toISOString());
    expect(nextPublicAdvertCount(new Date(midnight.getTime() - 3 * HOUR)).getTime()).toBe(midnight.getTime() - 2 * HOUR);
    expect(nextPublicAdvertCount(new Date(midnight.getTime() - 30_000)).getTime()).toBe(midnight.getTime() - 30_000 + HOUR);
  });
});

describe('who may read them', () => {
  it('refuses Support and SEO users', async () => {
    for (const cookie of [support, seo]) {
      for (const path of ['statisticsperday', 'statisticspermonth', 'statisticsprofilecreated']) {
        expect((await call(server, `/api/support/${path}`, { cookie })).status).toBe(403);
      }
      expect((await call(server, '/api/support/transparencyreport', { cookie, query: { From: D20, To: D2 } })).status).toBe(403);
    }
  });
});

describe('speed: every query is bounded by its range on an index', () => {
  it('plans no full scan of a large table for any figure (with sequential scans priced out)', async () => {
    const captured: SQL[] = [];
    const dialect = new PgDialect();
    // The database, and any transaction on it, recording every query the figures run.
    const recording = (db: Db): Db =>
      new Proxy(db, {
        get(target, property, receiver) {
          if (property === 'execute') {
            return (query: SQL) => {
              if (!/^\s*set /i.test(dialect.sqlToQuery(query).sql)) captured.push(query);
              return target.execute(query);
            };
          }
          if (property === 'transaction') {
            return (work: (tx: Db) => Promise<unknown>, config?: PgTransactionConfig) => target.transaction((tx) => work(recording(tx)), config);
          }
          return Reflect.get(target, property, receiver) as unknown;
        },
      });
    const db = recording(server.db);
    const ctx: DomainContext = {
      db,
      actor: { type: 'support', supportUserId: 1, sessionId: '', roles: ['Administration'], permissions: ['stats:read:any'] },
      events: { publish: () => {} },
      now: () => new Date(),
    };
    await statisticsPerDay(ctx);
    await statisticsPerMonth(ctx);
    await transparencyReport(ctx, { From: D20, To: D2 });
    expect(captured.length).toBeGreaterThanOrEqual(12);
    const large = ['adverts', 'audit_log', 'content_reports', 'verifications', 'sales_documents', 'orders', 'search_term_days', 'public_advert_days', 'statements_of_reasons'];
    const plans: string[] = [];
    for (const query of captured) {
      const plan = await server.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const result = await tx.execute(sql`explain ${query}`);
        return ((result as unknown as { rows?: Record<string, string>[] }).rows ?? (result as unknown as Record<string, string>[])).map((row) => Object.values(row)[0]).join('\n');
      });
      for (const table of large) expect(plan, plan).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
      plans.push(plan);
    }
    // The range indexes of migration 0021 (and the appeal index) are the ones read.
    for (const index of [
      'adverts_created_idx',
      'audit_log_action_created_idx',
      'content_reports_created_idx',
      'content_reports_decided_idx',
      'sales_documents_issued_idx',
      'verifications_decided_idx',
      'statements_of_reasons_created_idx',
      'statements_of_reasons_appeal_idx',
    ]) {
      expect(plans.join('\n')).toContain(index);
    }
  });
});
