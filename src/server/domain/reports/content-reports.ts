import { and, asc, count, desc, eq, inArray, ne } from 'drizzle-orm';
import {
  REPORT_DECISIONS,
  REPORT_STATUS,
  TERMS_RULES,
  type ContentReportDetail,
  type ContentReportItem,
  type ContentReportsQueryInput,
  type ReportDecision,
  type TermsRule,
} from '#lib/schemas/moderation.ts';
import { adverts, contentReports, supportUsers } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requirePermission } from '../permissions.ts';
import { isAdvertPublic } from '../adverts/visibility.ts';
import { advertPath } from '../search/advert-card.ts';

/** Reports waiting for a decision: New or In progress. */
export const OPEN_REPORT_STATUSES = [REPORT_STATUS.New, REPORT_STATUS.InProgress];
const DECIDED_REPORT_STATUSES = [REPORT_STATUS.ActionTaken, REPORT_STATUS.Dismissed];

/** The columns a report is shown with: the report, its advert (if any) and who decided. */
const reportColumns = {
  report: contentReports,
  advertName: adverts.name,
  advertStatus: adverts.status,
  advertExpirationDate: adverts.expirationDate,
  advertHolidayUntil: adverts.holidayUntil,
  advertApprovedAt: adverts.approvedAt,
  advertAgeVerifiedAt: adverts.ageVerifiedAt,
  advertDeletedAt: adverts.deletedAt,
  deciderName: supportUsers.name,
};

type ReportRow = {
  report: typeof contentReports.$inferSelect;
  advertName: string | null;
  advertStatus: number | null;
  advertExpirationDate: Date | null;
  advertHolidayUntil: Date | null;
  advertApprovedAt: Date | null;
  advertAgeVerifiedAt: Date | null;
  advertDeletedAt: Date | null;
  deciderName: string | null;
};

function selectReports(ctx: DomainContext) {
  return ctx.db
    .select(reportColumns)
    .from(contentReports)
    .leftJoin(adverts, eq(adverts.id, contentReports.advertId))
    .leftJoin(supportUsers, eq(supportUsers.id, contentReports.decidedBy));
}

/** The advert's public page, or null when the public cannot see it (or it is gone). */
function publicUrlOf(row: ReportRow, now: Date): string | null {
  const advertId = row.report.advertId;
  if (advertId === null || row.advertName === null || row.advertStatus === null) return null;
  const visible = isAdvertPublic(
    {
      status: row.advertStatus,
      expirationDate: row.advertExpirationDate,
      holidayUntil: row.advertHolidayUntil,
      approvedAt: row.advertApprovedAt,
      ageVerifiedAt: row.advertAgeVerifiedAt,
      deletedAt: row.advertDeletedAt,
    },
    now,
  );
  return visible ? advertPath({ id: advertId, name: row.advertName }) : null;
}

function toItem(row: ReportRow, now: Date): ContentReportItem {
  const { report } = row;
  return {
    id: report.id,
    advertId: report.advertId,
    advertName: row.advertName,
    advertUrl: publicUrlOf(row, now),
    reason: report.reason,
    priority: report.priority,
    status: report.status,
    reporterName: report.reporterName,
    reporterEmail: report.reporterEmail,
    createdAt: report.createdAt.toISOString(),
    decidedAt: report.decidedAt?.toISOString() ?? null,
  };
}

const asDecision = (value: string | null): ReportDecision | null =>
  (REPORT_DECISIONS as readonly string[]).includes(value ?? '') ? (value as ReportDecision) : null;
const asRule = (value: string | null): TermsRule | null =>
  (TERMS_RULES as readonly string[]).includes(value ?? '') ? (value as TermsRule) : null;

/** Whole minutes from the report to its decision. */
export function minutesBetween(from: Date, to: Date): number {
  return Math.round((to.getTime() - from.getTime()) / 60_000);
}

async function toDetail(ctx: DomainContext, row: ReportRow): Promise<ContentReportDetail> {
  const { report } = row;
  const now = ctx.now();
  const item = toItem(row, now);
  const [others] =
    report.advertId === null
      ? [{ total: 0 }]
      : await ctx.db
          .select({ total: count() })
          .from(contentReports)
          .where(and(eq(contentReports.advertId, report.advertId), ne(contentReports.id, report.id)));
  return {
    ...item,
    details: report.details,
    url: report.advertUrl,
    goodFaith: report.goodFaith,
    decision: asDecision(report.decision),
    decisionReason: report.decisionReason,
    rule: asRule(report.rule),
    decidedBy: report.decidedBy !== null ? { id: report.decidedBy, name: row.deciderName ?? '' } : null,
    minutesToDecision: report.decidedAt ? minutesBetween(report.createdAt, report.decidedAt) : null,
    advert:
      report.advertId !== null && row.advertName !== null && row.advertStatus !== null
        ? { id: report.advertId, name: row.advertName, status: row.advertStatus, url: item.advertUrl }
        : null,
    otherReports: Number(others?.total ?? 0),
  };
}

/** One report row with its advert and decider, or null (no permission check: callers check theirs). */
export async function findReportRow(ctx: DomainContext, id: number): Promise<ReportRow | null> {
  const [row] = await selectReports(ctx).where(eq(contentReports.id, id)).limit(1);
  return row ?? null;
}

/** The report as support sees it (no permission check: callers check theirs). */
export async function getReportDetail(ctx: DomainContext, id: number): Promise<ContentReportDetail> {
  const row = await findReportRow(ctx, id);
  if (!row) throw notFound('Report');
  return toDetail(ctx, row);
}

/**
 * contentreports (Support: reports:decide:any): open reports urgent first (priority), then oldest first;
 * decided ones newest decision first; all: the open ones first, then the decided ones.
 */
export async function listContentReports(
  ctx: DomainContext,
  input: { skip: number; take: number; status: ContentReportsQueryInput['Status'] },
): Promise<{ total: number; items: ContentReportItem[] }> {
  requirePermission(ctx.actor, 'reports:decide:any');
  const where =
    input.status === 'open'
      ? inArray(contentReports.status, OPEN_REPORT_STATUSES)
      : input.status === 'decided'
        ? inArray(contentReports.status, DECIDED_REPORT_STATUSES)
        : undefined;
  // Open reports have no decision time, and DESC puts nulls first: open ones (urgent first, then oldest),
  // then decided ones, newest decision first.
  const order = [desc(contentReports.decidedAt), desc(contentReports.priority), asc(contentReports.createdAt), asc(contentReports.id)];
  const [totals, rows] = await Promise.all([
    ctx.db.select({ total: count() }).from(contentReports).where(where),
    selectReports(ctx)
      .where(where)
      .orderBy(...order)
      .offset(input.skip)
      .limit(input.take),
  ]);
  const now = ctx.now();
  return { total: Number(totals[0]?.total ?? 0), items: rows.map((row) => toItem(row, now)) };
}

/**
 * contentreport (Support): one report with its details, decision and advert. Opening a New report marks
 * it In progress (audited), so the queue shows someone is on it.
 */
export async function getContentReport(ctx: DomainContext, id: number): Promise<ContentReportDetail> {
  requirePermission(ctx.actor, 'reports:decide:any');
  const row = await findReportRow(ctx, id);
  if (!row) throw notFound('Report');
  if (row.report.status === REPORT_STATUS.New) {
    const [opened] = await ctx.db
      .update(contentReports)
      .set({ status: REPORT_STATUS.InProgress })
      .where(and(eq(contentReports.id, id), eq(contentReports.status, REPORT_STATUS.New)))
      .returning({ id: contentReports.id });
    if (opened) {
      await writeAudit(ctx, {
        action: 'report.open',
        targetType: 'report',
        targetId: id,
        before: { status: REPORT_STATUS.New },
        after: { status: REPORT_STATUS.InProgress },
      });
      row.report = { ...row.report, status: REPORT_STATUS.InProgress };
    }
  }
  return toDetail(ctx, row);
}
