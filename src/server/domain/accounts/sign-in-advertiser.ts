import { eq } from 'drizzle-orm';
import { countRecentFailures, isSignInLocked, LOCK_MINUTES, MAX_FAILED_SIGN_INS, signInLocked } from './sign-in-lock.ts';
import { accounts, loginEvents } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { verifyPassword } from './passwords.ts';
import { createSession, type NewSession } from './sessions.ts';
import { writeAudit } from '../audit.ts';
import { getUserProfile, type UserProfile } from './get-user-profile.ts';
import { accountActor } from './account-records.ts';
import { RESTORE_DAYS } from '../adverts/statuses.ts';

export { LOCK_MINUTES, MAX_FAILED_SIGN_INS } from './sign-in-lock.ts';

/** One row of support's login history per attempt (sign-in, and restoreprofile's password check). */
export async function recordLoginEvent(ctx: DomainContext, event: { accountId: number | null; email: string; success: boolean }) {
  await ctx.db.insert(loginEvents).values({
    accountId: event.accountId,
    email: event.email,
    success: event.success,
    ip: ctx.ip ?? null,
    userAgent: ctx.userAgent?.slice(0, 400) ?? null,
    createdAt: ctx.now(),
  });
}

/** The answer to a wrong email or password: the same whether or not the account exists. */
const wrongCredentials = () =>
  new AppError('UNAUTHENTICATED', 'Wrong email or password', [{ field: 'password', message: 'wrongCredentials' }]);

/**
 * The answer to the right password of a deleted account: still refused (401), but told apart so that the
 * sign-in screen can offer restoreprofile (`profileDeleted`, within RESTORE_DAYS) or say that it is too
 * late (`restoreExpired`). Only the owner (who knows the password) learns that the account was deleted.
 */
function deletedAccount(deletedAt: Date, now: Date): AppError {
  const restorable = now.getTime() - deletedAt.getTime() <= RESTORE_DAYS * 86_400_000;
  return restorable
    ? new AppError('UNAUTHENTICATED', 'This profile was deleted; it can be restored within 30 days (restoreprofile)', [
        { field: 'email', message: 'profileDeleted' },
      ])
    : new AppError('UNAUTHENTICATED', 'The account was deleted more than 30 days ago and can no longer be restored', [
        { field: 'email', message: 'restoreExpired' },
      ]);
}

/**
 * login (spec §7): checks an advertiser's password and opens a new session. Every attempt is recorded
 * (login_events) and audited; MAX_FAILED_SIGN_INS failed attempts for an email from one client address
 * lock that address out for LOCK_MINUTES (sign-in-lock.ts: answered 429, even with the right password,
 * and the same for an unknown email, so the answer never tells whether an account exists; a password
 * change lifts it). A deleted account is refused; with its right password the refusal says so.
 */
export async function signInAdvertiser(
  ctx: DomainContext,
  input: { email: string; password: string },
  options: { sessionDays: number },
): Promise<{ session: NewSession; profile: UserProfile }> {
  const email = input.email.trim().toLowerCase();
  const now = ctx.now();
  const [account] = await ctx.db.select().from(accounts).where(eq(accounts.email, email)).limit(1);
  const ok = await verifyPassword(account?.passwordHash, input.password);
  const visitor = { ...ctx, actor: { type: 'visitor' as const } };
  const lock = { kind: 'advertiser' as const, email, passwordChangedAt: account?.passwordChangedAt };

  if (await isSignInLocked(ctx, lock)) {
    await recordLoginEvent(ctx, { accountId: account?.id ?? null, email, success: false });
    await writeAudit(visitor, { action: 'account.sign_in_locked', targetType: 'account', targetId: account?.id ?? null, after: { email } });
    throw signInLocked();
  }

  if (!account || !ok || account.deletedAt) {
    await recordLoginEvent(ctx, { accountId: account?.id ?? null, email, success: false });
    const locked = (await countRecentFailures(ctx, lock)) >= MAX_FAILED_SIGN_INS;
    await writeAudit(visitor, {
      action: locked ? 'account.locked' : 'account.sign_in_failed',
      targetType: 'account',
      targetId: account?.id ?? null,
      after: locked ? { email, lockedMinutes: LOCK_MINUTES } : { email },
    });
    if (account?.deletedAt && ok) throw deletedAccount(account.deletedAt, now);
    throw wrongCredentials();
  }

  const session = await createSession(ctx.db, { accountId: account.id }, {
    days: options.sessionDays,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    now,
  });
  await ctx.db
    .update(accounts)
    .set({ lastLoginAt: now })
    .where(eq(accounts.id, account.id));
  await recordLoginEvent(ctx, { accountId: account.id, email, success: true });
  await writeAudit({ ...ctx, actor: accountActor(account.id) }, { action: 'account.sign_in', targetType: 'account', targetId: account.id });
  return { session, profile: await getUserProfile(ctx.db, account.id, now) };
}
