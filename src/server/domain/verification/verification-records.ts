import { and, desc, eq, inArray } from 'drizzle-orm';
import {
  VALIDATION_STATUS,
  VERIFICATION_STATUS,
  type VerificationKind,
  type VerificationStateWord,
} from '#lib/schemas/verification.ts';
import { adverts, verifications, type Advert, type Verification, type VerificationFile } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';

/**
 * The verification rows of an advert. Files (document, selfie, video) go on the advert's one open row
 * (method 'document' or 'video', status 0 Open or 1 Pending); a provider check has a row of its own
 * (method 'provider'). A decided row is never changed again, apart from its files being deleted.
 */

export const FILE_METHODS = ['document', 'video'];
export const OPEN_STATUSES = [VERIFICATION_STATUS.Open, VERIFICATION_STATUS.Pending];

export const alreadyDecided = () =>
  new AppError('CONFLICT', 'The verification has already been decided', [{ field: 'Id', message: 'alreadyDecided' }]);

/** The advert's open verification with files (status 0 or 1), or null. */
export async function findOpenFileVerification(db: Db, advertId: number): Promise<Verification | null> {
  const [row] = await db
    .select()
    .from(verifications)
    .where(and(eq(verifications.advertId, advertId), inArray(verifications.method, FILE_METHODS), inArray(verifications.status, OPEN_STATUSES)))
    .orderBy(desc(verifications.id))
    .limit(1);
  return row ?? null;
}

/** The advert's latest verification with files, open or decided, or null. */
export async function findLatestFileVerification(db: Db, advertId: number): Promise<Verification | null> {
  const [row] = await db
    .select()
    .from(verifications)
    .where(and(eq(verifications.advertId, advertId), inArray(verifications.method, FILE_METHODS)))
    .orderBy(desc(verifications.id))
    .limit(1);
  return row ?? null;
}

/**
 * When the advert's verification that now waits for support's decision was submitted (a passed online
 * check, or complete files sent), or null when none waits.
 */
export async function verificationWaitingSince(db: Db, advertId: number): Promise<Date | null> {
  const [row] = await db
    .select({ submittedAt: verifications.submittedAt, createdAt: verifications.createdAt })
    .from(verifications)
    .where(and(eq(verifications.advertId, advertId), eq(verifications.status, VERIFICATION_STATUS.Pending)))
    .orderBy(desc(verifications.id))
    .limit(1);
  return row ? (row.submittedAt ?? row.createdAt) : null;
}

export const fileOf = (row: Verification | null, kind: VerificationKind): VerificationFile | null =>
  row?.files.find((file) => file.kind === kind) ?? null;

/** Document and selfie, or a video: what support needs to decide. */
export function isComplete(files: readonly VerificationFile[]): boolean {
  const has = (kind: VerificationKind) => files.some((file) => file.kind === kind);
  return (has('document') && has('selfie')) || has('video');
}

/** Refuses new uploads and checks once the advertiser is verified (409 alreadyVerified) or rejected for good (409 verificationRejected). */
export function requireMayVerify(advert: Advert): void {
  if (advert.validationStatus === VALIDATION_STATUS.Validated && advert.ageVerifiedAt !== null) {
    throw new AppError('CONFLICT', 'You are already verified', [{ field: 'Kind', message: 'alreadyVerified' }]);
  }
  if (advert.validationStatus === VALIDATION_STATUS.Rejected) {
    throw new AppError('CONFLICT', 'Your verification was rejected; contact support', [{ field: 'Kind', message: 'verificationRejected' }]);
  }
}

/** The state word the backend shows: the open row if there is one, else the advert's validation status. */
export function stateOf(advert: Advert, open: Verification | null): VerificationStateWord {
  if (open) return open.status === VERIFICATION_STATUS.Pending ? 'pending' : 'collecting';
  switch (advert.validationStatus) {
    case VALIDATION_STATUS.Validated:
      return advert.ageVerifiedAt ? 'validated' : 'none';
    case VALIDATION_STATUS.Declined:
      return 'declined';
    case VALIDATION_STATUS.Rejected:
      return 'rejected';
    case VALIDATION_STATUS.Pending:
      return 'pending';
    default:
      return 'none';
  }
}

/** Sets the advert's validation status (and, when verified, the time of the age verification). */
export async function setAdvertValidation(ctx: DomainContext, advertId: number, change: { validationStatus: number; ageVerifiedAt?: Date }): Promise<void> {
  await ctx.db.update(adverts).set(change).where(eq(adverts.id, advertId));
}

/** Whether the actor reached this call through a QR hand-off link (for the audit log). */
export const viaOf = (ctx: DomainContext): 'handoff' | 'session' =>
  ctx.actor.type === 'advertiser' && ctx.actor.sessionId === HANDOFF_SESSION ? 'handoff' : 'session';

/** The session id of an advertiser actor made from a hand-off link (there is no session). */
export const HANDOFF_SESSION = 'handoff';
