import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { requireAdvertiser } from '../permissions.ts';
import { refuseWhileImpersonating } from './impersonation.ts';
import { verifyPassword } from './passwords.ts';
import { createSession, type NewSession } from './sessions.ts';
import { requireAcceptablePassword } from './password-policy.ts';
import { replacePassword } from './password-reset.ts';
import { getActiveAccount, invalidField } from './account-records.ts';

/**
 * updatepassword (spec §7, backend: Password, NewPassword): the signed-in advertiser changes the
 * password. Every session of the account ends; the caller gets a fresh one (a new id).
 */
export async function updatePassword(
  ctx: DomainContext,
  input: { password: string; newPassword: string },
  deps: { messaging: Messaging; sessionDays: number },
): Promise<NewSession> {
  requireAdvertiser(ctx.actor);
  refuseWhileImpersonating(ctx.actor, 'password.change');
  const account = await getActiveAccount(ctx.db, ctx.actor.accountId);
  if (!(await verifyPassword(account.passwordHash, input.password))) {
    throw invalidField('Password', 'wrongPassword', 'The current password is wrong.');
  }
  requireAcceptablePassword(input.newPassword, { field: 'NewPassword', email: account.email });
  await replacePassword(ctx, account, input.newPassword, { via: 'update', messaging: deps.messaging });
  return createSession(ctx.db, { accountId: account.id }, {
    days: deps.sessionDays,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    now: ctx.now(),
  });
}
