import { and, count, desc, eq, gt, isNull } from 'drizzle-orm';
import { loginEvents } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';

/** After this many failed sign-ins in a row for one email from one client address, that address is locked out... */
export const MAX_FAILED_SIGN_INS = 5;
/** ...until none of those failures is younger than this (a password change lifts the lock at once). */
export const LOCK_MINUTES = 15;

/** Whose sign-in: an advertiser's (login) or a support user's (support login); their events are told apart. */
export type SignInKind = 'advertiser' | 'support';

/**
 * The sign-in lock, per email AND client address (issue 15): MAX_FAILED_SIGN_INS failed attempts
 * (login_events) for the email from this address within LOCK_MINUTES, since its last successful sign-in
 * from this address and since the account's last password change, lock out this address only. So five
 * requests from elsewhere never lock out the owner, and an unknown email is locked exactly as a known one
 * (the answer tells nobody whether the account exists). Every refused attempt counts too, so an address
 * that keeps guessing stays locked. Answers how many failures count now.
 */
export async function countRecentFailures(
  ctx: DomainContext,
  input: { kind: SignInKind; email: string; passwordChangedAt?: Date | null | undefined },
): Promise<number> {
  const now = ctx.now();
  const sameAttempts = and(
    eq(loginEvents.email, input.email),
    ctx.ip ? eq(loginEvents.ip, ctx.ip) : isNull(loginEvents.ip),
    // Unknown emails have neither id; a known advertiser's events never count for a support user and back.
    input.kind === 'advertiser' ? isNull(loginEvents.supportUserId) : isNull(loginEvents.accountId),
  );
  const [lastSuccess] = await ctx.db
    .select({ at: loginEvents.createdAt })
    .from(loginEvents)
    .where(and(sameAttempts, eq(loginEvents.success, true)))
    .orderBy(desc(loginEvents.createdAt))
    .limit(1);
  const since = Math.max(
    now.getTime() - LOCK_MINUTES * 60_000,
    lastSuccess?.at.getTime() ?? 0,
    input.passwordChangedAt?.getTime() ?? 0,
  );
  const [counted] = await ctx.db
    .select({ n: count() })
    .from(loginEvents)
    .where(and(sameAttempts, eq(loginEvents.success, false), gt(loginEvents.createdAt, new Date(since))));
  return counted?.n ?? 0;
}

/** Whether sign-in for the email is locked out from this address (see countRecentFailures). */
export async function isSignInLocked(
  ctx: DomainContext,
  input: { kind: SignInKind; email: string; passwordChangedAt?: Date | null | undefined },
): Promise<boolean> {
  return (await countRecentFailures(ctx, input)) >= MAX_FAILED_SIGN_INS;
}

/**
 * The answer to a locked-out sign-in: 429 `accountLocked` at the password field (`password`, or the form's
 * own name for it), the same for advertisers and support users, and for known and unknown emails alike.
 */
export const signInLocked = (field = 'password') =>
  new AppError('RATE_LIMITED', 'Too many failed sign-ins. Try again later or reset your password.', [
    { field, message: 'accountLocked' },
  ]);

/**
 * Until when sign-in for the email is locked out from some address (support's view of an account), or
 * null: for each address, the lock holds while MAX_FAILED_SIGN_INS of its failures (since its last success
 * there and the last password change) are younger than LOCK_MINUTES, so it ends LOCK_MINUTES after the
 * MAX_FAILED_SIGN_INS-th newest one. The latest end over all addresses.
 */
export async function signInLockedUntil(
  ctx: DomainContext,
  input: { kind: SignInKind; email: string; passwordChangedAt?: Date | null | undefined },
): Promise<Date | null> {
  const now = ctx.now().getTime();
  const windowStart = Math.max(now - LOCK_MINUTES * 60_000, input.passwordChangedAt?.getTime() ?? 0);
  const rows = await ctx.db
    .select({ ip: loginEvents.ip, success: loginEvents.success, at: loginEvents.createdAt })
    .from(loginEvents)
    .where(
      and(
        eq(loginEvents.email, input.email),
        input.kind === 'advertiser' ? isNull(loginEvents.supportUserId) : isNull(loginEvents.accountId),
        gt(loginEvents.createdAt, new Date(windowStart)),
      ),
    )
    .orderBy(desc(loginEvents.createdAt));
  const failuresByAddress = new Map<string | null, Date[]>();
  const succeeded = new Set<string | null>();
  for (const row of rows) {
    // Newest first: a success ends the count of the older failures from its address.
    if (row.success) succeeded.add(row.ip);
    else if (!succeeded.has(row.ip)) failuresByAddress.set(row.ip, [...(failuresByAddress.get(row.ip) ?? []), row.at]);
  }
  let until: number | null = null;
  for (const failures of failuresByAddress.values()) {
    const lockingFailure = failures[MAX_FAILED_SIGN_INS - 1];
    if (!lockingFailure) continue;
    const end = lockingFailure.getTime() + LOCK_MINUTES * 60_000;
    if (end > now && (until === null || end > until)) until = end;
  }
  return until === null ? null : new Date(until);
}
