import { and, asc, count, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';

import {
  VALIDATION_STATUS,
  VERIFICATION_KINDS,
  VERIFICATION_STATUS,
  type DecideValidationInput,
  type ValidationDetail,
  type ValidationItem,
  type ValidationProviderResult,
  type ValidationRisk,
  type VerificationKind,
} from '#lib/schemas/verification.ts';
import { accounts, adverts, cities, contentReports, supportUsers, verifications, type Verification } from '../../db/schema.ts';
import type { MediaStorage, Messaging, StoredObject } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requirePermission } from '../permissions.ts';
import { changeAdvertStatus } from '../adverts/change-status.ts';
import { PROFILE_STATUS } from '../adverts/statuses.ts';
import { publishAdvertChange } from '../adverts/own-advert.ts';
import { issueStatementOfReasons, noticeToAdvertiser } from '../moderation/statements.ts';
import { OPEN_REPORT_STATUSES } from '../reports/content-reports.ts';
import { alreadyDecided } from './verification-records.ts';
import { riskSignalsFor } from '../moderation/risk-signals.ts';
import { anyOf } from '../../db/any-of.ts';
import { revokeHandoffs } from './handoff.ts';
import { ageOn, MIN_AGE } from '#lib/schemas/account.ts';

/**
 * Support's validation queue (spec §6 Support: validation; §7 validation accept/decline/reject), all
 * under 'validation:decide:any'. Files are opened one at a time through validationfile, each opening
 * audited ('validation.file_opened'). Accept verifies the advert; decline tells the advertiser why (a
 * statement of reasons) and lets them upload again; reject is final (a minor, a forged document): the
 * advert is locked through the status table, with a statement of reasons. Deciding twice: 409 alreadyDecided.
 */

const PERMISSION = 'validation:decide:any';
const DECIDED = [VERIFICATION_STATUS.Validated, VERIFICATION_STATUS.Declined, VERIFICATION_STATUS.Rejected];
const iso = (value: Date | null): string | null => value?.toISOString() ?? null;

/** Support sees a verification once it is complete (not while the advertiser is still uploading). */
const supportVisible = (id: number) => and(eq(verifications.id, id), ne(verifications.status, VERIFICATION_STATUS.Open));

const columns = {
  row: verifications,
  advertName: adverts.name,
  advertAge: adverts.age,
  accountEmail: accounts.email,
  dateOfBirth: accounts.dateOfBirth,
};
type Row = { row: Verification; advertName: string | null; advertAge: number | null; accountEmail: string; dateOfBirth: string | null };

/**
 * Signals that ask for a careful look (they never decide alone), for many verifications at once: a date
 * of birth or an advert age under 18, failed provider age checks, a decline or rejection by support
 * before, an open report of a minor, and the advert's risk signals (`riskSignalsFor`).
 */
async function risksOfAll(ctx: DomainContext, items: readonly Row[]): Promise<Map<number, ValidationRisk[]>> {
  const accountIds = [...new Set(items.map((item) => item.row.accountId))];
  const advertIds = [...new Set(items.flatMap((item) => (item.row.advertId === null ? [] : [item.row.advertId])))];
  if (!items.length) return new Map();
  const [failed, declined, reports, signals] = await Promise.all([
    ctx.db
      .select({ accountId: verifications.accountId, n: count() })
      .from(verifications)
      .where(and(anyOf(verifications.accountId, accountIds), eq(verifications.method, 'provider'), eq(verifications.reason, 'under18')))
      .groupBy(verifications.accountId),
    ctx.db
      .select({ accountId: verifications.accountId, id: verifications.id })
      .from(verifications)
      .where(
        and(
          anyOf(verifications.accountId, accountIds),
          inArray(verifications.status, [VERIFICATION_STATUS.Declined, VERIFICATION_STATUS.Rejected]),
          isNotNull(verifications.decidedBy),
        ),
      ),
    advertIds.length
      ? ctx.db
          .select({ advertId: contentReports.advertId, n: count() })
          .from(contentReports)
          .where(and(anyOf(contentReports.advertId, advertIds), eq(contentReports.reason, 'minor'), inArray(contentReports.status, OPEN_REPORT_STATUSES)))
          .groupBy(contentReports.advertId)
      : Promise.resolve([]),
    riskSignalsFor(ctx.db, advertIds),
  ]);
  const failedAccounts = new Set(failed.filter((row) => Number(row.n) > 0).map((row) => row.accountId));
  const reportedAdverts = new Set(reports.filter((row) => Number(row.n) > 0).map((row) => row.advertId));
  const now = ctx.now();
  return new Map(
    items.map((item) => {
      const { row } = item;
      const risks: ValidationRisk[] = [];
      if (item.dateOfBirth && ageOn(item.dateOfBirth, now) < MIN_AGE) risks.push('under18ByDateOfBirth');
      if (item.advertAge !== null && item.advertAge < 18) risks.push('under18ByAdvertAge');
      if (failedAccounts.has(row.accountId)) risks.push('failedAgeChecks');
      if (declined.some((earlier) => earlier.accountId === row.accountId && earlier.id < row.id)) risks.push('declinedBefore');
      if (row.advertId !== null && reportedAdverts.has(row.advertId)) risks.push('minorReported');
      if (row.advertId !== null) risks.push(...(signals.get(row.advertId)?.risk ?? []));
      return [row.id, risks];
    }),
  );
}

/**
 * Whether accepting verifies with a built-in TEST provider's result: in development and tests only
 * (`testResultsMayVerify`, false with NODE_ENV=production; docs/decisions/019-test-providers-and-yoti.md).
 */
export type VerificationPolicy = { testResultsMayVerify: boolean };

/** A 'provider' row's provider: rows from before the provider was recorded came from the test provider. */
export const isTestProviderRow = (row: Verification): boolean => row.method === 'provider' && (row.provider ?? 'test') === 'test';

function providerOf(row: Verification, policy: VerificationPolicy): ValidationProviderResult | null {
  if (row.method !== 'provider') return null;
  const test = isTestProviderRow(row);
  const result = row.providerResult;
  return {
    name: row.provider ?? 'test',
    test,
    mayVerify: !test || policy.testResultsMayVerify,
    status: result?.status ?? null,
    ageOver18: result?.ageOver18 ?? null,
    providerStatus: result?.providerStatus ?? null,
    method: result?.method ?? null,
    threshold: result?.threshold ?? null,
    receivedAt: result?.receivedAt ?? null,
  };
}

/** 409 testProviderResult: a TEST provider's result cannot verify anyone here (production). */
export function refuseTestResult(row: Verification, policy: VerificationPolicy): void {
  if (isTestProviderRow(row) && !policy.testResultsMayVerify) {
    throw new AppError('CONFLICT', 'A TEST provider checked no age: its result cannot verify an advertiser in production; decline it', [
      { field: 'Id', message: 'testProviderResult' },
    ]);
  }
}

function toItem(item: Row, risk: ValidationRisk[], policy: VerificationPolicy): ValidationItem {
  const { row } = item;
  return {
    id: row.id,
    advertId: row.advertId,
    advertName: item.advertName,
    accountEmail: item.accountEmail,
    method: row.method,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    submittedAt: iso(row.submittedAt),
    decidedAt: iso(row.decidedAt),
    risk,
    provider: providerOf(row, policy),
  };
}

async function toItems(ctx: DomainContext, rows: readonly Row[], policy: VerificationPolicy): Promise<ValidationItem[]> {
  const risks = await risksOfAll(ctx, rows);
  return rows.map((row) => toItem(row, risks.get(row.row.id) ?? [], policy));
}

/**
 * validations: verifications waiting for support (status 1 Pending; the default), those with a risk
 * signal first, then the oldest submission (the whole queue is ordered, then paged); or decided ones (by support or by the provider), the latest decision first. Paged.
 */
export async function listValidations(
  ctx: DomainContext,
  input: { skip: number; take: number; status: 'pending' | 'decided' },
  policy: VerificationPolicy,
): Promise<{ total: number; items: ValidationItem[] }> {
  requirePermission(ctx.actor, PERMISSION);
  const select = () =>
    ctx.db
      .select(columns)
      .from(verifications)
      .innerJoin(accounts, eq(accounts.id, verifications.accountId))
      .leftJoin(adverts, eq(adverts.id, verifications.advertId));
  if (input.status === 'pending') {
    // The whole queue is ordered before paging: flagged items first, then the oldest submission.
    const rows = await select()
      .where(eq(verifications.status, VERIFICATION_STATUS.Pending))
      .orderBy(asc(sql`coalesce(${verifications.submittedAt}, ${verifications.createdAt})`), asc(verifications.id));
    const items = await toItems(ctx, rows, policy);
    const ordered = items.map((item, index) => ({ item, index })).sort((a, b) => Number(b.item.risk.length > 0) - Number(a.item.risk.length > 0) || a.index - b.index);
    return { total: items.length, items: ordered.slice(input.skip, input.skip + input.take).map(({ item }) => item) };
  }
  const where = inArray(verifications.status, DECIDED);
  const [[total], rows] = await Promise.all([
    ctx.db.select({ n: count() }).from(verifications).where(where),
    select().where(where).orderBy(desc(verifications.decidedAt), desc(verifications.id)).offset(input.skip).limit(input.take),
  ]);
  return { total: Number(total?.n ?? 0), items: await toItems(ctx, rows, policy) };
}

async function findRow(ctx: DomainContext, id: number): Promise<Row> {
  const [row] = await ctx.db
    .select(columns)
    .from(verifications)
    .innerJoin(accounts, eq(accounts.id, verifications.accountId))
    .leftJoin(adverts, eq(adverts.id, verifications.advertId))
    .where(supportVisible(id))
    .limit(1);
  if (!row) throw notFound('Verification');
  return row;
}

/** validation: one verification with the advert's data to compare the files with, and the files to open. */
export async function getValidation(ctx: DomainContext, id: number, policy: VerificationPolicy): Promise<ValidationDetail> {
  requirePermission(ctx.actor, PERMISSION);
  const item = await findRow(ctx, id);
  const { row } = item;
  const [advert] =
    row.advertId === null
      ? []
      : await ctx.db
          .select({
            id: adverts.id,
            name: adverts.name,
            age: adverts.age,
            city: cities.name,
            phone: adverts.phone,
            status: adverts.status,
            validationStatus: adverts.validationStatus,
          })
          .from(adverts)
          .leftJoin(cities, eq(cities.id, adverts.cityId))
          .where(eq(adverts.id, row.advertId))
          .limit(1);
  const [decider] =
    row.decidedBy === null ? [] : await ctx.db.select({ id: supportUsers.id, name: supportUsers.name }).from(supportUsers).where(eq(supportUsers.id, row.decidedBy));
  return {
    ...(await toItems(ctx, [item], policy))[0]!,
    reason: row.reason,
    rule: row.rule,
    decidedBy: decider ?? null,
    filesDeletedAt: iso(row.filesDeletedAt),
    advert: advert ? { ...advert, dateOfBirth: item.dateOfBirth } : null,
    files: VERIFICATION_KINDS.flatMap((kind) => {
      const file = row.files.find((f) => f.kind === kind);
      return file ? [{ kind, uploadedAt: file.uploadedAt, url: `/api/support/validationfile?Id=${row.id}&Kind=${kind}` }] : [];
    }),
  };
}

/** validationfile: one file of a verification, for support's eyes only; every opening is audited. */
export async function openValidationFile(
  ctx: DomainContext,
  storage: MediaStorage,
  input: { id: number; kind: VerificationKind },
): Promise<StoredObject> {
  requirePermission(ctx.actor, PERMISSION);
  const [row] = await ctx.db.select().from(verifications).where(supportVisible(input.id)).limit(1);
  if (!row) throw notFound('Verification');
  const file = row.files.find((f) => f.kind === input.kind);
  const stored = file ? await storage.open('private', file.key) : null;
  if (!file || !stored) throw notFound('Verification file');
  await writeAudit(ctx, {
    action: 'validation.file_opened',
    targetType: 'verification',
    targetId: row.id,
    after: { kind: input.kind, advertId: row.advertId },
  });
  return { ...stored, contentType: file.contentType };
}

/** Claims a pending verification for a decision (two support users deciding at once: one wins, the other gets 409). */
async function claim(ctx: DomainContext, id: number, change: { status: number; reason?: string; rule?: string }): Promise<Verification> {
  const [row] = await ctx.db.select().from(verifications).where(eq(verifications.id, id)).limit(1);
  if (!row) throw notFound('Verification');
  if (row.status === VERIFICATION_STATUS.Open) {
    throw new AppError('CONFLICT', 'The verification is not complete yet', [{ field: 'Id', message: 'notSubmitted' }]);
  }
  if (row.status !== VERIFICATION_STATUS.Pending) throw alreadyDecided();
  const decidedBy = ctx.actor.type === 'support' ? ctx.actor.supportUserId : null;
  const [claimed] = await ctx.db
    .update(verifications)
    .set({ ...change, decidedBy, decidedAt: ctx.now() })
    .where(and(eq(verifications.id, id), eq(verifications.status, VERIFICATION_STATUS.Pending)))
    .returning();
  if (!claimed) throw alreadyDecided();
  await revokeHandoffs(ctx.db, row.accountId, ctx.now());
  return claimed;
}

async function advertOf(ctx: DomainContext, row: Verification) {
  if (row.advertId === null) return null;
  const [advert] = await ctx.db.select().from(adverts).where(eq(adverts.id, row.advertId)).limit(1);
  return advert ?? null;
}

/**
 * acceptvalidation: the advert is verified (validation status 2, age verified); the advertiser is told.
 * The one way an advert becomes verified, for documents, videos and online age checks alike; a TEST
 * provider's result only where the policy allows it (409 testProviderResult in production).
 */
export async function acceptValidation(
  ctx: DomainContext,
  id: number,
  deps: { messaging: Messaging; policy: VerificationPolicy },
): Promise<ValidationDetail> {
  requirePermission(ctx.actor, PERMISSION);
  const [found] = await ctx.db.select().from(verifications).where(eq(verifications.id, id)).limit(1);
  if (found) refuseTestResult(found, deps.policy);
  const row = await claim(ctx, id, { status: VERIFICATION_STATUS.Validated });
  const advert = await advertOf(ctx, row);
  const before = advert ? { validationStatus: advert.validationStatus, ageVerifiedAt: advert.ageVerifiedAt } : null;
  const ageVerifiedAt = advert?.ageVerifiedAt ?? ctx.now();
  if (advert) {
    await ctx.db.update(adverts).set({ validationStatus: VALIDATION_STATUS.Validated, ageVerifiedAt }).where(eq(adverts.id, advert.id));
  }
  await writeAudit(ctx, {
    action: 'validation.accept',
    targetType: 'verification',
    targetId: row.id,
    before: { status: VERIFICATION_STATUS.Pending, advert: before },
    after: {
      status: VERIFICATION_STATUS.Validated,
      advertId: row.advertId,
      method: row.method,
      provider: row.provider,
      validationStatus: VALIDATION_STATUS.Validated,
      ageVerifiedAt,
    },
  });
  if (advert) await publishAdvertChange(ctx, advert.id, 'validation.accept');
  await noticeToAdvertiser(
    ctx,
    row.accountId,
    {
      titleDa: 'Din identitet er bekræftet',
      titleEn: 'Your identity is verified',
      bodyDa: 'Support har godkendt din verifikation af alder og identitet.',
      bodyEn: 'Support approved the verification of your age and identity.',
      link: '/backend/verification/',
    },
    deps,
  );
  return getValidation(ctx, row.id, deps.policy);
}

/**
 * declinevalidation: not good enough (unreadable, the selfie does not match): status 3 Declined, the
 * advert's validation status Declined, a statement of reasons; the advertiser may upload again.
 */
export async function declineValidation(
  ctx: DomainContext,
  input: DecideValidationInput,
  deps: { messaging: Messaging; policy: VerificationPolicy },
): Promise<ValidationDetail> {
  requirePermission(ctx.actor, PERMISSION);
  const row = await claim(ctx, input.Id, { status: VERIFICATION_STATUS.Declined, reason: input.Reason, rule: input.Rule });
  const advert = await advertOf(ctx, row);
  if (advert) await ctx.db.update(adverts).set({ validationStatus: VALIDATION_STATUS.Declined }).where(eq(adverts.id, advert.id));
  await writeAudit(ctx, {
    action: 'validation.decline',
    targetType: 'verification',
    targetId: row.id,
    before: { status: VERIFICATION_STATUS.Pending, validationStatus: advert?.validationStatus ?? null },
    after: { status: VERIFICATION_STATUS.Declined, advertId: row.advertId, method: row.method, rule: input.Rule },
    reason: input.Reason,
  });
  await issueStatementOfReasons(
    ctx,
    { advertId: row.advertId, accountId: row.accountId, decision: 'verification.declined', what: advert?.name ?? '', reason: input.Reason, rule: input.Rule, targetId: row.id },
    deps,
  );
  return getValidation(ctx, row.id, deps.policy);
}

/**
 * rejectvalidation: final (a minor, a forged document): status 4 Rejected, the advert's validation status
 * Rejected (no new uploads), the advert locked through the status table, a statement of reasons.
 */
export async function rejectValidation(
  ctx: DomainContext,
  input: DecideValidationInput,
  deps: { messaging: Messaging; policy: VerificationPolicy },
): Promise<ValidationDetail> {
  requirePermission(ctx.actor, PERMISSION);
  const row = await claim(ctx, input.Id, { status: VERIFICATION_STATUS.Rejected, reason: input.Reason, rule: input.Rule });
  const advert = await advertOf(ctx, row);
  let locked = false;
  if (advert) {
    await ctx.db.update(adverts).set({ validationStatus: VALIDATION_STATUS.Rejected }).where(eq(adverts.id, advert.id));
    if (advert.deletedAt === null && advert.status !== PROFILE_STATUS.Locked && advert.status !== PROFILE_STATUS.Deleted) {
      await changeAdvertStatus(ctx, advert, PROFILE_STATUS.Locked, { action: 'advert.lock', extra: { statusReason: input.Reason }, reason: input.Reason });
      locked = true;
    }
  }
  await writeAudit(ctx, {
    action: 'validation.reject',
    targetType: 'verification',
    targetId: row.id,
    before: { status: VERIFICATION_STATUS.Pending, validationStatus: advert?.validationStatus ?? null, advertStatus: advert?.status ?? null },
    after: { status: VERIFICATION_STATUS.Rejected, advertId: row.advertId, method: row.method, rule: input.Rule, advertLocked: locked },
    reason: input.Reason,
  });
  await issueStatementOfReasons(
    ctx,
    { advertId: row.advertId, accountId: row.accountId, decision: 'verification.rejected', what: advert?.name ?? '', reason: input.Reason, rule: input.Rule, targetId: row.id },
    deps,
  );
  return getValidation(ctx, row.id, deps.policy);
}
