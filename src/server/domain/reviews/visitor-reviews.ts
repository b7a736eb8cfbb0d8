/**
 * A visitor writes a review on a public profile (issue 6). The visitor's phone is confirmed by a 6-digit
 * code by SMS (reviewcode), then the review is written with it (addprofilereview) and waits for support
 * (status 0 Pending, support's pending-reviews/ queue). One review per phone number per advert (a unique
 * index keeps it so under races); a number on the advertiser's blacklist is refused in neutral words.
 *
 * Visitors' codes live in phone_verification_codes with no account; their hash is bound to the advert and
 * the number, so a code works only for the review it was asked for. The SMS limits of the advertisers'
 * codes apply per number (one a minute, ten a day whatever asked for them).
 */
import { and, desc, eq, isNull } from 'drizzle-orm';
import { maskPhone } from '#lib/format.ts';
import type { AddProfileReviewInput, ReviewCodeInput, SentReviewCode, WrittenReview } from '#lib/schemas/reviews.ts';
import { adverts, phoneVerificationCodes, reviews, type Advert } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { isAdvertPublic } from '../adverts/visibility.ts';
import { isBlacklisted } from '../adverts/blacklist.ts';
import { REVIEW_STATUS } from '../adverts/reviews.ts';
import { findRiskWords, loadRiskWords } from '../moderation/risk-signals.ts';
import { hashToken } from '../accounts/sessions.ts';
import { newSmsCode } from '../accounts/tokens.ts';
import { isUniqueViolation } from '../accounts/account-records.ts';
import { getSite, internationalPhone, smsCodeMessage } from '../accounts/account-messages.ts';
import { SMS_CODE_MINUTES, requireCodeAllowed, requireSmsToPhones, smsCodeErrors, tryPhoneCode } from '../accounts/phone-verification.ts';

/** How a visitor's code is stored: bound to the advert and the number it is for. */
export function hashReviewCode(advertId: number, phone: string, code: string): string {
  return hashToken(`review:${advertId}:${phone}:${code}`);
}

const advertGone = () =>
  new AppError('NOT_FOUND', 'This advert cannot be reviewed now', [{ field: 'ProfileId', message: 'advertNotPublic' }]);
/** Neutral on purpose: the visitor is not told why (a blacklisted number is not named as such). */
const refused = () => new AppError('FORBIDDEN', 'You cannot review this advert', [{ field: 'Phone', message: 'reviewRefused' }]);
const alreadyReviewed = () =>
  new AppError('CONFLICT', 'You have already reviewed this advert from this phone number', [{ field: 'Phone', message: 'alreadyReviewed' }]);
const codeExpired = smsCodeErrors.expired;

/** The rules a review and its code share: a public advert, a number not refused, no review from it yet. */
async function requireReviewable(ctx: DomainContext, advertId: number, phone: string): Promise<Advert> {
  const [advert] = await ctx.db.select().from(adverts).where(eq(adverts.id, advertId)).limit(1);
  if (!advert || !isAdvertPublic(advert, ctx.now())) throw advertGone();
  if (await isBlacklisted(ctx, advert.id, phone)) throw refused();
  const [earlier] = await ctx.db
    .select({ id: reviews.id })
    .from(reviews)
    .where(and(eq(reviews.advertId, advert.id), eq(reviews.authorPhone, phone)))
    .limit(1);
  if (earlier) throw alreadyReviewed();
  return advert;
}

/**
 * reviewcode (frontend): a new 6-digit code by SMS to the visitor's number for a review of a public
 * advert; earlier codes of the number stop working. Refused before any SMS when the review would be.
 */
export async function sendReviewCode(ctx: DomainContext, input: ReviewCodeInput, deps: { messaging: Messaging }): Promise<SentReviewCode> {
  requireSmsToPhones(deps.messaging);
  const advert = await requireReviewable(ctx, input.ProfileId, input.Phone);
  await requireCodeAllowed(ctx, { accountId: null, phone: input.Phone });
  const now = ctx.now();
  const code = newSmsCode();
  const expiresAt = new Date(now.getTime() + SMS_CODE_MINUTES * 60_000);
  await ctx.db
    .update(phoneVerificationCodes)
    .set({ usedAt: now })
    .where(and(eq(phoneVerificationCodes.phone, input.Phone), isNull(phoneVerificationCodes.accountId), isNull(phoneVerificationCodes.usedAt)));
  const [row] = await ctx.db
    .insert(phoneVerificationCodes)
    .values({ accountId: null, phone: input.Phone, codeHash: hashReviewCode(advert.id, input.Phone, code), createdAt: now, expiresAt })
    .returning({ id: phoneVerificationCodes.id });
  await writeAudit(ctx, {
    action: 'review.code_sent',
    targetType: 'advert',
    targetId: advert.id,
    after: { phone: maskPhone(input.Phone), codeId: row!.id },
  });
  const site = await getSite(ctx.db);
  await deps.messaging.sendSms(smsCodeMessage(site, input.Locale, internationalPhone(input.Phone), code, SMS_CODE_MINUTES));
  return { expiresAt: expiresAt.toISOString(), phone: maskPhone(input.Phone) };
}

/**
 * Confirms the visitor's code for this advert and number and uses it up. Each try counts before the code
 * is compared (parallel guesses cannot pass the limit); a wrong code is audited.
 */
async function useReviewCode(ctx: DomainContext, advertId: number, phone: string, code: string): Promise<void> {
  const now = ctx.now();
  const [sent] = await ctx.db
    .select()
    .from(phoneVerificationCodes)
    .where(and(eq(phoneVerificationCodes.phone, phone), isNull(phoneVerificationCodes.accountId), isNull(phoneVerificationCodes.usedAt)))
    .orderBy(desc(phoneVerificationCodes.createdAt), desc(phoneVerificationCodes.id))
    .limit(1);
  if (!sent || sent.expiresAt <= now) throw codeExpired();
  await tryPhoneCode(ctx, sent, hashReviewCode(advertId, phone, code), (attempts) =>
    writeAudit(ctx, { action: 'review.code_failed', targetType: 'advert', targetId: advertId, after: { phone: maskPhone(phone), codeId: sent.id, attempts } }),
  );
  const [used] = await ctx.db
    .update(phoneVerificationCodes)
    .set({ usedAt: now })
    .where(and(eq(phoneVerificationCodes.id, sent.id), isNull(phoneVerificationCodes.usedAt)))
    .returning({ id: phoneVerificationCodes.id });
  if (!used) throw codeExpired();
}

/**
 * addprofilereview (frontend): the visitor's review (name, rating 1-5, text) with the number confirmed by
 * the code; it waits for support's approval and shows on the profile once approved. Texts with words that
 * suggest a minor are refused (as in advertisers' texts).
 */
export async function addProfileReview(ctx: DomainContext, input: AddProfileReviewInput): Promise<WrittenReview> {
  const advert = await requireReviewable(ctx, input.ProfileId, input.Phone);
  const words = await loadRiskWords(ctx.db);
  const risky = (['Name', 'Text'] as const).filter((field) => findRiskWords(input[field], words).length > 0);
  if (risky.length > 0) {
    throw new AppError('INVALID', 'The text contains words that are not allowed', risky.map((field) => ({ field, message: 'forbiddenWords' })));
  }
  await useReviewCode(ctx, advert.id, input.Phone, input.Code);
  let created: typeof reviews.$inferSelect | undefined;
  try {
    [created] = await ctx.db
      .insert(reviews)
      .values({
        advertId: advert.id,
        authorName: input.Name,
        authorPhone: input.Phone,
        rating: input.Rating,
        text: input.Text,
        status: REVIEW_STATUS.Pending,
        createdAt: ctx.now(),
      })
      .returning();
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyReviewed();
    throw error;
  }
  await writeAudit(ctx, {
    action: 'review.create',
    targetType: 'review',
    targetId: created!.id,
    after: { advertId: advert.id, authorName: input.Name, phone: maskPhone(input.Phone), rating: input.Rating, status: REVIEW_STATUS.Pending },
  });
  return { id: created!.id, status: created!.status, createdAt: created!.createdAt.toISOString() };
}
