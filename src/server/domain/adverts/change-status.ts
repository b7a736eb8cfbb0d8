import { isSignInLocked, signInLocked } from '../accounts/sign-in-lock.ts';
import { and, desc, eq } from 'drizzle-orm';
import { accounts, adverts, auditLog, sessions, type Advert } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError, forbidden } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { verifyPassword } from '../accounts/passwords.ts';
import { createSession, type NewSession } from '../accounts/sessions.ts';
import { getUserProfile, type UserProfile } from '../accounts/get-user-profile.ts';
import { recordLoginEvent, signInAdvertiser } from '../accounts/sign-in-advertiser.ts';
import { refuseWhileImpersonating } from '../accounts/impersonation.ts';
import { getOwnAdvert, publishAdvertChange, requireAdvertiserAccountId, type AdvertChange } from './own-advert.ts';
import {
  PROFILE_STATUS,
  RESTORE_DAYS,
  canChangeStatus,
  isKnownTransition,
  isProfileStatus,
  type ProfileStatus,
  type StatusChanger,
} from './statuses.ts';

const DAY = 86_400_000;
/** The audit action that records a deletion with the status before it (restoreprofile reads it back). */
const DELETED_ACTION = 'advert.deleted';

/** Who the acting context is in the transition table. */
export function statusChangerOf(ctx: DomainContext): StatusChanger {
  if (ctx.actor.type === 'advertiser') return 'advertiser';
  if (ctx.actor.type === 'support') return 'support';
  if (ctx.actor.type === 'system') return 'system';
  throw forbidden();
}

/** Refuses a transition the table does not allow this actor: 403 if only others may make it, else 409. */
export function requireStatusChange(from: number, to: number, by: StatusChanger): void {
  if (canChangeStatus(from, to, by)) return;
  if (isKnownTransition(from, to)) throw forbidden('Only support can make this change');
  throw new AppError('CONFLICT', `An advert cannot go from status ${from} to ${to}`);
}

/**
 * Moves an advert to another status through the table (`requireStatusChange`), with extra columns,
 * audits it and publishes the change. The one way statuses change (support's calls use it too).
 */
export async function changeAdvertStatus(
  ctx: DomainContext,
  advert: Advert,
  to: ProfileStatus,
  options: { action: string; extra?: AdvertChange; reason?: string | null } = { action: 'advert.status.change' },
): Promise<void> {
  requireStatusChange(advert.status, to, statusChangerOf(ctx));
  await ctx.db.update(adverts).set({ status: to, ...options.extra }).where(eq(adverts.id, advert.id));
  await writeAudit(ctx, {
    action: options.action,
    targetType: 'advert',
    targetId: advert.id,
    before: { status: advert.status },
    after: { status: to, ...options.extra },
    reason: options.reason ?? null,
  });
  await publishAdvertChange(ctx, advert.id, options.action);
}

/**
 * changeprofilestatus: the advertiser closes (5 Deactivated) or reactivates (1 Active) their advert.
 * Asking for the status it has changes nothing. Reactivating needs a past approval by support; an
 * expired advert reactivates to Active and the dashboard says Expired until a package is bought.
 * Deletion goes through deleteuser (with the password), never through here.
 */
export async function changeProfileStatus(ctx: DomainContext, input: { Status: number }): Promise<{ profileStatus: number; expirationDate: string | null }> {
  const advert = await getOwnAdvert(ctx);
  const to = input.Status;
  if (!isProfileStatus(to)) throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'Status', message: 'invalid' }]);
  if (to === PROFILE_STATUS.Deleted) throw forbidden('Delete the advert with your password (deleteuser)');
  if (to !== advert.status) {
    requireStatusChange(advert.status, to, statusChangerOf(ctx));
    if (to === PROFILE_STATUS.Active && advert.approvedAt === null) {
      throw new AppError('CONFLICT', 'The advert must be approved by support first');
    }
    await changeAdvertStatus(ctx, advert, to, { action: to === PROFILE_STATUS.Deactivated ? 'advert.deactivate' : 'advert.reactivate' });
  }
  return { profileStatus: to, expirationDate: advert.expirationDate?.toISOString() ?? null };
}

/**
 * deleteuser: the advertiser deletes their account and advert, confirmed with the password. Both are
 * soft-deleted (restorable for 30 days with restoreprofile), the advert leaves the public site at once
 * and every session of the account ends.
 */
export async function deleteAdvertiser(ctx: DomainContext, input: { Password: string }): Promise<void> {
  const accountId = requireAdvertiserAccountId(ctx);
  refuseWhileImpersonating(ctx.actor, 'account.delete');
  const [account] = await ctx.db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account || !(await verifyPassword(account.passwordHash, input.Password))) {
    throw new AppError('INVALID', 'Wrong password', [{ field: 'Password', message: 'wrongPassword' }]);
  }
  const advert = await getOwnAdvert(ctx);
  const now = ctx.now();
  requireStatusChange(advert.status, PROFILE_STATUS.Deleted, statusChangerOf(ctx));
  await ctx.db.transaction(async (tx) => {
    await tx.update(adverts).set({ status: PROFILE_STATUS.Deleted, deletedAt: now }).where(eq(adverts.id, advert.id));
    await tx.update(accounts).set({ deletedAt: now }).where(eq(accounts.id, accountId));
    await tx.delete(sessions).where(eq(sessions.accountId, accountId));
  });
  await ctx.events.publish({ type: 'account.sessions.ended', accountId });
  await writeAudit(ctx, {
    action: DELETED_ACTION,
    targetType: 'advert',
    targetId: advert.id,
    before: { status: advert.status },
    after: { status: PROFILE_STATUS.Deleted, deletedAt: now },
  });
  await writeAudit(ctx, { action: 'account.delete', targetType: 'account', targetId: accountId, before: { deletedAt: null }, after: { deletedAt: now } });
  await publishAdvertChange(ctx, advert.id, DELETED_ACTION);
}

/**
 * The status an advert had before it was deleted, from the deletion's audit entry; without one (a
 * deletion made before this existed) Deactivated when support had approved it, else New.
 */
async function statusBeforeDeletion(ctx: DomainContext, advert: Advert): Promise<ProfileStatus> {
  const [entry] = await ctx.db
    .select({ before: auditLog.before })
    .from(auditLog)
    .where(and(eq(auditLog.targetType, 'advert'), eq(auditLog.targetId, String(advert.id)), eq(auditLog.action, DELETED_ACTION)))
    .orderBy(desc(auditLog.id))
    .limit(1);
  const status = (entry?.before as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && isProfileStatus(status) && status !== PROFILE_STATUS.Deleted) return status;
  return advert.approvedAt ? PROFILE_STATUS.Deactivated : PROFILE_STATUS.New;
}

/**
 * restoreprofile (frontend): signs in to an account deleted less than 30 days ago and restores it and its
 * advert to the status before the deletion (a locked advert stays locked). Wrong credentials answer as
 * login does; after 30 days 410. For an account that is not deleted (or no account) it is exactly login
 * (`signInAdvertiser`, with its lockout), so it never offers a way around login's protections.
 */
export async function restoreProfile(
  ctx: DomainContext,
  input: { Email: string; Password: string },
  options: { sessionDays: number },
): Promise<{ session: NewSession; profile: UserProfile }> {
  const email = input.Email.trim().toLowerCase();
  const [account] = await ctx.db.select().from(accounts).where(eq(accounts.email, email)).limit(1);
  // Not a deleted account (or none): exactly a sign-in, with its failure counting and lockout.
  if (!account?.deletedAt) return signInAdvertiser(ctx, { email, password: input.Password }, options);
  const ok = await verifyPassword(account.passwordHash, input.Password);
  // A deleted account's password is checked here: the sign-in lock (per email and address) holds too.
  const lock = { kind: 'advertiser' as const, email, passwordChangedAt: account.passwordChangedAt };
  if (await isSignInLocked(ctx, lock)) {
    await recordLoginEvent(ctx, { accountId: account.id, email, success: false });
    throw signInLocked();
  }
  if (!ok) {
    await recordLoginEvent(ctx, { accountId: account.id, email, success: false });
    await writeAudit(ctx, { action: 'account.restore_failed', targetType: 'account', targetId: account.id, after: { email } });
    throw new AppError('UNAUTHENTICATED', 'Wrong email or password', [{ field: 'password', message: 'wrongCredentials' }]);
  }
  const now = ctx.now();
  const owner = { ...ctx, actor: { type: 'advertiser' as const, accountId: account.id, sessionId: '', impersonatedBy: null } };
  if (now.getTime() - account.deletedAt.getTime() > RESTORE_DAYS * DAY) {
    throw new AppError('GONE', 'The account was deleted more than 30 days ago and can no longer be restored', [
      { field: 'Email', message: 'restoreExpired' },
    ]);
  }
  const advert = await getOwnAdvert(owner);
  const previous = await statusBeforeDeletion(owner, advert);
  requireStatusChange(advert.status, previous, 'advertiser');
  await ctx.db.transaction(async (tx) => {
    await tx.update(adverts).set({ status: previous, deletedAt: null }).where(eq(adverts.id, advert.id));
    await tx.update(accounts).set({ deletedAt: null }).where(eq(accounts.id, account.id));
  });
  await writeAudit(owner, { action: 'advert.restored', targetType: 'advert', targetId: advert.id, before: { status: advert.status }, after: { status: previous } });
  await writeAudit(owner, { action: 'account.restore', targetType: 'account', targetId: account.id, before: { deletedAt: account.deletedAt }, after: { deletedAt: null } });
  await publishAdvertChange(owner, advert.id, 'advert.restored');
  const session = await createSession(ctx.db, { accountId: account.id }, { days: options.sessionDays, ip: ctx.ip, userAgent: ctx.userAgent, now });
  await ctx.db.update(accounts).set({ lastLoginAt: now }).where(eq(accounts.id, account.id));
  await writeAudit(owner, { action: 'account.sign_in', targetType: 'account', targetId: account.id });
  return { session, profile: await getUserProfile(ctx.db, account.id, now) };
}
