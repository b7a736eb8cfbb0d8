import { and, count, desc, eq, gt, inArray, isNotNull, max } from 'drizzle-orm';
import {
  VALIDATION_STATUS,
  VERIFICATION_LIMITS,
  VERIFICATION_STATUS,
  type AgeCheckResult,
  type AgeCheckStart,
  type IdentificationAnswer,
} from '#lib/schemas/verification.ts';
import { adverts, verifications, type ProviderResult, type Verification } from '../../db/schema.ts';
import { AgeProviderUnavailableError, type AgeCheckStatus, type AgeVerificationProvider } from '../../adapters/types.ts';
import { SYSTEM, type DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { getOwnAdvert, requireAdvertiserAccountId } from '../adverts/own-advert.ts';
import { requireMayVerify } from './verification-records.ts';
import { refuseWhileImpersonating } from '../accounts/impersonation.ts';

/**
 * The hosted age check (spec §7: ageestimation, checksession, yoticallback, updateidentification; §4 the
 * callback-age-verification route). A provider's check never decides alone (docs/decisions/019-test-providers-and-yoti.md):
 * a passed check is recorded on its verification row (the provider, what it answered) and the row goes
 * to support's validation queue (status 1 Pending, the advert's validation status Pending), where a person
 * accepts or declines it as for documents (support-validation.ts); only that acceptance verifies the
 * advert. A failed check (under 18) changes nothing public and is audited; after
 * VERIFICATION_LIMITS.failedChecksBeforeLock of them (since support last decided a verification of the
 * account) the provider check is closed (409 tooManyAttempts) and only the document or video route, which
 * support decides, is left. A cancelled check does not count. Without a provider (AGE_PROVIDER=none) the
 * online check is not offered (409 onlineCheckNotOffered); a provider that fails to answer gives 503
 * providerUnavailable (try again).
 */

export type AgeCheckDeps = { provider: AgeVerificationProvider | null; siteUrl: string };

const PROVIDER = 'provider';

const notOffered = () =>
  new AppError('CONFLICT', 'The online age check is not offered; upload an ID document or a video instead', [
    { field: 'SessionId', message: 'onlineCheckNotOffered' },
  ]);

/** The provider, or 409 onlineCheckNotOffered. */
function requireProvider(deps: AgeCheckDeps): AgeVerificationProvider {
  if (!deps.provider) throw notOffered();
  return deps.provider;
}

/** Runs a call to the provider; its failure (5xx, timeout, no answer) is a 503 the advertiser may retry. */
async function askProvider<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof AgeProviderUnavailableError)) throw error;
    // A 503: the error handler logs it with the provider's message as the cause.
    throw new AppError('UNAVAILABLE', 'The age-verification service is not answering right now; please try again in a few minutes', [
      { field: 'SessionId', message: 'providerUnavailable' },
    ], { cause: error });
  }
}

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
  const provider = requireProvider(deps);
  const advert = await getOwnAdvert(ctx);
  requireMayVerify(advert);
  if (await isAgeCheckLocked(ctx, advert.accountId)) {
    throw new AppError('CONFLICT', 'Too many failed age checks; upload an ID document instead', [{ field: 'SessionId', message: 'tooManyAttempts' }]);
  }
  const returnUrl = `${deps.siteUrl.replace(/\/$/, '')}/backend/callback-age-verification/`;
  const { sessionId, uri } = await askProvider(() => provider.startSession({ accountId: advert.accountId, returnUrl }));
  const [row] = await ctx.db
    .insert(verifications)
    .values({
      advertId: advert.id,
      accountId: advert.accountId,
      method: PROVIDER,
      status: VERIFICATION_STATUS.Open,
      provider: provider.name,
      providerSessionId: sessionId,
      providerUri: uri,
      createdAt: ctx.now(),
    })
    .returning({ id: verifications.id });
  await writeAudit(ctx, {
    action: 'verification.provider_start',
    targetType: 'verification',
    targetId: row!.id,
    after: { advertId: advert.id, provider: provider.name, test: provider.test },
  });
  return { sessionId, uri };
}

/**
 * A passed check waits for support: the advert's validation status becomes Pending (from Not validated or
 * Declined; a verified or rejected advert is left as it is). Nothing public changes. Answers whether the
 * advert changed.
 */
async function markAdvertPending(ctx: DomainContext, row: Verification): Promise<boolean> {
  if (row.advertId === null || row.status !== VERIFICATION_STATUS.Pending) return false;
  const [changed] = await ctx.db
    .update(adverts)
    .set({ validationStatus: VALIDATION_STATUS.Pending })
    .where(and(eq(adverts.id, row.advertId), inArray(adverts.validationStatus, [VALIDATION_STATUS.NotValidated, VALIDATION_STATUS.Declined])))
    .returning({ id: adverts.id });
  return changed !== undefined;
}

/** The provider's answer as kept on the row for support. */
function providerResultOf(ctx: DomainContext, result: AgeCheckStatus): ProviderResult {
  return {
    status: result.status === 'passed' ? 'passed' : 'failed',
    ageOver18: result.ageOver18 ?? null,
    providerStatus: result.providerStatus ?? null,
    method: result.method ?? null,
    threshold: result.threshold ?? null,
    receivedAt: ctx.now().toISOString(),
  };
}

/**
 * yoticallback (and checksession when the callback is late): records a provider's result on its session's
 * row, once; a result for a row already recorded changes nothing (callbacks may come twice). 404 for a
 * session we did not start, or one another provider started. A passed check goes to support's queue
 * (Pending), a failed or cancelled one is closed (Declined, by the system). Audited as the system.
 */
export async function recordAgeCheckResult(
  ctx: DomainContext,
  provider: Pick<AgeVerificationProvider, 'name' | 'test'>,
  sessionId: string,
  result: AgeCheckStatus,
): Promise<Verification> {
  const [row] = await ctx.db
    .select()
    .from(verifications)
    .where(and(eq(verifications.providerSessionId, sessionId), eq(verifications.method, PROVIDER)))
    .limit(1);
  if (!row || (row.provider ?? 'test') !== provider.name) throw notFound('Age check session');
  if (result.status === 'pending' || row.status !== VERIFICATION_STATUS.Open) return row;
  const system = { ...ctx, actor: SYSTEM };
  const passed = result.status === 'passed' && result.ageOver18 !== false;
  const reason = passed ? null : result.ageOver18 === false ? 'under18' : 'cancelled';
  const now = ctx.now();
  const [recorded] = await ctx.db
    .update(verifications)
    .set(
      passed
        ? { status: VERIFICATION_STATUS.Pending, submittedAt: now, providerResult: providerResultOf(ctx, result) }
        : { status: VERIFICATION_STATUS.Declined, reason, decidedAt: now, providerResult: providerResultOf(ctx, result) },
    )
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
    after: { status: recorded.status, advertId: row.advertId, reason, provider: provider.name, test: provider.test, providerStatus: result.providerStatus ?? null },
  });
  if (passed) await markAdvertPending(ctx, recorded);
  else if (reason === 'under18' && (await isAgeCheckLocked(ctx, row.accountId))) {
    await writeAudit(system, { action: 'verification.provider_locked', targetType: 'account', targetId: row.accountId, after: { advertId: row.advertId } });
  }
  return recorded;
}

/** A passed check: waiting for support (Pending) or accepted by support (Validated). */
const passedCheck = (row: Verification) => row.status === VERIFICATION_STATUS.Pending || row.status === VERIFICATION_STATUS.Validated;

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
 * checksession (spec §3 Age-check result): valid when the check passed (it then waits for support, or
 * support accepted it: `updateidentification` says which). Still running: not valid, with
 * the provider's page again. Failed or cancelled: not valid, with a new session's page to try again
 * (spec §4: "if not valid and a uri is given, the browser goes to it"), or no uri once the provider
 * check is closed (too many failures) or the advertiser may not verify (rejected).
 */
export async function checkAgeSession(ctx: DomainContext, deps: AgeCheckDeps, sessionId: string): Promise<AgeCheckResult> {
  let row = await ownProviderRow(ctx, sessionId);
  if (row.status === VERIFICATION_STATUS.Open) {
    const provider = requireProvider(deps);
    const result = await askProvider(() => provider.getResult(sessionId));
    row = await recordAgeCheckResult(ctx, provider, sessionId, result);
  }
  if (passedCheck(row)) return { valid: true, uri: null };
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
 * "The verification page with sessionId updates identification for the profile"): the advert waits for
 * support (validation status Pending) until support accepts the check; it is not verified by the check
 * alone. Idempotent: the callback may have done it already. Answers the advert's validation status, its
 * age verification (set only by support's acceptance) and whether a passed check waits for support.
 */
export async function updateIdentification(ctx: DomainContext, profileId: number): Promise<IdentificationAnswer> {
  refuseWhileImpersonating(ctx.actor, 'verification.age_check');
  const advert = await getOwnAdvert(ctx);
  if (advert.id !== profileId) throw notFound('Advert');
  const [waiting] = await ctx.db
    .select()
    .from(verifications)
    .where(and(eq(verifications.advertId, advert.id), eq(verifications.method, PROVIDER), eq(verifications.status, VERIFICATION_STATUS.Pending)))
    .orderBy(desc(verifications.id))
    .limit(1);
  if (waiting) await markAdvertPending(ctx, waiting);
  const [now] = await ctx.db
    .select({ validationStatus: adverts.validationStatus, ageVerifiedAt: adverts.ageVerifiedAt })
    .from(adverts)
    .where(eq(adverts.id, advert.id));
  return {
    validationStatus: now!.validationStatus,
    ageVerifiedAt: now!.ageVerifiedAt?.toISOString() ?? null,
    waitingForSupport: waiting !== undefined && now!.ageVerifiedAt === null,
  };
}
