import { and, asc, count, desc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  APPEAL_DECISIONS,
  STATEMENT_DECISIONS,
  TERMS_RULES,
  type AppealDecision,
  type AppealItem,
  type AppealsQueryInput,
  type DecideAppealInput,
  type StatementDecision,
  type StatementOfReasons,
  type TermsRule,
} from '#lib/schemas/moderation.ts';
import { adverts, pictures, statementsOfReasons, supportUsers, videos } from '../../db/schema.ts';
import type { MediaStorage, Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requireAdvertiser, requirePermission } from '../permissions.ts';
import { changeAdvertStatus } from '../adverts/change-status.ts';
import { PROFILE_STATUS } from '../adverts/statuses.ts';
import { MODERATION, moderatePicture } from '../media/pictures.ts';
import { VIDEO_MODERATION, approveVideo } from '../media/videos.ts';
import { reverseVerificationDecision } from '../verification/reverse-decision.ts';
import type { VerificationPolicy } from '../verification/support-validation.ts';
import { refuseWhileImpersonating } from '../accounts/impersonation.ts';
import { appealOutcomeText } from './moderation-texts.ts';
import { noticeToAdvertiser } from './statements.ts';

type Statement = typeof statementsOfReasons.$inferSelect;

const iso = (value: Date | null): string | null => value?.toISOString() ?? null;
const asDecision = (value: string): StatementDecision =>
  (STATEMENT_DECISIONS as readonly string[]).includes(value) ? (value as StatementDecision) : 'report.content_removed';
const asRule = (value: string | null): TermsRule | null =>
  (TERMS_RULES as readonly string[]).includes(value ?? '') ? (value as TermsRule) : null;
const asAppealDecision = (value: string | null): AppealDecision | null =>
  (APPEAL_DECISIONS as readonly string[]).includes(value ?? '') ? (value as AppealDecision) : null;

function toStatement(row: Statement): StatementOfReasons {
  return {
    id: row.id,
    decision: asDecision(row.decision),
    what: row.what,
    reason: row.reason,
    rule: asRule(row.rule),
    createdAt: row.createdAt.toISOString(),
    appeal:
      row.appealedAt && row.appealText !== null
        ? {
            text: row.appealText,
            appealedAt: row.appealedAt.toISOString(),
            decision: asAppealDecision(row.appealDecision),
            decidedAt: iso(row.appealDecidedAt),
            reason: row.appealReason,
          }
        : null,
  };
}

// ---- The advertiser (backend) ---------------------------------------------------------------------

/** statementsofreasons (backend): the advertiser's own statements of reasons with their appeals, newest first. */
export async function listOwnStatements(ctx: DomainContext): Promise<StatementOfReasons[]> {
  requireAdvertiser(ctx.actor);
  const rows = await ctx.db
    .select()
    .from(statementsOfReasons)
    .where(eq(statementsOfReasons.accountId, ctx.actor.accountId))
    .orderBy(desc(statementsOfReasons.createdAt), desc(statementsOfReasons.id));
  return rows.map(toStatement);
}

/**
 * appealstatement (backend): the advertiser appeals against one of their statements of reasons, once;
 * the appeal goes to support's queue (decided by another support user). 404 for someone else's
 * statement, 409 `alreadyAppealed` the second time. Audited.
 */
export async function appealStatement(ctx: DomainContext, input: { id: number; text: string }): Promise<void> {
  requireAdvertiser(ctx.actor);
  refuseWhileImpersonating(ctx.actor, 'appeal.submit');
  const [row] = await ctx.db
    .select()
    .from(statementsOfReasons)
    .where(and(eq(statementsOfReasons.id, input.id), eq(statementsOfReasons.accountId, ctx.actor.accountId)))
    .limit(1);
  if (!row) throw notFound('Statement of reasons');
  const alreadyAppealed = new AppError('CONFLICT', 'The decision has already been appealed', [{ field: 'Id', message: 'alreadyAppealed' }]);
  if (row.appealedAt) throw alreadyAppealed;
  const appealedAt = ctx.now();
  const [updated] = await ctx.db
    .update(statementsOfReasons)
    .set({ appealText: input.text, appealedAt })
    .where(and(eq(statementsOfReasons.id, row.id), isNull(statementsOfReasons.appealedAt)))
    .returning({ id: statementsOfReasons.id });
  if (!updated) throw alreadyAppealed;
  await writeAudit(ctx, {
    action: 'statement.appeal',
    targetType: 'statement',
    targetId: row.id,
    before: { appealedAt: null },
    after: { appealedAt, decision: row.decision, advertId: row.advertId },
  });
}

// ---- Support --------------------------------------------------------------------------------------

/** Who decided an appeal (another support user than the one who made the decision). */
const appealDecider = alias(supportUsers, 'appeal_decider');

/** Appealed statements matching `where`, with the advert's name and both deciders, in queue order. */
function appealRows(ctx: DomainContext, where: SQL | undefined) {
  return ctx.db
    .select({ statement: statementsOfReasons, advertName: adverts.name, deciderName: supportUsers.name, appealDeciderName: appealDecider.name })
    .from(statementsOfReasons)
    .leftJoin(adverts, eq(adverts.id, statementsOfReasons.advertId))
    .leftJoin(supportUsers, eq(supportUsers.id, statementsOfReasons.createdBy))
    .leftJoin(appealDecider, eq(appealDecider.id, statementsOfReasons.appealDecidedBy))
    .where(where)
    .orderBy(asc(statementsOfReasons.appealedAt), asc(statementsOfReasons.id));
}

function appealItemOf({ statement, advertName, deciderName, appealDeciderName }: Awaited<ReturnType<typeof appealRows>>[number]): AppealItem {
  return {
    id: statement.id,
    advertId: statement.advertId,
    advertName,
    decision: asDecision(statement.decision),
    reason: statement.reason,
    rule: asRule(statement.rule),
    decidedBy: statement.createdBy !== null ? { id: statement.createdBy, name: deciderName ?? '' } : null,
    appealText: statement.appealText ?? '',
    appealedAt: statement.appealedAt!.toISOString(),
    appealDecision: asAppealDecision(statement.appealDecision),
    appealReason: statement.appealReason,
    appealDecidedBy: statement.appealDecidedBy !== null ? { id: statement.appealDecidedBy, name: appealDeciderName ?? '' } : null,
    appealDecidedAt: iso(statement.appealDecidedAt),
  };
}

/**
 * appeals (Support: advert:moderate:any): appealed statements, oldest appeal first; open ones (the default)
 * or decided ones. `decidedBy` is who made the original decision (they may not decide the appeal).
 */
export async function listAppeals(
  ctx: DomainContext,
  input: { skip: number; take: number; status: AppealsQueryInput['Status'] },
): Promise<{ total: number; items: AppealItem[] }> {
  requirePermission(ctx.actor, 'advert:moderate:any');
  const where = and(
    isNotNull(statementsOfReasons.appealedAt),
    input.status === 'open' ? isNull(statementsOfReasons.appealDecidedAt) : isNotNull(statementsOfReasons.appealDecidedAt),
  );
  const [totals, rows] = await Promise.all([
    ctx.db.select({ total: count() }).from(statementsOfReasons).where(where),
    appealRows(ctx, where).offset(input.skip).limit(input.take),
  ]);
  return { total: Number(totals[0]?.total ?? 0), items: rows.map(appealItemOf) };
}

/** appeal (Support: advert:moderate:any): one appeal by its statement's id, open or decided; 404 when there is none. */
export async function getAppeal(ctx: DomainContext, id: number): Promise<AppealItem> {
  requirePermission(ctx.actor, 'advert:moderate:any');
  const [row] = await appealRows(ctx, and(eq(statementsOfReasons.id, id), isNotNull(statementsOfReasons.appealedAt))).limit(1);
  if (!row) throw notFound('Appeal');
  return appealItemOf(row);
}

/**
 * Undoes what a statement decided, as far as it can: a locked advert is unlocked (back to Active when
 * support had approved it, else New, through the transition table); a declined picture or video that
 * still exists is approved; a declined or rejected verification counts as accepted (and the advert a
 * rejection locked is unlocked). Removed media cannot come back (the advertiser is told they may upload
 * it again). Answers what was restored, for the audit log.
 */
async function reverseDecision(
  ctx: DomainContext,
  statement: Statement,
  reason: string,
  deps: { messaging: Messaging; storage: MediaStorage; policy: VerificationPolicy },
): Promise<string | null> {
  const decision = asDecision(statement.decision);
  if (decision === 'advert.locked' && statement.advertId !== null) {
    const [advert] = await ctx.db.select().from(adverts).where(eq(adverts.id, statement.advertId)).limit(1);
    if (!advert || advert.status !== PROFILE_STATUS.Locked || advert.deletedAt !== null) return null;
    const to = advert.approvedAt ? PROFILE_STATUS.Active : PROFILE_STATUS.New;
    await changeAdvertStatus(ctx, advert, to, { action: 'advert.unlock', extra: { statusReason: null }, reason });
    return `advert.status.${to}`;
  }
  if (decision === 'picture.declined' && statement.targetId !== null) {
    const [picture] = await ctx.db.select().from(pictures).where(eq(pictures.id, statement.targetId)).limit(1);
    if (!picture || picture.deletedAt !== null || picture.moderationStatus !== MODERATION.declined) return null;
    await moderatePicture(ctx, deps.storage, { id: picture.id, decision: 'approve' }, deps);
    return 'picture.approved';
  }
  if (decision === 'video.declined' && statement.targetId !== null) {
    const [video] = await ctx.db.select().from(videos).where(eq(videos.id, statement.targetId)).limit(1);
    if (!video || video.deletedAt !== null || video.moderationStatus !== VIDEO_MODERATION.declined) return null;
    await approveVideo(ctx, { Id: video.id });
    return 'video.approved';
  }
  if ((decision === 'verification.declined' || decision === 'verification.rejected') && statement.targetId !== null) {
    return reverseVerificationDecision(ctx, statement.targetId, deps.policy);
  }
  return null;
}

/**
 * decideappeal (Support: advert:moderate:any): the appeal is upheld (the decision stands) or reversed
 * (undone as far as it can be: `reverseDecision`), with a reason; the advertiser is told in the backend
 * and by email. The support user who made the original decision may not decide its appeal (403
 * `sameModerator`); an appeal is decided once (409 `alreadyDecided`). Audited.
 */
export async function decideAppeal(
  ctx: DomainContext,
  input: DecideAppealInput,
  deps: { messaging: Messaging; storage: MediaStorage; policy: VerificationPolicy },
): Promise<void> {
  requirePermission(ctx.actor, 'advert:moderate:any');
  const [statement] = await ctx.db
    .select()
    .from(statementsOfReasons)
    .where(and(eq(statementsOfReasons.id, input.Id), isNotNull(statementsOfReasons.appealedAt)))
    .limit(1);
  if (!statement) throw notFound('Appeal');
  const decidedBy = ctx.actor.type === 'support' ? ctx.actor.supportUserId : null;
  if (decidedBy !== null && statement.createdBy === decidedBy) {
    throw new AppError('FORBIDDEN', 'Another support user must decide the appeal against your own decision', [
      { field: 'Id', message: 'sameModerator' },
    ]);
  }
  const alreadyDecided = new AppError('CONFLICT', 'The appeal has already been decided', [{ field: 'Id', message: 'alreadyDecided' }]);
  if (statement.appealDecidedAt) throw alreadyDecided;
  const decidedAt = ctx.now();
  // Claim the appeal first, so that two support users deciding at once cannot both act on it.
  const [claimed] = await ctx.db
    .update(statementsOfReasons)
    .set({ appealDecision: input.Decision, appealReason: input.Reason, appealDecidedBy: decidedBy, appealDecidedAt: decidedAt })
    .where(and(eq(statementsOfReasons.id, statement.id), isNull(statementsOfReasons.appealDecidedAt)))
    .returning({ id: statementsOfReasons.id });
  if (!claimed) throw alreadyDecided;

  const restored = input.Decision === 'reversed' ? await reverseDecision(ctx, statement, input.Reason, deps) : null;
  await writeAudit(ctx, {
    action: 'statement.appeal.decide',
    targetType: 'statement',
    targetId: statement.id,
    before: { appealDecision: null },
    after: { appealDecision: input.Decision, decision: statement.decision, advertId: statement.advertId, restored },
    reason: input.Reason,
  });
  if (statement.accountId !== null) {
    const text = appealOutcomeText({ decision: asDecision(statement.decision), outcome: input.Decision, reason: input.Reason });
    await noticeToAdvertiser(ctx, statement.accountId, text, deps);
  }
}
