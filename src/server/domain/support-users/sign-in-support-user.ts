import { eq } from 'drizzle-orm';
import { supportUsers } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { verifyPassword } from '../accounts/passwords.ts';
import { createSession, type NewSession } from '../accounts/sessions.ts';
import { writeAudit } from '../audit.ts';
import { getSupportProfile, type SupportProfile } from './get-support-profile.ts';

export type SupportSignIn = { email: string; password: string };

/** Checks a support user's password and opens a session; every attempt is audited. */
export async function signInSupportUser(
  ctx: DomainContext,
  input: SupportSignIn,
  options: { sessionDays: number },
): Promise<{ session: NewSession; profile: SupportProfile }> {
  const email = input.email.trim().toLowerCase();
  const [user] = await ctx.db.select().from(supportUsers).where(eq(supportUsers.email, email)).limit(1);
  const ok = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !ok || user.disabledAt) {
    await writeAudit(
      { ...ctx, actor: { type: 'visitor' } },
      { action: 'support.sign_in_failed', targetType: 'support_user', targetId: user?.id ?? null, after: { email } },
    );
    throw new AppError('UNAUTHENTICATED', 'Wrong email or password', [
      { field: 'password', message: 'Wrong email or password' },
    ]);
  }
  const now = ctx.now();
  const session = await createSession(ctx.db, { supportUserId: user.id }, {
    days: options.sessionDays,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    now,
  });
  await ctx.db.update(supportUsers).set({ lastLoginAt: now }).where(eq(supportUsers.id, user.id));
  await writeAudit(
    { ...ctx, actor: { type: 'support', supportUserId: user.id, sessionId: '', roles: [], permissions: [] } },
    { action: 'support.sign_in', targetType: 'support_user', targetId: user.id },
  );
  return { session, profile: await getSupportProfile(ctx.db, user.id) };
}
