import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import { accounts, emailVerificationTokens } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { Db } from '../../db/client.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requireAdvertiser } from '../permissions.ts';
import { hashToken } from './sessions.ts';
import { newLinkToken } from './tokens.ts';
import { refuseWhileImpersonating } from './impersonation.ts';
import {
  asLocale,
  emailChangeAttemptMessage,
  emailChangedMessage,
  emailVerificationLink,
  emailVerificationMessage,
  getSite,
} from './account-messages.ts';
import { emailTaken, getActiveAccount, invalidField, isUniqueViolation, type AccountRow } from './account-records.ts';

/** An email link works this long, once. */
export const EMAIL_LINK_HOURS = 24;
/** A new link may be asked for this long after the last one. */
export const EMAIL_RESEND_SECONDS = 60;

type EmailLink = typeof emailVerificationTokens.$inferSelect;

/**
 * The emailed link (its `purpose`: an address's 'email' link or a 'sign_up' link) whose token this is, when
 * it is unused and unexpired; else null (the caller refuses it as `linkInvalid`).
 */
export async function findUsableEmailLink(ctx: DomainContext, token: string, purpose: EmailLink['purpose']): Promise<EmailLink | null> {
  const [link] = await ctx.db
    .select()
    .from(emailVerificationTokens)
    .where(and(eq(emailVerificationTokens.tokenHash, hashToken(token)), eq(emailVerificationTokens.purpose, purpose)))
    .limit(1);
  return link && !link.usedAt && link.expiresAt > ctx.now() ? link : null;
}

/** Uses an emailed link up, once, also when it is opened twice at once: false when another request was first. */
export async function claimEmailLink(db: Db, link: Pick<EmailLink, 'tokenHash'>, now: Date): Promise<boolean> {
  const [claimed] = await db
    .update(emailVerificationTokens)
    .set({ usedAt: now })
    .where(and(eq(emailVerificationTokens.tokenHash, link.tokenHash), isNull(emailVerificationTokens.usedAt)))
    .returning({ tokenHash: emailVerificationTokens.tokenHash });
  return claimed !== undefined;
}

/** The account's email links (`purpose` 'email'; a sign-up's link is confirm-sign-up.ts's). */
const ofAccount = (accountId: number) =>
  and(eq(emailVerificationTokens.accountId, accountId), eq(emailVerificationTokens.purpose, 'email'));

/**
 * Sends a verification link for `email` (the account's own, or the new one it should change to)
 * without throttling; earlier unused links stop working. The link's token is stored hashed.
 */
export async function issueEmailVerification(
  ctx: DomainContext,
  account: Pick<AccountRow, 'id' | 'locale'>,
  email: string,
  messaging: Messaging,
  options: { addressTaken?: { locale: string } } = {},
): Promise<void> {
  const now = ctx.now();
  const { token, tokenHash } = newLinkToken();
  await ctx.db
    .update(emailVerificationTokens)
    .set({ usedAt: now })
    .where(and(ofAccount(account.id), isNull(emailVerificationTokens.usedAt)));
  await ctx.db.insert(emailVerificationTokens).values({
    tokenHash,
    accountId: account.id,
    email,
    createdAt: now,
    expiresAt: new Date(now.getTime() + EMAIL_LINK_HOURS * 3_600_000),
  });
  await writeAudit(ctx, {
    action: options.addressTaken ? 'account.email_change_address_taken' : 'account.email_link_sent',
    targetType: 'account',
    targetId: account.id,
    after: { email },
  });
  const site = await getSite(ctx.db);
  if (options.addressTaken) {
    // The address belongs to another account: its owner gets a notice, never a link (the token row only
    // makes the resend wait the same; opening it could not change anything).
    await messaging.sendEmail(emailChangeAttemptMessage(site, asLocale(options.addressTaken.locale), email));
    return;
  }
  const locale = asLocale(account.locale);
  await messaging.sendEmail(emailVerificationMessage(site, locale, email, emailVerificationLink(site, token), EMAIL_LINK_HOURS));
}

/**
 * sendemail (spec §7, backend): a new verification link. With a different `email`, the link goes to
 * that address, which becomes the account's email once the link is opened (verified again).
 */
export async function sendEmailVerification(
  ctx: DomainContext,
  input: { email?: string | undefined },
  deps: { messaging: Messaging },
): Promise<void> {
  requireAdvertiser(ctx.actor);
  refuseWhileImpersonating(ctx.actor, 'email.change');
  const account = await getActiveAccount(ctx.db, ctx.actor.accountId);
  const email = input.email ?? account.email;
  if (email === account.email && account.emailVerifiedAt) {
    throw new AppError('CONFLICT', 'This email address is already confirmed.', [{ field: 'Email', message: 'emailVerified' }]);
  }
  const [taken] =
    email === account.email
      ? []
      : await ctx.db
          .select({ id: accounts.id, locale: accounts.locale })
          .from(accounts)
          .where(and(eq(accounts.email, email), ne(accounts.id, account.id)))
          .limit(1);
  const [last] = await ctx.db
    .select({ createdAt: emailVerificationTokens.createdAt })
    .from(emailVerificationTokens)
    .where(ofAccount(account.id))
    .orderBy(desc(emailVerificationTokens.createdAt))
    .limit(1);
  if (last && ctx.now().getTime() - last.createdAt.getTime() < EMAIL_RESEND_SECONDS * 1000) {
    throw new AppError('RATE_LIMITED', 'Wait a moment before asking for a new link.', [{ field: 'Email', message: 'tooSoon' }]);
  }
  if (taken) {
    // Never "email taken" (issue 15): the answer is the one any address gets; the address's owner is told,
    // and the attempt counts for the resend wait like a link would.
    await issueEmailVerification(ctx, account, email, deps.messaging, { addressTaken: { locale: taken.locale } });
    return;
  }
  await issueEmailVerification(ctx, account, email, deps.messaging);
}

/**
 * emailverification (spec §7, backend; the basic page runs it with its `url` query): the signed-in
 * advertiser's link token confirms the address, once, before it expires. A link for a new address
 * changes the account's email and tells the old address.
 */
export async function verifyEmail(
  ctx: DomainContext,
  input: { token: string },
  deps: { messaging: Messaging },
): Promise<{ email: string; emailVerified: true }> {
  requireAdvertiser(ctx.actor);
  refuseWhileImpersonating(ctx.actor, 'email.change');
  const now = ctx.now();
  const refused = () => invalidField('Url', 'linkInvalid', 'The link is invalid or has expired. Ask for a new one.');
  const link = await findUsableEmailLink(ctx, input.token, 'email');
  if (!link || link.accountId !== ctx.actor.accountId) throw refused();
  const account = await getActiveAccount(ctx.db, link.accountId);
  if (!(await claimEmailLink(ctx.db, link, now))) throw refused();

  try {
    await ctx.db.update(accounts).set({ email: link.email, emailVerifiedAt: now }).where(eq(accounts.id, account.id));
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken('Url');
    throw error;
  }
  await writeAudit(ctx, {
    action: 'account.email_verified',
    targetType: 'account',
    targetId: account.id,
    before: { email: account.email, emailVerifiedAt: account.emailVerifiedAt?.toISOString() ?? null },
    after: { email: link.email, emailVerifiedAt: now.toISOString() },
  });
  if (link.email !== account.email) {
    const site = await getSite(ctx.db);
    await deps.messaging.sendEmail(emailChangedMessage(site, asLocale(account.locale), account.email, link.email));
  }
  return { email: link.email, emailVerified: true };
}
