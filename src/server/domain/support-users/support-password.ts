import { eq } from 'drizzle-orm';
import { supportUsers } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { requireAcceptablePassword } from '../accounts/password-policy.ts';
import { deleteSupportUserSessions } from '../accounts/sessions.ts';
import {
  RESET_LINK_MINUTES,
  claimPasswordResetLink,
  endPasswordResetLinks,
  sendPasswordResetLink,
} from '../accounts/password-reset.ts';
import { getSite, passwordChangedMessage, passwordResetLink, passwordResetMessage } from '../accounts/account-messages.ts';
import { findSupportUserRecord } from './list-support-users.ts';
import { supportUserActor } from './support-roles.ts';

/** Support users read their mail in Danish (the support area's language). */
const SUPPORT_LOCALE = 'da';

/**
 * resetpassword (support): when an enabled support user has this email, a link to /support/login/change/
 * goes to it (the advertisers' rules: RESET_LINK_MINUTES, once, one mail a minute). The door answers 204
 * either way.
 */
export async function requestSupportPasswordReset(
  ctx: DomainContext,
  input: { email: string },
  deps: { messaging: Messaging },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const [user] = await ctx.db.select().from(supportUsers).where(eq(supportUsers.email, email)).limit(1);
  if (!user || user.disabledAt) return;
  await sendPasswordResetLink(
    ctx,
    { type: 'support_user', id: user.id },
    (site, token) =>
      passwordResetMessage(
        site,
        SUPPORT_LOCALE,
        user.email,
        passwordResetLink(site, SUPPORT_LOCALE, token, user.id, 'support'),
        RESET_LINK_MINUTES,
        'support',
      ),
    deps,
  );
}

/**
 * changepassword (support: Token, Id, Password): the reset link sets a new password; every session of
 * the user ends, a sign-in lock is lifted, the change is audited and the user is told by email.
 */
export async function changeSupportPasswordWithToken(
  ctx: DomainContext,
  input: { token: string; id: number; password: string },
  deps: { messaging: Messaging },
): Promise<void> {
  const user = await claimPasswordResetLink(
    ctx,
    { token: input.token, id: input.id, type: 'support_user' },
    async (id) => {
      const found = await findSupportUserRecord(ctx.db, id);
      return found && !found.disabledAt ? found : null;
    },
    (found) => requireAcceptablePassword(input.password, { field: 'Password', email: found.email }),
  );
  const now = ctx.now();
  await ctx.db
    .update(supportUsers)
    .set({ passwordHash: await hashPassword(input.password), passwordChangedAt: now })
    .where(eq(supportUsers.id, user.id));
  const sessionsEnded = await deleteSupportUserSessions(ctx.db, user.id);
  await endPasswordResetLinks(ctx, { type: 'support_user', id: user.id });
  await writeAudit(
    { ...ctx, actor: supportUserActor(user.id) },
    { action: 'support_user.password_changed', targetType: 'support_user', targetId: user.id, after: { via: 'reset', sessionsEnded } },
  );
  const site = await getSite(ctx.db);
  await deps.messaging.sendEmail(passwordChangedMessage(site, SUPPORT_LOCALE, user.email, now, 'support'));
}
