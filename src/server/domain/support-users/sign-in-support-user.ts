import { eq } from 'drizzle-orm';
import { loginEvents, supportUsers } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { verifyPassword } from '../accounts/passwords.ts';
import { createSession, type NewSession } from '../accounts/sessions.ts';
import { countRecentFailures, isSignInLocked, LOCK_MINUTES, MAX_FAILED_SIGN_INS, signInLocked } from '../accounts/sign-in-lock.ts';
import { writeAudit } from '../audit.ts';
import { getSupportProfile, type SupportProfile } from './get-support-profile.ts';
import { supportUserActor } from './support-roles.ts';
import { openTotpSecret, useTotpStep } from './two-factor.ts';
import type { SecretKeys } from '../secret-box.ts';
import { verifyTotp } from './totp.ts';

export type SupportSignIn = { email: string; password: string; code?: string | undefined };

/** One row of the sign-in history per attempt (the password step, and the code step when it is on). */
async function recordLoginEvent(ctx: DomainContext, event: { supportUserId: number | null; email: string; success: boolean }) {
  await ctx.db.insert(loginEvents).values({
    supportUserId: event.supportUserId,
    email: event.email,
    success: event.success,
    ip: ctx.ip ?? null,
    userAgent: ctx.userAgent?.slice(0, 400) ?? null,
    createdAt: ctx.now(),
  });
}

/**
 * login (support): the password, then, once two-step sign-in is on, the code of the authenticator app
 * (asked for with `codeRequired` at `code` while the password is right; a wrong or used code answers
 * `codeWrong`). Every attempt is recorded (login_events) and audited; MAX_FAILED_SIGN_INS failures
 * (password or code) for an email from one client address lock that address out for LOCK_MINUTES, as
 * for advertisers (accounts/sign-in-lock.ts: the same answer for an unknown email; others' addresses
 * cannot lock the user out).
 */
export async function signInSupportUser(
  ctx: DomainContext,
  input: SupportSignIn,
  options: { sessionDays: number; secrets: SecretKeys },
): Promise<{ session: NewSession; profile: SupportProfile }> {
  const email = input.email.trim().toLowerCase();
  const now = ctx.now();
  const visitor = { ...ctx, actor: { type: 'visitor' as const } };
  const [user] = await ctx.db.select().from(supportUsers).where(eq(supportUsers.email, email)).limit(1);
  const ok = await verifyPassword(user?.passwordHash, input.password);

  const lock = { kind: 'support' as const, email, passwordChangedAt: user?.passwordChangedAt };

  if (await isSignInLocked(ctx, lock)) {
    await recordLoginEvent(ctx, { supportUserId: user?.id ?? null, email, success: false });
    await writeAudit(visitor, { action: 'support.sign_in_locked', targetType: 'support_user', targetId: user?.id ?? null, after: { email } });
    throw signInLocked();
  }

  /** Records and audits a failed attempt; the attempt that reaches the limit locks (the next one is refused). */
  const fail = async (reason: 'password' | 'code'): Promise<void> => {
    await recordLoginEvent(ctx, { supportUserId: user?.id ?? null, email, success: false });
    const lockedNow = (await countRecentFailures(ctx, lock)) >= MAX_FAILED_SIGN_INS;
    await writeAudit(visitor, {
      action: lockedNow ? 'support.locked' : 'support.sign_in_failed',
      targetType: 'support_user',
      targetId: user?.id ?? null,
      after: lockedNow ? { email, reason, lockedMinutes: LOCK_MINUTES } : { email, reason },
    });
  };

  if (!user || !ok || user.disabledAt) {
    await fail('password');
    throw new AppError('UNAUTHENTICATED', 'Wrong email or password', [
      { field: 'password', message: 'Wrong email or password' },
    ]);
  }

  if (user.totpEnabledAt && user.totpSecret) {
    const code = input.code?.trim();
    // The right password alone: the app asks for the code, keeping email and password. Not a failure.
    if (!code) {
      throw new AppError('UNAUTHENTICATED', 'Enter the 6-digit code from your authenticator app', [
        { field: 'code', message: 'codeRequired' },
      ]);
    }
    const step = verifyTotp(openTotpSecret(options.secrets, user.id, user.totpSecret), code, now, { lastUsedStep: user.totpLastStep });
    if (step === null || !(await useTotpStep(ctx.db, user.id, step))) {
      await fail('code');
      throw new AppError('UNAUTHENTICATED', 'The code is wrong', [{ field: 'code', message: 'codeWrong' }]);
    }
  }

  const session = await createSession(ctx.db, { supportUserId: user.id }, {
    days: options.sessionDays,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    now,
  });
  await ctx.db
    .update(supportUsers)
    .set({ lastLoginAt: now })
    .where(eq(supportUsers.id, user.id));
  await recordLoginEvent(ctx, { supportUserId: user.id, email, success: true });
  await writeAudit({ ...ctx, actor: supportUserActor(user.id) }, { action: 'support.sign_in', targetType: 'support_user', targetId: user.id });
  return { session, profile: await getSupportProfile(ctx.db, user.id) };
}
