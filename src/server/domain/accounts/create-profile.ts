import { eq } from 'drizzle-orm';
import { slugify } from '#lib/format.ts';
import { ageOn, MIN_AGE, type CreateProfileInput } from '#lib/schemas/account.ts';
import { accounts, adverts, cities, regions } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { PROFILE_STATUS } from '../adverts/statuses.ts';
import { hashPassword } from './passwords.ts';
import { createSession, type NewSession } from './sessions.ts';
import { requireAcceptablePassword } from './password-policy.ts';
import { requireNoRiskWords } from '../moderation/risk-signals.ts';
import { getUserProfile, type UserProfile } from './get-user-profile.ts';
import { issueEmailVerification } from './email-verification.ts';
import { issuePhoneCode } from './phone-verification.ts';
import { attachTempPictures } from '../media/pictures.ts';
import { accountActor, findAccountByEmail, invalidField, isUniqueViolation, type AccountRow } from './account-records.ts';
import { asLocale, getSite, signUpAttemptMessage } from './account-messages.ts';

export type CreatedProfile = UserProfile & {
  advertId: number;
  /** The id of the SMS code just sent (codeverification's `Id`). */
  phoneVerificationId: number;
};

/** The region exists and the city lies in it; else a 400 naming RegionId or CityId. */
async function requireCityInRegion(ctx: DomainContext, regionId: number, cityId: number): Promise<void> {
  const [region] = await ctx.db.select({ id: regions.id }).from(regions).where(eq(regions.id, regionId)).limit(1);
  if (!region) throw invalidField('RegionId', 'region', 'Choose a region.');
  const [city] = await ctx.db.select({ regionId: cities.regionId }).from(cities).where(eq(cities.id, cityId)).limit(1);
  if (!city || city.regionId !== regionId) throw invalidField('CityId', 'city', 'Choose a city in the chosen region.');
}

/**
 * What createprofile did: created the account (and signed in), or found the address taken, in which case
 * nothing is created and the owner is to be told by email (`notifyOwner`, which the door runs after its
 * answer) — the visitor is only asked to check that mailbox, never told that the address is taken.
 */
export type CreateProfileResult =
  | { kind: 'created'; session: NewSession; profile: CreatedProfile }
  | { kind: 'addressTaken'; notifyOwner: () => Promise<void> };

/** The address has an account: the same cost as a sign-up (the password is hashed), an audit, and the owner's email to send. */
async function signUpForTakenAddress(
  ctx: DomainContext,
  owner: AccountRow,
  input: CreateProfileInput,
  messaging: Messaging,
): Promise<CreateProfileResult> {
  await hashPassword(input.Password);
  await writeAudit({ ...ctx, actor: { type: 'visitor' } }, { action: 'account.sign_up_attempt', targetType: 'account', targetId: owner.id });
  return {
    kind: 'addressTaken',
    notifyOwner: async () => {
      await messaging.sendEmail(signUpAttemptMessage(await getSite(ctx.db), asLocale(owner.locale), owner.email));
    },
  };
}

/**
 * createprofile (spec §7, frontend; the /create screen): the account and its advert draft in one
 * step. The advertiser must be 18 or older and accept the terms (18+ and the anti-trafficking rules);
 * the advert starts as New (not public until support approves it and the advertiser is verified).
 * Signs the advertiser in (a new session) and sends the email link and the SMS code. Pictures the
 * browser uploaded during /create (its upload token) are attached to the new advert. An address that
 * already has an account is never answered "taken" (issue 15): the sign-up completes by email, where the
 * owner reads that someone tried and how to sign in or reset the password.
 */
export async function createProfile(
  ctx: DomainContext,
  input: CreateProfileInput,
  deps: { messaging: Messaging; sessionDays: number; uploadToken?: string | undefined },
): Promise<CreateProfileResult> {
  const now = ctx.now();
  if (ageOn(input.DateOfBirth, now) < MIN_AGE) {
    throw invalidField('DateOfBirth', 'underAge', 'You must be at least 18 years old to create an advert.');
  }
  if (!input.AcceptTerms) throw invalidField('AcceptTerms', 'acceptTerms', 'Accept the terms to continue.');
  await requireCityInRegion(ctx, input.RegionId, input.CityId);
  requireAcceptablePassword(input.Password, { field: 'Password', email: input.Email });
  // Words suggesting a minor block the advert's name here as they block its texts later (risk signals).
  await requireNoRiskWords(ctx.db, { name: input.Name });
  const existing = await findAccountByEmail(ctx.db, input.Email);
  if (existing) return signUpForTakenAddress(ctx, existing, input, deps.messaging);

  const passwordHash = await hashPassword(input.Password);
  let created: { accountId: number; advertId: number };
  try {
    created = await ctx.db.transaction(async (tx) => {
      const [account] = await tx
        .insert(accounts)
        .values({
          email: input.Email,
          passwordHash,
          phone: input.Phone,
          dateOfBirth: input.DateOfBirth,
          locale: input.Locale,
          termsAcceptedAt: now,
          createdAt: now,
        })
        .returning({ id: accounts.id });
      const accountId = account!.id;
      const [advert] = await tx
        .insert(adverts)
        .values({
          accountId,
          kind: input.Kind,
          gender: input.Gender,
          status: PROFILE_STATUS.New,
          name: input.Name,
          slug: slugify(input.Name) || 'annonce',
          locale: input.Locale,
          phone: input.Phone,
          regionId: input.RegionId,
          cityId: input.CityId,
          age: ageOn(input.DateOfBirth, now),
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: adverts.id });
      const advertId = advert!.id;
      const audited = { ...ctx, db: tx, actor: accountActor(accountId) };
      await writeAudit(audited, {
        action: 'account.create',
        targetType: 'account',
        targetId: accountId,
        after: {
          email: input.Email,
          phone: input.Phone,
          dateOfBirth: input.DateOfBirth,
          locale: input.Locale,
          termsAcceptedAt: now.toISOString(),
        },
      });
      await writeAudit(audited, {
        action: 'advert.create',
        targetType: 'advert',
        targetId: advertId,
        after: {
          accountId,
          kind: input.Kind,
          gender: input.Gender,
          status: PROFILE_STATUS.New,
          name: input.Name,
          regionId: input.RegionId,
          cityId: input.CityId,
        },
      });
      return { accountId, advertId };
    });
  } catch (error) {
    // Two sign-ups with one email at the same moment: the second meets the unique index.
    const taken = isUniqueViolation(error) ? await findAccountByEmail(ctx.db, input.Email) : undefined;
    if (taken) return signUpForTakenAddress(ctx, taken, input, deps.messaging);
    throw error;
  }

  // Pictures uploaded during /create (profilepictureuploadertemp) become the new advert's, pending.
  if (deps.uploadToken) await attachTempPictures(ctx.db, deps.uploadToken, created.advertId);

  const session = await createSession(ctx.db, { accountId: created.accountId }, {
    days: deps.sessionDays,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    now,
  });
  const owner = { ...ctx, actor: accountActor(created.accountId) };
  const account = { id: created.accountId, locale: input.Locale };
  await issueEmailVerification(owner, account, input.Email, deps.messaging);
  const code = await issuePhoneCode(owner, { ...account, phone: input.Phone }, deps.messaging);
  const profile = await getUserProfile(ctx.db, created.accountId, now);
  return { kind: 'created', session, profile: { ...profile, advertId: created.advertId, phoneVerificationId: code.id } };
}
