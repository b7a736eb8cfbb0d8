import { and, desc, eq, isNull } from 'drizzle-orm';
import { SIGN_UP_LINK_HOURS, SIGN_UP_RESEND_SECONDS } from '#lib/schemas/account.ts';

export { SIGN_UP_RESEND_SECONDS };
import { accounts, emailVerificationTokens } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { createSession, type NewSession } from './sessions.ts';
import { claimEmailLink, findUsableEmailLink } from './email-verification.ts';
import { newLinkToken } from './tokens.ts';
import { getUserProfile, type UserProfile } from './get-user-profile.ts';
import { issuePhoneCode } from './phone-verification.ts';
import { recordLoginEvent, requireAdvertiserPassword } from './sign-in-advertiser.ts';
import { accountActor, invalidField, type AccountRow } from './account-records.ts';
import { asLocale, getSite, signUpConfirmationLink, signUpConfirmationMessage } from './account-messages.ts';

/**
 * A sign-up completes by email (issue 15, docs/decisions/024): createprofile makes the account unconfirmed
 * (`accounts.activated_at` null: no sign-in) and emails a link to /create/?confirm=…; confirmsignup takes
 * the link's token and the password chosen at sign-up, confirms, signs in and sends the SMS code.
 */

/**
 * A sign-up link works SIGN_UP_LINK_HOURS, once. A sign-up still unconfirmed this long after its last
 * link expired is removed (job `account.erasure`).
 */
export const UNCONFIRMED_SIGN_UP_GRACE_DAYS = 7;
/** Days from the last link to the removal, as the email says. */
export const UNCONFIRMED_SIGN_UP_DAYS = SIGN_UP_LINK_HOURS / 24 + UNCONFIRMED_SIGN_UP_GRACE_DAYS;
/** A repeated sign-up of an unconfirmed address sends no new link within this long of the last one (silently). */

/**
 * Emails the account a link that confirms its sign-up; earlier unused sign-up links stop working, and the
 * new one is stored hashed. `again`: the address signed up once more before confirming (the message says
 * that the first sign-up stands); within SIGN_UP_RESEND_SECONDS of the last link nothing is sent.
 */
export async function issueSignUpLink(
  ctx: DomainContext,
  account: Pick<AccountRow, 'id' | 'email' | 'locale'>,
  messaging: Messaging,
  options: { again: boolean },
): Promise<void> {
  const now = ctx.now();
  const ofAccount = and(eq(emailVerificationTokens.accountId, account.id), eq(emailVerificationTokens.purpose, 'sign_up'));
  if (options.again) {
    const [last] = await ctx.db
      .select({ createdAt: emailVerificationTokens.createdAt })
      .from(emailVerificationTokens)
      .where(ofAccount)
      .orderBy(desc(emailVerificationTokens.createdAt))
      .limit(1);
    if (last && now.getTime() - last.createdAt.getTime() < SIGN_UP_RESEND_SECONDS * 1000) return;
  }
  const { token, tokenHash } = newLinkToken();
  await ctx.db.update(emailVerificationTokens).set({ usedAt: now }).where(and(ofAccount, isNull(emailVerificationTokens.usedAt)));
  await ctx.db.insert(emailVerificationTokens).values({
    tokenHash,
    accountId: account.id,
    email: account.email,
    purpose: 'sign_up',
    createdAt: now,
    expiresAt: new Date(now.getTime() + SIGN_UP_LINK_HOURS * 3_600_000),
  });
  await writeAudit(ctx, { action: 'account.sign_up_link_sent', targetType: 'account', targetId: account.id, after: { email: account.email } });
  const site = await getSite(ctx.db);
  const locale = asLocale(account.locale);
  const link = { url: signUpConfirmationLink(site, locale, token), hours: SIGN_UP_LINK_HOURS, removedAfterDays: UNCONFIRMED_SIGN_UP_DAYS };
  await messaging.sendEmail(signUpConfirmationMessage(site, locale, account.email, link, options));
}

/** confirmsignup's answer: what createprofile answered before sign-up completed by email (the /create SMS step reads it). */
export type ConfirmedSignUp = UserProfile & {
  /** The account's phone (8 digits), where the SMS code went. */
  phone: string;
  /** The id of the SMS code just sent (codeverification's `Id`). */
  phoneVerificationId: number;
};

/**
 * confirmsignup (frontend, the /create/?confirm=… screen): the sign-up link's token (hashed, unused,
 * unexpired, of an account whose sign-up is unconfirmed; else 400 `linkInvalid` at Token) and the
 * password chosen at sign-up, checked as a sign-in is (wrong passwords count toward the sign-in lock of
 * the email and client address; 401 `wrongCredentials` or 429 `accountLocked` at Password), so a stranger
 * at a mistyped address cannot enter the account. Then, in one transaction: the sign-up and the email are
 * confirmed, the link is used up, a session is made and the sign-in recorded and audited; then the SMS code
 * goes to the account's phone.
 */
export async function confirmSignUp(
  ctx: DomainContext,
  input: { token: string; password: string },
  deps: { messaging: Messaging; sessionDays: number },
): Promise<{ session: NewSession; profile: ConfirmedSignUp }> {
  const now = ctx.now();
  const refused = () => invalidField('Token', 'linkInvalid', 'The link is invalid or has expired. Ask for a new one.');
  const link = await findUsableEmailLink(ctx, input.token, 'sign_up');
  if (!link) throw refused();
  const [found] = await ctx.db.select().from(accounts).where(eq(accounts.id, link.accountId)).limit(1);
  if (!found || found.deletedAt || found.activatedAt || found.email !== link.email) throw refused();

  const account = await requireAdvertiserPassword(ctx, {
    email: found.email,
    password: input.password,
    account: found,
    accepts: () => true,
    field: 'Password',
  });
  // createprofile always stores the phone, where the code goes next.
  const phone = account.phone;
  if (!phone) throw new Error(`account ${account.id} signed up without a phone`);

  const owner = { ...ctx, actor: accountActor(account.id) };
  const session = await ctx.db.transaction(async (tx) => {
    const claimed = await claimEmailLink(tx, link, now);
    const [confirmed] = await tx
      .update(accounts)
      .set({ activatedAt: now, emailVerifiedAt: account.emailVerifiedAt ?? now, lastLoginAt: now })
      .where(and(eq(accounts.id, account.id), isNull(accounts.activatedAt)))
      .returning({ id: accounts.id });
    if (!claimed || !confirmed) throw refused();
    const inTx = { ...owner, db: tx };
    const made = await createSession(tx, { accountId: account.id }, { days: deps.sessionDays, ip: ctx.ip, userAgent: ctx.userAgent, now });
    await recordLoginEvent(inTx, { accountId: account.id, email: account.email, success: true });
    await writeAudit(inTx, {
      action: 'account.sign_up_confirmed',
      targetType: 'account',
      targetId: account.id,
      before: { activatedAt: null, emailVerifiedAt: account.emailVerifiedAt?.toISOString() ?? null },
      after: { activatedAt: now.toISOString(), emailVerifiedAt: (account.emailVerifiedAt ?? now).toISOString(), via: 'link' },
    });
    await writeAudit(inTx, { action: 'account.sign_in', targetType: 'account', targetId: account.id });
    return made;
  });

  const code = await issuePhoneCode(owner, { id: account.id, locale: account.locale, phone }, deps.messaging);
  const profile = await getUserProfile(ctx.db, account.id, now);
  return { session, profile: { ...profile, phone, phoneVerificationId: code.id } };
}
