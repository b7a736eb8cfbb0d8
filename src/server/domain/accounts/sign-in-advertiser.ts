import { eq } from 'drizzle-orm';
import { accounts } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { verifyPassword } from './passwords.ts';
import { createSession, type NewSession } from './sessions.ts';
import { writeAudit } from '../audit.ts';
import { getUserProfile, type UserProfile } from './get-user-profile.ts';

/** Checks an advertiser's password and opens a session; sign-ins and failures are audited. */
export async function signInAdvertiser(
  ctx: DomainContext,
  input: { email: string; password: string },
  options: { sessionDays: number },
): Promise<{ session: NewSession; profile: UserProfile }> {
  const email = input.email.trim().toLowerCase();
  const [account] = await ctx.db.select().from(accounts).where(eq(accounts.email, email)).limit(1);
  const ok = await verifyPassword(account?.passwordHash, input.password);
  if (!account || !ok || account.deletedAt) {
    await writeAudit(
      { ...ctx, actor: { type: 'visitor' } },
      { action: 'account.sign_in_failed', targetType: 'account', targetId: account?.id ?? null, after: { email } },
    );
    throw new AppError('UNAUTHENTICATED', 'Wrong email or password', [
      { field: 'password', message: 'wrongCredentials' },
    ]);
  }
  const now = ctx.now();
  const session = await createSession(ctx.db, { accountId: account.id }, {
    days: options.sessionDays,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    now,
  });
  await ctx.db.update(accounts).set({ lastLoginAt: now, failedLoginCount: 0 }).where(eq(accounts.id, account.id));
  await writeAudit(
    { ...ctx, actor: { type: 'advertiser', accountId: account.id, sessionId: '', impersonatedBy: null } },
    { action: 'account.sign_in', targetType: 'account', targetId: account.id },
  );
  return { session, profile: await getUserProfile(ctx.db, account.id, now) };
}
