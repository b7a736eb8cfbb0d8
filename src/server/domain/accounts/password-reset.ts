import { and, desc, eq, isNull } from 'drizzle-orm';
import { accounts, passwordResetTokens } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { hashPassword } from './passwords.ts';
import { deleteAccountSessions, hashToken } from './sessions.ts';
import { newLinkToken } from './tokens.ts';
import { requireAcceptablePassword } from './password-policy.ts';
import { asLocale, getSite, passwordChangedMessage, passwordResetLink, passwordResetMessage } from './account-messages.ts';
import { accountActor, findAccountByEmail, getActiveAccount, invalidField, type AccountRow } from './account-records.ts';

/** A reset link works this long, once. */
export const RESET_LINK_MINUTES = 60;
/** At most one reset email per account this often (further requests are answered the same, silently). */
export const RESET_RESEND_SECONDS = 60;

/**
 * resetpassword (spec §7, frontend): when an account has this email, a link to /login/change/ with
 * token and id goes to it. The caller learns nothing either way: the door answers 204 always.
 */
export async function requestPasswordReset(
  ctx: DomainContext,
  input: { email: string },
  deps: { messaging: Messaging },
): Promise<void> {
  const account = await findAccountByEmail(ctx.db, input.email);
  if (!account || account.deletedAt) return;
  const now = ctx.now();
  const [last] = await ctx.db
    .select({ createdAt: passwordResetTokens.createdAt })
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.accountId, account.id))
    .orderBy(desc(passwordResetTokens.createdAt))
    .limit(1);
  if (last && now.getTime() - last.createdAt.getTime() < RESET_RESEND_SECONDS * 1000) return;

  const { token, tokenHash } = newLinkToken();
  await ctx.db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.accountId, account.id), isNull(passwordResetTokens.usedAt)));
  await ctx.db.insert(passwordResetTokens).values({
    tokenHash,
    accountId: account.id,
    createdAt: now,
    expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * 60_000),
  });
  await writeAudit(ctx, { action: 'account.password_reset_requested', targetType: 'account', targetId: account.id });
  const site = await getSite(ctx.db);
  const locale = asLocale(account.locale);
  await deps.messaging.sendEmail(
    passwordResetMessage(site, locale, account.email, passwordResetLink(site, locale, token, account.id), RESET_LINK_MINUTES),
  );
}

/**
 * Sets a new password, ends every session of the account, lifts a sign-in lock, audits and tells the
 * owner by email. `via` says how (reset link or the backend's updatepassword).
 */
export async function replacePassword(
  ctx: DomainContext,
  account: AccountRow,
  password: string,
  options: { via: 'reset' | 'update'; messaging: Messaging },
): Promise<void> {
  const now = ctx.now();
  await ctx.db
    .update(accounts)
    .set({
      passwordHash: await hashPassword(password),
      failedLoginCount: 0,
      lockedUntil: null,
      // The reset link went to the account's email: opening it proves the address.
      ...(options.via === 'reset' && !account.emailVerifiedAt ? { emailVerifiedAt: now } : {}),
    })
    .where(eq(accounts.id, account.id));
  const sessionsEnded = await deleteAccountSessions(ctx.db, account.id);
  await ctx.events.publish({ type: 'account.sessions.ended', accountId: account.id });
  await ctx.db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.accountId, account.id), isNull(passwordResetTokens.usedAt)));
  await writeAudit(ctx, {
    action: 'account.password_changed',
    targetType: 'account',
    targetId: account.id,
    after: { via: options.via, sessionsEnded },
  });
  const site = await getSite(ctx.db);
  await options.messaging.sendEmail(passwordChangedMessage(site, asLocale(account.locale), account.email, now));
}

/**
 * changepassword (spec §7, frontend: Token, Id, Password): the reset link's token (stored hashed,
 * single use, expiring) sets a new password and ends every session of the account.
 */
export async function changePasswordWithToken(
  ctx: DomainContext,
  input: { token: string; id: number; password: string },
  deps: { messaging: Messaging },
): Promise<void> {
  const now = ctx.now();
  const refused = () => invalidField('Token', 'linkInvalid', 'The link is invalid or has expired. Ask for a new one.');
  const tokenHash = hashToken(input.token);
  const [link] = await ctx.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.tokenHash, tokenHash)).limit(1);
  if (!link || link.accountId !== input.id || link.usedAt || link.expiresAt <= now) throw refused();
  const account = await getActiveAccount(ctx.db, input.id).catch(() => {
    throw refused();
  });
  // Checked before the link is used up, so that the owner can try another password with the same link.
  requireAcceptablePassword(input.password, { field: 'Password', email: account.email });

  const [claimed] = await ctx.db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt)))
    .returning({ accountId: passwordResetTokens.accountId });
  if (!claimed) throw refused();
  await replacePassword({ ...ctx, actor: accountActor(account.id) }, account, input.password, {
    via: 'reset',
    messaging: deps.messaging,
  });
}
