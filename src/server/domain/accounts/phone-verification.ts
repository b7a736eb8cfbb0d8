import { timingSafeEqual } from 'node:crypto';
import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { maskPhone } from '#lib/format.ts';
import { accounts, phoneVerificationCodes } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requireAdvertiser } from '../permissions.ts';
import { asLocale, getSite, internationalPhone, smsCodeMessage } from './account-messages.ts';
import { accountActor, getActiveAccount, invalidField, type AccountRow } from './account-records.ts';
import { hashSmsCode, newSmsCode } from './tokens.ts';
import { refuseWhileImpersonating } from './impersonation.ts';

/** An SMS code works this long... */
export const SMS_CODE_MINUTES = 10;
/** ...for this many tries. */
export const SMS_CODE_MAX_ATTEMPTS = 5;
/** A new code may be asked for this long after the last one... */
export const SMS_RESEND_SECONDS = 60;
/** ...and one phone number gets at most this many codes a day (whatever the account). */
export const SMS_CODES_PER_PHONE_PER_DAY = 10;

export type SentCode = { id: number; expiresAt: string; phone: string };

/**
 * Sends a new 6-digit code to the account's phone without throttling; earlier codes stop working.
 * The code is stored hashed. Answers the code's id (codeverification's `Id`).
 */
export async function issuePhoneCode(
  ctx: DomainContext,
  account: Pick<AccountRow, 'id' | 'locale'> & { phone: string },
  messaging: Messaging,
): Promise<SentCode> {
  const now = ctx.now();
  const code = newSmsCode();
  const expiresAt = new Date(now.getTime() + SMS_CODE_MINUTES * 60_000);
  await ctx.db
    .update(phoneVerificationCodes)
    .set({ usedAt: now })
    .where(and(eq(phoneVerificationCodes.accountId, account.id), isNull(phoneVerificationCodes.usedAt)));
  const [row] = await ctx.db
    .insert(phoneVerificationCodes)
    .values({ accountId: account.id, phone: account.phone, codeHash: hashSmsCode(account.id, code), createdAt: now, expiresAt })
    .returning({ id: phoneVerificationCodes.id });
  await writeAudit(ctx, {
    action: 'account.phone_code_sent',
    targetType: 'account',
    targetId: account.id,
    after: { phone: maskPhone(account.phone), codeId: row!.id },
  });
  const site = await getSite(ctx.db);
  await messaging.sendSms(smsCodeMessage(site, asLocale(account.locale), internationalPhone(account.phone), code, SMS_CODE_MINUTES));
  return { id: row!.id, expiresAt: expiresAt.toISOString(), phone: maskPhone(account.phone) };
}

/**
 * Refuses what needs an SMS code when no SMS reaches a phone (production without SMS_PROVIDER): the
 * person is told now, with what they typed kept, rather than waiting for a code that never comes.
 */
export function requireSmsToPhones(messaging: Pick<Messaging, 'smsReachesPhones'>): void {
  if (!messaging.smsReachesPhones) {
    throw new AppError('UNAVAILABLE', 'Text messages cannot be sent at the moment.', [{ field: 'Phone', message: 'smsUnavailable' }]);
  }
}

/** The refusals every SMS code shares (an advertiser's phone, a visitor's review). */
export const smsCodeErrors = {
  tooSoon: () => new AppError('RATE_LIMITED', 'Wait a moment before asking for a new code.', [{ field: 'Phone', message: 'tooSoon' }]),
  expired: () => invalidField('Code', 'codeExpired', 'The code has expired. Ask for a new one.'),
  tooMany: () => new AppError('RATE_LIMITED', 'Too many wrong attempts. Ask for a new code.', [{ field: 'Code', message: 'codeAttempts' }]),
  wrong: () => invalidField('Code', 'codeWrong', 'The code is wrong.'),
};

/**
 * Refuses a new code when the asker (the account; a visitor: the number) asked less than a minute ago,
 * or the number had its day's share (whoever asked).
 */
export async function requireCodeAllowed(ctx: DomainContext, asker: { accountId: number | null; phone: string }): Promise<void> {
  const now = ctx.now();
  const { tooSoon } = smsCodeErrors;
  const phone = asker.phone;
  const [last] = await ctx.db
    .select({ createdAt: phoneVerificationCodes.createdAt })
    .from(phoneVerificationCodes)
    .where(
      asker.accountId === null
        ? and(eq(phoneVerificationCodes.phone, phone), isNull(phoneVerificationCodes.accountId))
        : eq(phoneVerificationCodes.accountId, asker.accountId),
    )
    .orderBy(desc(phoneVerificationCodes.createdAt))
    .limit(1);
  if (last && now.getTime() - last.createdAt.getTime() < SMS_RESEND_SECONDS * 1000) throw tooSoon();
  const [today] = await ctx.db
    .select({ n: count() })
    .from(phoneVerificationCodes)
    .where(and(eq(phoneVerificationCodes.phone, phone), gt(phoneVerificationCodes.createdAt, new Date(now.getTime() - 86_400_000))));
  if ((today?.n ?? 0) >= SMS_CODES_PER_PHONE_PER_DAY) throw tooSoon();
}

/**
 * sendsms (spec §7, frontend, for the signed-in advertiser): a new code to the account's phone. A
 * different `phone` first becomes the account's number (to be confirmed again); the advert's public
 * number is edited on the basic page.
 */
export async function sendPhoneCode(
  ctx: DomainContext,
  input: { phone?: string | undefined },
  deps: { messaging: Messaging },
): Promise<SentCode> {
  requireAdvertiser(ctx.actor);
  refuseWhileImpersonating(ctx.actor, 'phone.change');
  requireSmsToPhones(deps.messaging);
  const account = await getActiveAccount(ctx.db, ctx.actor.accountId);
  const phone = input.phone ?? account.phone;
  if (!phone) throw invalidField('Phone', 'required', 'Enter your phone number.');
  if (phone === account.phone && account.phoneVerifiedAt) {
    throw new AppError('CONFLICT', 'This phone number is already confirmed.', [{ field: 'Phone', message: 'phoneVerified' }]);
  }
  await requireCodeAllowed(ctx, { accountId: account.id, phone });
  if (phone !== account.phone) {
    await ctx.db.update(accounts).set({ phone, phoneVerifiedAt: null }).where(eq(accounts.id, account.id));
    await writeAudit(ctx, {
      action: 'account.phone_changed',
      targetType: 'account',
      targetId: account.id,
      before: { phone: account.phone, phoneVerifiedAt: account.phoneVerifiedAt?.toISOString() ?? null },
      after: { phone, phoneVerifiedAt: null },
    });
  }
  return issuePhoneCode(ctx, { id: account.id, locale: account.locale, phone }, deps.messaging);
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

type SentCodeRow = typeof phoneVerificationCodes.$inferSelect;

/**
 * One try of a sent code: the try counts before the code is compared (parallel guesses cannot pass
 * SMS_CODE_MAX_ATTEMPTS); a wrong code calls `onWrong` with the tries so far (to audit it) and is refused
 * (`codeWrong`, or `codeAttempts` at the last try). The code is not used up here.
 */
export async function tryPhoneCode(ctx: DomainContext, sent: SentCodeRow, expectedHash: string, onWrong: (attempts: number) => Promise<void>): Promise<void> {
  const [counted] = await ctx.db
    .update(phoneVerificationCodes)
    .set({ attempts: sql`${phoneVerificationCodes.attempts} + 1` })
    .where(and(eq(phoneVerificationCodes.id, sent.id), isNull(phoneVerificationCodes.usedAt), lt(phoneVerificationCodes.attempts, SMS_CODE_MAX_ATTEMPTS)))
    .returning({ attempts: phoneVerificationCodes.attempts });
  if (!counted) throw sent.attempts >= SMS_CODE_MAX_ATTEMPTS ? smsCodeErrors.tooMany() : smsCodeErrors.expired();
  if (!sameHash(sent.codeHash, expectedHash)) {
    await onWrong(counted.attempts);
    throw counted.attempts >= SMS_CODE_MAX_ATTEMPTS ? smsCodeErrors.tooMany() : smsCodeErrors.wrong();
  }
}

/**
 * codeverification (spec §7, frontend: Code, Id): confirms the phone the code was sent to. Each try
 * counts before the code is compared, so parallel guesses cannot pass the limit.
 */
export async function verifyPhoneCode(ctx: DomainContext, input: { id: number; code: string }): Promise<void> {
  refuseWhileImpersonating(ctx.actor, 'phone.change');
  const now = ctx.now();
  const expired = smsCodeErrors.expired;
  const [sent] = await ctx.db.select().from(phoneVerificationCodes).where(eq(phoneVerificationCodes.id, input.id)).limit(1);
  if (!sent?.accountId || sent.usedAt || sent.expiresAt <= now) throw expired();
  const accountId = sent.accountId;

  // A visitor confirming a code acts for the account the code belongs to.
  const audited = ctx.actor.type === 'visitor' ? { ...ctx, actor: accountActor(accountId) } : ctx;
  await tryPhoneCode(ctx, sent, hashSmsCode(accountId, input.code), (attempts) =>
    writeAudit(audited, { action: 'account.phone_code_failed', targetType: 'account', targetId: accountId, after: { codeId: sent.id, attempts } }),
  );

  await ctx.db.update(phoneVerificationCodes).set({ usedAt: now }).where(eq(phoneVerificationCodes.id, sent.id));
  const account = await getActiveAccount(ctx.db, accountId);
  // The code confirms the number it was sent to; if the account's number changed since, ask again.
  if (account.phone !== sent.phone) throw expired();
  await ctx.db.update(accounts).set({ phoneVerifiedAt: now }).where(eq(accounts.id, accountId));
  await writeAudit(audited, {
    action: 'account.phone_verified',
    targetType: 'account',
    targetId: accountId,
    before: { phone: maskPhone(account.phone), phoneVerifiedAt: account.phoneVerifiedAt?.toISOString() ?? null },
    after: { phone: maskPhone(account.phone), phoneVerifiedAt: now.toISOString() },
  });
}
