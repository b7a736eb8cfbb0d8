import { and, count, desc, eq, gt, isNotNull, max } from 'drizzle-orm';
import {
  VALIDATION_STATUS,
  VERIFICATION_LIMITS,
  VERIFICATION_STATUS,
  type AgeCheckResult,
  type AgeCheckStart,
  type IdentificationAnswer,
} from '#lib/schemas/verification.ts';
import { adverts, verifications, type Verification } from '../../db/schema.ts';
import type { AgeCheckStatus, AgeVerificationProvider } from '../../adapters/types.ts';
import { SYSTEM, type DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { getOwnAdvert, publishAdvertChange, requireAdvertiserAccountId } from '../adverts/own-advert.ts';
import { requireMayVerify } from './verification-records.ts';
import { refuseWhileImpersonating } from '../accounts/impersonation.ts';

/**
 * The hosted age check (spec §7: ageestimation, checksession, yoticallback, updateidentification; §4 the
 * callback-age-verification route). A passed check is the provider's decision: it verifies the advert at
 * once (validation status 2, age verified), audited as the system. A failed check (under 18) changes
 * nothing public and is audited; after VERIFICATION_LIMITS.failedChecksBeforeLock of them (since support
 * last decided a verification of the account) the provider check is closed (409 tooManyAttempts) and
 * only the document or video route, which support decides, is left. A cancelled check does not count.
 */

export type AgeCheckDeps = { provider: AgeVerificationProvider; siteUrl: string };

const PROVIDER = 'provider';

/** Whether the account's failed checks (under 18) since support's last decision reached the limit. */
export async function isAgeCheckLocked(ctx: DomainContext, accountId: number): Promise<boolean> {
  const [last] = await ctx.db
    .select({ at: max(verifications.decidedAt) })
    .from(verifications)
    .where(and(eq(verifications.accountId, accountId), isNotNull(verifications.decidedBy)));
  const since = last?.at ? new Date(last.at) : new Date(0);
  const [row] = await ctx.db
    .select({ n: count() })
    .from(verifications)
    .where(
      and(
        eq(verifications.accountId, accountId),
        eq(verifications.method, PROVIDER),
        eq(verifications.status, VERIFICATION_STATUS.Declined),
        eq(verifications.reason, 'under18'),
        gt(verifications.decidedAt, since),
      ),
    );
  return (row?.n ?? 0) >= VERIFICATION_LIMITS.failedChecksBeforeLock;
}

/** ageestimation: starts a provider session for the advertiser; answers its id and the page to send the browser to. */
export async function startAgeCheck(ctx: DomainContext, deps: AgeCheckDeps): Promise<AgeCheckStart> {
  refuseWhileImpersonating(ctx.actor, 'verification.age_check');
  const advert = await getOwnAdvert(ctx);
  requireMayVerify(advert);
  if (await isAgeCheckLocked(ctx, advert.accountId)) {
    throw new AppError('CONFLICT', 'Too many failed age checks; upload an ID document instead', [{ field: 'SessionId', message: 'tooManyAttempts' }]);
  }
  const returnUrl = `${deps.siteUrl.replace(/\/$/, '')}/backend/callback-age-verification/`;
  const { sessionId, uri } = await deps.provider.startSession({ accountId: advert.accountId, returnUrl });
  const [row] = await ctx.db
    .insert(verifications)
    .values({
      advertId: advert.id,
      accountId: advert.accountId,
      method: PROVIDER,
      status: VERIFICATION_STATUS.Open,
      providerSessionId: sessionId,
      providerUri: uri,
      createdAt: ctx.now(),
    })
    .returning({ id: verifications.id });
  await writeAudit(ctx, { action: 'verification.provider_start', targetType: 'verification', targetId: row!.id, after: { advertId: advert.id } });
  return { sessionId, uri };
}

/**
 * Puts a passed check on the advert (validation status 2, age verified), as the system; nothing when it
 * is there already. Answers whether the advert changed.
 */
async function applyPassedCheck(ctx: DomainContext, row: Verification): Promise<boolean> {
  if (row.advertId === null || row.status !== VERIFICATION_STATUS.Validated) return false;
  const [advert] = await ctx.db.select().from(adverts).where(eq(adverts.id, row.advertId)).limit(1);
  if (!advert || advert.validationStatus === VALIDATION_STATUS.Rejected) return false;
  if (advert.validationStatus === VALIDATION_STATUS.Validated && advert.ageVerifiedAt !== null) return false;
  const system = { ...ctx, actor: SYSTEM };
  const ageVerifiedAt = advert.ageVerifiedAt ?? ctx.now();
  await ctx.db.update(adverts).set({ validationStatus: VALIDATION_STATUS.Validated, ageVerifiedAt }).where(eq(adverts.id, advert.id));
  await writeAudit(system, {
    action: 'advert.age_verified',
    targetType: 'advert',
    targetId: advert.id,
    before: { validationStatus: advert.validationStatus, ageVerifiedAt: advert.ageVerifiedAt },
    after: { validationStatus: VALIDATION_STATUS.Validated, ageVerifiedAt, verificationId: row.id, method: PROVIDER },
  });
  await publishAdvertChange(system, advert.id, 'advert.age_verified');
  return true;
}

/**
 * yoticallback (and checksession when the callback is late): records a provider's result on its session's
 * row, once; a result for a row already recorded changes nothing (callbacks may come twice). 404 for a
 * session we did not start. Audited as the system.
 */
export async function recordAgeCheckResult(ctx: DomainContext, sessionId: string, result: AgeCheckStatus): Promise<Verification> {
  const [row] = await ctx.db.select().from(verifications).where(eq(verifications.providerSessionId, sessionId)).limit(1);
  if (!row) throw notFound('Age check session');
  if (result.status === 'pending' || row.status !== VERIFICATION_STATUS.Open) return row;
  const system = { ...ctx, actor: SYSTEM };
  const passed = result.status === 'passed' && result.ageOver18 !== false;
  const reason = passed ? null : result.ageOver18 === false ? 'under18' : 'cancelled';
  const [recorded] = await ctx.db
    .update(verifications)
    .set({ status: passed ? VERIFICATION_STATUS.Validated : VERIFICATION_STATUS.Declined, reason, decidedAt: ctx.now() })
    .where(and(eq(verifications.id, row.id), eq(verifications.status, VERIFICATION_STATUS.Open)))
    .returning();
  if (!recorded) {
    const [now] = await ctx.db.select().from(verifications).where(eq(verifications.id, row.id));
    return now!;
  }
  await writeAudit(system, {
    action: passed ? 'verification.provider_passed' : 'verification.provider_failed',
    targetType: 'verification',
    targetId: row.id,
    before: { status: row.status },
    after: { status: recorded.status, advertId: row.advertId, reason },
  });
  if (passed) await applyPassedCheck(ctx, recorded);
  else if (reason === 'under18' && (await isAgeCheckLocked(ctx, row.accountId))) {
    await writeAudit(system, { action: 'verification.provider_locked', targetType: 'account', targetId: row.accountId, after: { advertId: row.advertId } });
  }
  return recorded;
}

/** The caller's own provider row for a session id (another advertiser's: 404, like one that does not exist). */
async function ownProviderRow(ctx: DomainContext, sessionId: string): Promise<Verification> {
  const accountId = requireAdvertiserAccountId(ctx);
  const [row] = await ctx.db
    .select()
    .from(verifications)
    .where(and(eq(verifications.providerSessionId, sessionId), eq(verifications.accountId, accountId), eq(verifications.method, PROVIDER)))
    .limit(1);
  if (!row) throw notFound('Age check session');
  return row;
}

/**
 * checksession (spec §3 Age-check result): valid when the check passed. Still running: not valid, with
 * the provider's page again. Failed or cancelled: not valid, with a new session's page to try again
 * (spec §4: "if not valid and a uri is given, the browser goes to it"), or no uri once the provider
 * check is closed (too many failures) or the advertiser may not verify (rejected).
 */
export async function checkAgeSession(ctx: DomainContext, deps: AgeCheckDeps, sessionId: string): Promise<AgeCheckResult> {
  let row = await ownProviderRow(ctx, sessionId);
  if (row.status === VERIFICATION_STATUS.Open) row = await recordAgeCheckResult(ctx, sessionId, await deps.provider.getResult(sessionId));
  if (row.status === VERIFICATION_STATUS.Validated) return { valid: true, uri: null };
  if (row.status === VERIFICATION_STATUS.Open) return { valid: false, uri: row.providerUri };
  // A newer session started (by an earlier checksession or ageestimation) and still running: that one.
  const [newer] = await ctx.db
    .select({ uri: verifications.providerUri })
    .from(verifications)
    .where(
      and(
        eq(verifications.accountId, row.accountId),
        eq(verifications.method, PROVIDER),
        eq(verifications.status, VERIFICATION_STATUS.Open),
        gt(verifications.id, row.id),
      ),
    )
    .orderBy(desc(verifications.id))
    .limit(1);
  if (newer?.uri) return { valid: false, uri: newer.uri };
  try {
    return { valid: false, uri: (await startAgeCheck(ctx, deps)).uri };
  } catch (error) {
    if (error instanceof AppError && error.code === 'CONFLICT') return { valid: false, uri: null };
    throw error;
  }
}

/**
 * updateidentification (ProfileId): the callback page records the passed check on the advert (spec §4
 * "The verification page with sessionId updates identification for the profile"). Idempotent: the
 * callback may have done it already. Answers the advert's validation status and age verification.
 */
export async function updateIdentification(ctx: DomainContext, profileId: number): Promise<IdentificationAnswer> {
  refuseWhileImpersonating(ctx.actor, 'verification.age_check');
  const advert = await getOwnAdvert(ctx);
  if (advert.id !== profileId) throw notFound('Advert');
  const [passed] = await ctx.db
    .select()
    .from(verifications)
    .where(and(eq(verifications.advertId, advert.id), eq(verifications.method, PROVIDER), eq(verifications.status, VERIFICATION_STATUS.Validated)))
    .orderBy(desc(verifications.id))
    .limit(1);
  if (passed) await applyPassedCheck(ctx, passed);
  const [now] = await ctx.db
    .select({ validationStatus: adverts.validationStatus, ageVerifiedAt: adverts.ageVerifiedAt })
    .from(adverts)
    .where(eq(adverts.id, advert.id));
  return { validationStatus: now!.validationStatus, ageVerifiedAt: now!.ageVerifiedAt?.toISOString() ?? null };
}
