import { and, desc, eq, isNull } from 'drizzle-orm';
import { accounts, passwordResetTokens } from '../../db/schema.ts';
import type { Messaging, OutgoingEmail } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { hashPassword } from './passwords.ts';
import { deleteAccountSessions, hashToken } from './sessions.ts';
import { newLinkToken } from './tokens.ts';
import { requireAcceptablePassword } from './password-policy.ts';
import {
  asLocale,
  getSite,
  passwordChangedMessage,
  passwordResetLink,
  passwordResetMessage,
  type Site,
} from './account-messages.ts';
import { accountActor, findAccountByEmail, getActiveAccount, invalidField, type AccountRow } from './account-records.ts';

/** A reset link works this long, once. */
export const RESET_LINK_MINUTES = 60;
/** At most one reset email per account this often (further requests are answered the same, silently). */
export const RESET_RESEND_SECONDS = 60;

/** Who a reset link is for: an advertiser's account or a support user (the token table has a column for each). */
export type ResetHolder = { type: 'account' | 'support_user'; id: number };

const holderColumn = (holder: Pick<ResetHolder, 'type'>) =>
  holder.type === 'account' ? passwordResetTokens.accountId : passwordResetTokens.supportUserId;

/**
 * Sends the holder a reset link (made by `message` from the site and the link's token) unless one went
 * within RESET_RESEND_SECONDS. Earlier unused links stop working; the new one is stored hashed and works
 * RESET_LINK_MINUTES, once. Audited as `{type}.password_reset_requested`.
 */
export async function sendPasswordResetLink(
  ctx: DomainContext,
  holder: ResetHolder,
  message: (site: Site, token: string) => OutgoingEmail,
  deps: { messaging: Messaging },
): Promise<void> {
  const now = ctx.now();
  const column = holderColumn(holder);
  const [last] = await ctx.db
    .select({ createdAt: passwordResetTokens.createdAt })
    .from(passwordResetTokens)
    .where(eq(column, holder.id))
    .orderBy(desc(passwordResetTokens.createdAt))
    .limit(1);
  if (last && now.getTime() - last.createdAt.getTime() < RESET_RESEND_SECONDS * 1000) return;

  const { token, tokenHash } = newLinkToken();
  await endPasswordResetLinks(ctx, holder);
  await ctx.db.insert(passwordResetTokens).values({
    tokenHash,
    accountId: holder.type === 'account' ? holder.id : null,
    supportUserId: holder.type === 'support_user' ? holder.id : null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * 60_000),
  });
  await writeAudit(ctx, { action: `${holder.type}.password_reset_requested`, targetType: holder.type, targetId: holder.id });
  await deps.messaging.sendEmail(message(await getSite(ctx.db), token));
}

/** Every unused reset link of the holder stops working (a new link was sent, or the password changed). */
export async function endPasswordResetLinks(ctx: DomainContext, holder: ResetHolder): Promise<void> {
  await ctx.db
    .update(passwordResetTokens)
    .set({ usedAt: ctx.now() })
    .where(and(eq(holderColumn(holder), holder.id), isNull(passwordResetTokens.usedAt)));
}

/**
 * Uses up a reset link (token and id from /login/change/ or /support/login/change/): it must be the
 * holder's, unused and unexpired, and `load` must find the holder (null: gone or disabled). `check` runs
 * before the link is used up (the password policy), so the owner can try another password with the same
 * link. Anything wrong with the link answers `linkInvalid` at `Token`.
 */
export async function claimPasswordResetLink<THolder>(
  ctx: DomainContext,
  input: { token: string; id: number; type: ResetHolder['type'] },
  load: (id: number) => Promise<THolder | null>,
  check: (holder: THolder) => void,
): Promise<THolder> {
  const now = ctx.now();
  const refused = () => invalidField('Token', 'linkInvalid', 'The link is invalid or has expired. Ask for a new one.');
  const tokenHash = hashToken(input.token);
  const [link] = await ctx.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.tokenHash, tokenHash)).limit(1);
  const linkHolderId = input.type === 'account' ? link?.accountId : link?.supportUserId;
  if (!link || linkHolderId !== input.id || link.usedAt || link.expiresAt <= now) throw refused();
  const holder = await load(input.id);
  if (!holder) throw refused();
  check(holder);
  const [claimed] = await ctx.db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt)))
    .returning({ tokenHash: passwordResetTokens.tokenHash });
  if (!claimed) throw refused();
  return holder;
}

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
  const locale = asLocale(account.locale);
  await sendPasswordResetLink(
    ctx,
    { type: 'account', id: account.id },
    (site, token) =>
      passwordResetMessage(site, locale, account.email, passwordResetLink(site, locale, token, account.id), RESET_LINK_MINUTES),
    deps,
  );
}

/**
 * Sets a new password, ends every session of the account, lifts a sign-in lock, audits and tells the
 * owner by email. `via` says how (reset link or the backend's updatepassword); a reset also confirms the
 * email and an unconfirmed sign-up.
 */
export async function replacePassword(
  ctx: DomainContext,
  account: AccountRow,
  password: string,
  options: { via: 'reset' | 'update'; messaging: Messaging },
): Promise<void> {
  const now = ctx.now();
  const confirmsSignUp = options.via === 'reset' && !account.activatedAt;
  await ctx.db
    .update(accounts)
    .set({
      passwordHash: await hashPassword(password),
      // Lifts the sign-in lock of every address (sign-in-lock.ts counts failures after it).
      passwordChangedAt: now,
      // The reset link went to the account's email: opening it proves the address, and so confirms a
      // sign-up that was not confirmed yet (docs/decisions/024).
      ...(options.via === 'reset' && !account.emailVerifiedAt ? { emailVerifiedAt: now } : {}),
      ...(confirmsSignUp ? { activatedAt: now } : {}),
    })
    .where(eq(accounts.id, account.id));
  if (confirmsSignUp) {
    await writeAudit(ctx, {
      action: 'account.sign_up_confirmed',
      targetType: 'account',
      targetId: account.id,
      before: { activatedAt: null },
      after: { activatedAt: now.toISOString(), via: 'reset' },
    });
  }
  const sessionsEnded = await deleteAccountSessions(ctx.db, account.id);
  await ctx.events.publish({ type: 'account.sessions.ended', accountId: account.id });
  await endPasswordResetLinks(ctx, { type: 'account', id: account.id });
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
  const account = await claimPasswordResetLink(
    ctx,
    { token: input.token, id: input.id, type: 'account' },
    (id) => getActiveAccount(ctx.db, id).catch(() => null),
    (found) => requireAcceptablePassword(input.password, { field: 'Password', email: found.email }),
  );
  await replacePassword({ ...ctx, actor: accountActor(account.id) }, account, input.password, {
    via: 'reset',
    messaging: deps.messaging,
  });
}
