/**
 * The SQL pieces of Administration's figures and of the transparency report (issue 18;
 * docs/decisions/030-statistics.md): each figure is counted here, from its records, in one place, and
 * grouped by Copenhagen day, by Copenhagen month or over the whole range ('all'). Every query is bounded
 * by the range on an indexed column (migration 0021 added the indexes), so it reads only the range's
 * rows. The same SQL runs on PGlite and PostgreSQL.
 */
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import { SEARCH_KIND_OF_ADVERT } from '../search/refresh-advert-search.ts';

/** How rows are grouped: by Copenhagen day ('yyyy-MM-dd'), by month ('yyyy-MM'), or all in one ('all'). */
export type Grouping = 'day' | 'month' | 'all';

/** A range of whole Copenhagen days: `from`..`to` inclusive, and the instants they span [start, end). */
export type StatisticsRange = { from: string; to: string; start: Date; end: Date };

const FORMATS = { day: 'YYYY-MM-DD', month: 'YYYY-MM' } as const;

/** The period a timestamp (`timestamptz` column, given as raw SQL) falls in, as text. */
function periodOfInstant(grouping: Grouping, column: string): SQL {
  if (grouping === 'all') return sql.raw(`'all'`);
  return sql.raw(`to_char(${column} at time zone 'Europe/Copenhagen', '${FORMATS[grouping]}')`);
}

/** The period a `date` column (already a Copenhagen day) falls in. */
function periodOfDay(grouping: Grouping, column: string): SQL {
  if (grouping === 'all') return sql.raw(`'all'`);
  return sql.raw(`to_char(${column}, '${FORMATS[grouping]}')`);
}

/** `column >= start and column < end`: the range condition every query uses on its indexed column. */
function inRange(column: string, range: StatisticsRange): SQL {
  return sql`${sql.raw(column)} >= ${range.start.toISOString()}::timestamptz and ${sql.raw(column)} < ${range.end.toISOString()}::timestamptz`;
}

/** Hours from one timestamp to a later one. */
const hoursBetween = (from: string, to: string) => sql.raw(`(extract(epoch from (${to} - ${from})) / 3600.0)`);

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

/**
 * adverts.created_at: the adverts created (the spec's profile-created). The total reads only the
 * created_at index (an index-only scan: adverts are wide rows); by public kind reads the rows too.
 */
export function advertsCreated(db: Db, grouping: Grouping, range: StatisticsRange, options: { byKind: boolean }) {
  const kinds = options.byKind
    ? sql`, count(*) filter (where ${SEARCH_KIND_OF_ADVERT} = 0)::int as escort,
        count(*) filter (where ${SEARCH_KIND_OF_ADVERT} = 1)::int as "transEscort",
        count(*) filter (where ${SEARCH_KIND_OF_ADVERT} = 2)::int as "thaiMassage"`
    : sql``;
  return rows<{ period: string; total: number; escort?: number; transEscort?: number; thaiMassage?: number }>(
    db,
    sql`select ${periodOfInstant(grouping, 'a.created_at')} as period, count(*)::int as total${kinds}
      from adverts a
      where ${inRange('a.created_at', range)}
      group by 1`,
  );
}

/**
 * The audit log's status changes (audit_log_action_created_idx): went live (an advert's first
 * 'advert.approve' only: approvals after an unlock or a decline are not new adverts going live), closed
 * (the advertiser's 'advert.deactivate', the deletion 'advert.deleted', and support's status change to
 * Deleted or Deactivated) and locked (support's 'advert.lock', from a report, the advert's page or a
 * rejected verification).
 */
export function advertStatusChanges(db: Db, grouping: Grouping, range: StatisticsRange) {
  // An advert's first approval in the range, kept when it had none before the range: a NOT EXISTS in the
  // WHERE clause, which the planner may answer with an anti-join or a probe of audit_log_target_idx.
  return rows<{ period: string; live: number; closed: number; locked: number }>(
    db,
    sql`select period, sum(live)::int as live, sum(closed)::int as closed, sum(locked)::int as locked
      from (
        select ${periodOfInstant(grouping, 'f.created_at')} as period, 1 as live, 0 as closed, 0 as locked
        from (
          select distinct on (l.target_id) l.target_id, l.created_at
          from audit_log l
          where l.action = 'advert.approve' and ${inRange('l.created_at', range)}
          order by l.target_id, l.created_at, l.id
        ) f
        where not exists (
          select 1 from audit_log e
          where e.target_type = 'advert' and e.target_id = f.target_id and e.action = 'advert.approve'
            and e.created_at < ${range.start.toISOString()}::timestamptz)
        union all
        select ${periodOfInstant(grouping, 'l.created_at')} as period, 0 as live,
          (l.action in ('advert.deactivate', 'advert.deleted') or (l.action = 'advert.status.change' and l.after->>'status' in ('3', '5')))::int as closed,
          (l.action = 'advert.lock')::int as locked
        from audit_log l
        where l.action in ('advert.deactivate', 'advert.deleted', 'advert.status.change', 'advert.lock') and ${inRange('l.created_at', range)}
      ) x
      group by period`,
  );
}

/**
 * public_advert_days: the public adverts at the end of each day by kind, as the daily count took them;
 * for a month, the last day counted in it. A day never counted has no row (the screen shows nothing).
 */
export function publicAdverts(db: Db, grouping: Exclude<Grouping, 'all'>, range: StatisticsRange) {
  const period = periodOfDay(grouping, 'p.day');
  return rows<{ period: string; kind: string; count: number }>(
    db,
    sql`select distinct on (${period}, p.kind) ${period} as period, p.kind, p.count
      from public_advert_days p
      where p.day >= ${range.from}::date and p.day <= ${range.to}::date
      order by ${period}, p.kind, p.day desc`,
  );
}

/**
 * Sales documents issued (sales_documents_issued_idx) with their order's product: paid orders, net and
 * VAT from the receipts; refunds (count and total incl. VAT) from the credit notes of refunded orders;
 * chargebacks from the credit notes of charged-back orders (reverseOrder issues the credit note in the
 * same transaction as the order's move to 5 ChargedBack, and a charged-back order moves no further).
 */
export function sales(db: Db, grouping: Grouping, range: StatisticsRange) {
  return rows<{ period: string; product: number; orders: number; net: number; vat: number; refunds: number; refunded: number; chargebacks: number }>(
    db,
    sql`select ${periodOfInstant(grouping, 'd.issued_at')} as period, o.product_type::int as product,
        count(*) filter (where d.kind = 'receipt')::int as orders,
        coalesce(sum(d.net_ore) filter (where d.kind = 'receipt'), 0)::float8 as net,
        coalesce(sum(d.vat_ore) filter (where d.kind = 'receipt'), 0)::float8 as vat,
        count(*) filter (where d.kind = 'credit_note' and o.status <> 5)::int as refunds,
        coalesce(sum(d.total_ore) filter (where d.kind = 'credit_note' and o.status <> 5), 0)::float8 as refunded,
        count(*) filter (where d.kind = 'credit_note' and o.status = 5)::int as chargebacks
      from sales_documents d
      join orders o on o.id = d.order_id
      where d.kind in ('receipt', 'credit_note') and ${inRange('d.issued_at', range)}
      group by 1, 2`,
  );
}

/** Visitors' searches (search_term_days, by its primary key's day) and those that found nothing. */
export function searches(db: Db, grouping: Grouping, range: StatisticsRange) {
  return rows<{ period: string; searches: number; noResults: number }>(
    db,
    sql`select ${periodOfDay(grouping, 's.day')} as period, sum(s.searches)::float8 as searches, sum(s.no_results)::float8 as "noResults"
      from search_term_days s
      where s.day >= ${range.from}::date and s.day <= ${range.to}::date
      group by 1`,
  );
}

/**
 * Reports (notices) received in the range (content_reports_created_idx), by reason and in all (`reason`
 * null), with their outcome as it stands now (2 action taken, 3 dismissed, 0/1 still open) and the median
 * hours from report to decision of those decided.
 */
export function reportsReceived(db: Db, grouping: Grouping, range: StatisticsRange) {
  return rows<{ period: string; reason: string | null; received: number; actionTaken: number; noAction: number; open: number; medianHours: number | null }>(
    db,
    sql`select period, reason, count(*)::int as received,
        count(*) filter (where status = 2)::int as "actionTaken",
        count(*) filter (where status = 3)::int as "noAction",
        count(*) filter (where status in (0, 1))::int as open,
        percentile_cont(0.5) within group (order by hours) as "medianHours"
      from (
        select ${periodOfInstant(grouping, 'r.created_at')} as period, r.reason, r.status,
          case when r.decided_at is not null then ${hoursBetween('r.created_at', 'r.decided_at')} end as hours
        from content_reports r
        where ${inRange('r.created_at', range)}
      ) x
      group by grouping sets ((period, reason), (period))`,
  );
}

/**
 * Reports decided in the range (content_reports_decided_idx): how many, the median and 90th percentile
 * hours from report to decision, and how many were decided within 7 days of being received.
 */
export function reportsDecided(db: Db, grouping: Grouping, range: StatisticsRange) {
  const hours = hoursBetween('r.created_at', 'r.decided_at');
  return rows<{ period: string; decided: number; medianHours: number | null; p90Hours: number | null; within7Days: number }>(
    db,
    sql`select ${periodOfInstant(grouping, 'r.decided_at')} as period, count(*)::int as decided,
        percentile_cont(0.5) within group (order by ${hours}) as "medianHours",
        percentile_cont(0.9) within group (order by ${hours}) as "p90Hours",
        count(*) filter (where r.decided_at - r.created_at <= interval '7 days')::int as "within7Days"
      from content_reports r
      where ${inRange('r.decided_at', range)}
      group by 1`,
  );
}

/**
 * Reports open for more than 7 days at each moment given (a period's end, or now for the current one):
 * received more than 7 days before it and not decided by then. Only a report still open, or decided after
 * the range began (content_reports_decided_idx) and more than 7 days after it came in, can ever count, so
 * the join stays small however many reports there are.
 */
export function reportsOpenOver7Days(db: Db, moments: { period: string; at: Date }[], range: StatisticsRange) {
  if (moments.length === 0) return Promise.resolve([]);
  const values = sql.join(
    moments.map((moment) => sql`(${moment.period}::text, ${moment.at.toISOString()}::timestamptz)`),
    sql`, `,
  );
  const latest = sql`${range.end.toISOString()}::timestamptz - interval '7 days'`;
  return rows<{ period: string; open: number }>(
    db,
    sql`select p.period, count(r.created_at)::int as open
      from (values ${values}) as p(period, at)
      left join (
        select created_at, decided_at from content_reports
        where decided_at >= ${range.start.toISOString()}::timestamptz and created_at < ${latest} and decided_at - created_at > interval '7 days'
        union all
        select created_at, decided_at from content_reports where decided_at is null and created_at < ${latest}
      ) r on r.created_at < p.at - interval '7 days' and (r.decided_at is null or r.decided_at >= p.at)
      group by p.period`,
  );
}

/**
 * Verifications decided in the range (verifications_decided_idx): 2 validated, 3 declined, 4 rejected,
 * and the median hours from submission to decision.
 */
export function verificationsDecided(db: Db, grouping: Grouping, range: StatisticsRange) {
  return rows<{ period: string; decided: number; validated: number; declined: number; rejected: number; medianHours: number | null }>(
    db,
    sql`select ${periodOfInstant(grouping, 'v.decided_at')} as period, count(*)::int as decided,
        count(*) filter (where v.status = 2)::int as validated,
        count(*) filter (where v.status = 3)::int as declined,
        count(*) filter (where v.status = 4)::int as rejected,
        percentile_cont(0.5) within group (order by ${hoursBetween('v.submitted_at', 'v.decided_at')}) as "medianHours"
      from verifications v
      where v.status in (2, 3, 4) and ${inRange('v.decided_at', range)}
      group by 1`,
  );
}

/**
 * Statements of reasons issued in the range (statements_of_reasons_created_idx), by decision and by
 * whether they answered a report (report_id) or were support's own initiative (report_id null).
 */
export function statementsIssued(db: Db, grouping: Grouping, range: StatisticsRange) {
  return rows<{ period: string; decision: string; ownInitiative: boolean; count: number }>(
    db,
    sql`select ${periodOfInstant(grouping, 's.created_at')} as period, s.decision, (s.report_id is null) as "ownInitiative", count(*)::int as count
      from statements_of_reasons s
      where ${inRange('s.created_at', range)}
      group by 1, 2, 3`,
  );
}

/** Appeals received in the range (statements_of_reasons_appeal_idx), and how many of them are still undecided. */
export function appealsReceived(db: Db, grouping: Grouping, range: StatisticsRange) {
  return rows<{ period: string; received: number; pending: number }>(
    db,
    sql`select ${periodOfInstant(grouping, 's.appealed_at')} as period, count(*)::int as received,
        count(*) filter (where s.appeal_decided_at is null)::int as pending
      from statements_of_reasons s
      where ${inRange('s.appealed_at', range)}
      group by 1`,
  );
}

/**
 * Appeals decided in the range, by outcome, with the median hours from appeal to decision. An appeal is
 * decided after it was made, so `appealed_at < end` bounds the rows by the appeal index too.
 */
export function appealsDecided(db: Db, grouping: Grouping, range: StatisticsRange) {
  return rows<{ period: string; upheld: number; reversed: number; medianHours: number | null }>(
    db,
    sql`select ${periodOfInstant(grouping, 's.appeal_decided_at')} as period,
        count(*) filter (where s.appeal_decision = 'upheld')::int as upheld,
        count(*) filter (where s.appeal_decision = 'reversed')::int as reversed,
        percentile_cont(0.5) within group (order by ${hoursBetween('s.appealed_at', 's.appeal_decided_at')}) as "medianHours"
      from statements_of_reasons s
      where s.appealed_at < ${range.end.toISOString()}::timestamptz and ${inRange('s.appeal_decided_at', range)}
      group by 1`,
  );
}
