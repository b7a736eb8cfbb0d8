import { and, eq, inArray } from 'drizzle-orm';
import { REPORT_STATUS, type ContentReportDetail, type DecideContentReportInput } from '#lib/schemas/moderation.ts';
import { adverts, contentReports } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requirePermission } from '../permissions.ts';
import { PROFILE_STATUS } from '../adverts/statuses.ts';
import { getSite, reportDecidedMessage } from '../accounts/account-messages.ts';
import { lockAdvert } from '../moderation/lock-advert.ts';
import { OPEN_REPORT_STATUSES, getReportDetail, minutesBetween } from './content-reports.ts';

const alreadyDecided = () => new AppError('CONFLICT', 'The report has already been decided', [{ field: 'Id', message: 'alreadyDecided' }]);

/**
 * Locks the reported advert (status 2 Locked through the transition table, with the reason) and issues
 * the advertiser a statement of reasons ('advert.locked'). An advert already locked is not locked again
 * (its lock had its own statement); a deleted or missing advert has nothing left to lock.
 */
async function lockReportedAdvert(
  ctx: DomainContext,
  advertId: number | null,
  input: { reason: string; rule: DecideContentReportInput['Rule']; reportId: number },
  deps: { messaging: Messaging },
): Promise<boolean> {
  if (advertId === null) return false;
  const [advert] = await ctx.db.select().from(adverts).where(eq(adverts.id, advertId)).limit(1);
  if (!advert || advert.deletedAt !== null || advert.status === PROFILE_STATUS.Deleted) return false;
  if (advert.status === PROFILE_STATUS.Locked) return false;
  await lockAdvert(ctx, advert, { reason: input.reason, rule: input.rule === '' ? null : input.rule, reportId: input.reportId }, deps);
  return true;
}

/**
 * decidecontentreport (Support: reports:decide:any): records support's decision on a report with its
 * reason (and rule), the time to decision, and who decided; 'lock-advert' locks the advert and sends the
 * advertiser a statement of reasons. The reporter, when they left an address, is told the report was
 * decided and the outcome in general words. Other reports about the same advert stay open (each is
 * decided on its own). 409 `alreadyDecided` when it was decided before.
 */
export async function decideContentReport(
  ctx: DomainContext,
  input: DecideContentReportInput,
  deps: { messaging: Messaging },
): Promise<ContentReportDetail> {
  requirePermission(ctx.actor, 'reports:decide:any');
  const [report] = await ctx.db.select().from(contentReports).where(eq(contentReports.id, input.Id)).limit(1);
  if (!report) throw notFound('Report');
  if (!OPEN_REPORT_STATUSES.includes(report.status as 0 | 1)) throw alreadyDecided();

  const decidedBy = ctx.actor.type === 'support' ? ctx.actor.supportUserId : null;
  const decidedAt = ctx.now();
  const actionTaken = input.Decision === 'lock-advert';
  const rule = input.Rule === '' ? null : input.Rule;
  // Claim the report first, so that two support users deciding at once cannot both act on it.
  const [claimed] = await ctx.db
    .update(contentReports)
    .set({
      status: actionTaken ? REPORT_STATUS.ActionTaken : REPORT_STATUS.Dismissed,
      decision: input.Decision,
      decisionReason: input.Reason,
      rule,
      decidedBy,
      decidedAt,
    })
    .where(and(eq(contentReports.id, report.id), inArray(contentReports.status, OPEN_REPORT_STATUSES)))
    .returning({ id: contentReports.id });
  if (!claimed) throw alreadyDecided();

  const locked = actionTaken ? await lockReportedAdvert(ctx, report.advertId, { reason: input.Reason, rule: input.Rule, reportId: report.id }, deps) : false;

  await writeAudit(ctx, {
    action: 'report.decide',
    targetType: 'report',
    targetId: report.id,
    before: { status: report.status, decision: null },
    after: {
      status: actionTaken ? REPORT_STATUS.ActionTaken : REPORT_STATUS.Dismissed,
      decision: input.Decision,
      rule,
      advertId: report.advertId,
      advertLocked: locked,
      minutesToDecision: minutesBetween(report.createdAt, decidedAt),
    },
    reason: input.Reason,
  });

  if (report.reporterEmail) {
    const site = await getSite(ctx.db);
    await deps.messaging.sendEmail(reportDecidedMessage(site, report.reporterEmail, { id: report.id, createdAt: report.createdAt, actionTaken }));
  }
  return getReportDetail(ctx, report.id);
}
