import { eq } from 'drizzle-orm';
import { countRecentFailures, isSignInLocked, LOCK_MINUTES, MAX_FAILED_SIGN_INS, signInLocked } from './sign-in-lock.ts';
import { accounts, loginEvents } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { verifyPassword } from './passwords.ts';
import { createSession, type NewSession } from './sessions.ts';
import { writeAudit } from '../audit.ts';
import { getUserProfile, type UserProfile } from './get-user-profile.ts';
import { accountActor, type AccountRow } from './account-records.ts';
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

/** The answer to a wrong email or password: the same whether or not the account exists, and for an unconfirmed sign-up. */
const wrongCredentials = (field: string) =>
  new AppError('UNAUTHENTICATED', 'Wrong email or password', [{ field, message: 'wrongCredentials' }]);

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
 * The password check of every advertiser sign-in: login (and restoreprofile through it) and confirmsignup.
 * The password is always verified, known account or not, so the time tells nothing. A locked-out address
 * (sign-in-lock.ts) is refused 429 even with the right password; every refusal is recorded in login_events
 * (it counts toward the lock) and audited. `accepts` says whether the account may sign in this way; a right
 * password it does not accept is answered as a wrong one, unless `explain` has a refusal of its own for it.
 * Refusals name `field` (login's `password`, confirmsignup's `Password`).
 */
export async function requireAdvertiserPassword(
  ctx: DomainContext,
  input: {
    email: string;
    password: string;
    account: AccountRow | undefined;
    accepts: (account: AccountRow) => boolean;
    explain?: (account: AccountRow) => AppError | null;
    field: string;
  },
): Promise<AccountRow> {
  const { email, account } = input;
  const ok = await verifyPassword(account?.passwordHash, input.password);
  const visitor = { ...ctx, actor: { type: 'visitor' as const } };
  const lock = { kind: 'advertiser' as const, email, passwordChangedAt: account?.passwordChangedAt };

  if (await isSignInLocked(ctx, lock)) {
    await recordLoginEvent(ctx, { accountId: account?.id ?? null, email, success: false });
    await writeAudit(visitor, { action: 'account.sign_in_locked', targetType: 'account', targetId: account?.id ?? null, after: { email } });
    throw signInLocked(input.field);
  }

  if (!account || !ok || !input.accepts(account)) {
    await recordLoginEvent(ctx, { accountId: account?.id ?? null, email, success: false });
    const locked = (await countRecentFailures(ctx, lock)) >= MAX_FAILED_SIGN_INS;
    await writeAudit(visitor, {
      action: locked ? 'account.locked' : 'account.sign_in_failed',
      targetType: 'account',
      targetId: account?.id ?? null,
      after: locked ? { email, lockedMinutes: LOCK_MINUTES } : { email },
    });
    const explained = account && ok ? input.explain?.(account) : null;
    throw explained ?? wrongCredentials(input.field);
  }
  return account;
}

/**
 * login (spec §7): checks an advertiser's password and opens a new session. Every attempt is recorded
 * (login_events) and audited; MAX_FAILED_SIGN_INS failed attempts for an email from one client address
 * lock that address out for LOCK_MINUTES (sign-in-lock.ts: answered 429, even with the right password,
 * and the same for an unknown email, so the answer never tells whether an account exists; a password
 * change lifts it). A sign-up not yet confirmed (`activatedAt`, confirmsignup) is answered exactly as a
 * wrong password, so sign-in never tells that a sign-up made an account (docs/decisions/024). A deleted
 * account is refused; with its right password the refusal says so.
 */
export async function signInAdvertiser(
  ctx: DomainContext,
  input: { email: string; password: string },
  options: { sessionDays: number },
): Promise<{ session: NewSession; profile: UserProfile }> {
  const email = input.email.trim().toLowerCase();
  const now = ctx.now();
  const [found] = await ctx.db.select().from(accounts).where(eq(accounts.email, email)).limit(1);
  const account = await requireAdvertiserPassword(ctx, {
    email,
    password: input.password,
    account: found,
    accepts: (candidate) => candidate.activatedAt !== null && candidate.deletedAt === null,
    explain: (candidate) => (candidate.deletedAt && candidate.activatedAt ? deletedAccount(candidate.deletedAt, now) : null),
    field: 'password',
  });

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
