import { eq } from 'drizzle-orm';
import { slugify } from '#lib/format.ts';
import { ageOn, MIN_AGE, type CreateProfileInput } from '#lib/schemas/account.ts';
import { accounts, adverts, cities, regions } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { PROFILE_STATUS } from '../adverts/statuses.ts';
import { hashPassword } from './passwords.ts';
import { requireAcceptablePassword } from './password-policy.ts';
import { requireNoRiskWords } from '../moderation/risk-signals.ts';
import { issueSignUpLink } from './confirm-sign-up.ts';
import { attachTempPictures } from '../media/pictures.ts';
import { accountActor, findAccountByEmail, invalidField, isUniqueViolation, type AccountRow } from './account-records.ts';
import { asLocale, getSite, signUpAttemptMessage } from './account-messages.ts';
import { requireSmsToPhones } from './phone-verification.ts';

/** The region exists and the city lies in it; else a 400 naming RegionId or CityId. */
async function requireCityInRegion(ctx: DomainContext, regionId: number, cityId: number): Promise<void> {
  const [region] = await ctx.db.select({ id: regions.id }).from(regions).where(eq(regions.id, regionId)).limit(1);
  if (!region) throw invalidField('RegionId', 'region', 'Choose a region.');
  const [city] = await ctx.db.select({ regionId: cities.regionId }).from(cities).where(eq(cities.id, cityId)).limit(1);
  if (!city || city.regionId !== regionId) throw invalidField('CityId', 'city', 'Choose a city in the chosen region.');
}

type NewAccountValues = typeof accounts.$inferInsert & { email: string; phone: string; dateOfBirth: string; locale: string };
type NewAdvertValues = Omit<typeof adverts.$inferInsert, 'accountId' | 'status' | 'slug' | 'locale' | 'phone' | 'createdAt' | 'updatedAt'> & {
  kind: number;
  gender: number;
  name: string;
};

/**
 * The account and its advert, New (not public until verified and approved), in the caller's transaction,
 * both audited as the account's own acts: the one way an advertiser comes to be (createprofile, and the
 * claim of an advert from the old site). Answers the new ids.
 */
export async function insertAccountWithAdvert(
  ctx: DomainContext,
  account: NewAccountValues,
  advertValues: NewAdvertValues,
  audit: { via?: string } = {},
): Promise<{ accountId: number; advertId: number }> {
  const now = account.createdAt ?? ctx.now();
  const [inserted] = await ctx.db.insert(accounts).values(account).returning({ id: accounts.id });
  const accountId = inserted!.id;
  const [advert] = await ctx.db
    .insert(adverts)
    .values({
      ...advertValues,
      accountId,
      status: PROFILE_STATUS.New,
      slug: slugify(advertValues.name) || 'annonce',
      locale: account.locale,
      phone: account.phone,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: adverts.id });
  const advertId = advert!.id;
  const audited = { ...ctx, actor: accountActor(accountId) };
  const via = audit.via ? { via: audit.via } : {};
  await writeAudit(audited, {
    action: 'account.create',
    targetType: 'account',
    targetId: accountId,
    after: {
      email: account.email,
      phone: account.phone,
      dateOfBirth: account.dateOfBirth,
      locale: account.locale,
      termsAcceptedAt: account.termsAcceptedAt?.toISOString() ?? null,
      ...via,
    },
  });
  await writeAudit(audited, {
    action: 'advert.create',
    targetType: 'advert',
    targetId: advertId,
    after: {
      accountId,
      kind: advertValues.kind,
      gender: advertValues.gender,
      status: PROFILE_STATUS.New,
      name: advertValues.name,
      regionId: advertValues.regionId ?? null,
      cityId: advertValues.cityId ?? null,
      ...via,
    },
  });
  return { accountId, advertId };
}

/**
 * What createprofile leaves for after its answer (`deps.afterResponse`): the one email to the address, a
 * link that confirms the new sign-up, or, for an address that has an account, its owner's email. The
 * answer itself is the same either way (issue 15).
 */
export type SignUpEmail = () => Promise<void>;

/**
 * The address has an account: the same work as a sign-up before the answer (the password is hashed, a row
 * written), and the owner's email for after it. A confirmed (or deleted) account's owner reads that someone
 * tried to sign up, and how to sign in or reset; an account whose sign-up was never confirmed gets a fresh
 * confirmation link instead (its first sign-up and password stand: nothing typed now is saved).
 */
async function signUpForTakenAddress(
  ctx: DomainContext,
  owner: AccountRow,
  input: CreateProfileInput,
  messaging: Messaging,
): Promise<SignUpEmail> {
  await hashPassword(input.Password);
  await writeAudit({ ...ctx, actor: { type: 'visitor' } }, { action: 'account.sign_up_attempt', targetType: 'account', targetId: owner.id });
  if (!owner.activatedAt && !owner.deletedAt) {
    return () => issueSignUpLink({ ...ctx, actor: accountActor(owner.id) }, owner, messaging, { again: true });
  }
  return async () => {
    await messaging.sendEmail(signUpAttemptMessage(await getSite(ctx.db), asLocale(owner.locale), owner.email));
  };
}

/**
 * createprofile (spec §7, frontend; the /create screen): the account and its advert draft in one
 * step. The advertiser must be 18 or older and accept the terms (18+ and the anti-trafficking rules);
 * the advert starts as New (not public until support approves it and the advertiser is verified).
 * Pictures the browser uploaded during /create (its upload token) are attached to the new advert. The
 * sign-up completes by email (docs/decisions/024): the account stays unconfirmed (no session, no SMS yet)
 * until its owner opens the emailed link and gives the password (confirmsignup). An address that already
 * has an account is never answered "taken" (issue 15): nothing is created, and its owner is emailed.
 * Answers the email to send after the answer.
 */
export async function createProfile(
  ctx: DomainContext,
  input: CreateProfileInput,
  deps: { messaging: Messaging; uploadToken?: string | undefined },
): Promise<SignUpEmail> {
  const now = ctx.now();
  // Sign-up ends with a code by SMS: said now, before anything is made, when none can be sent.
  requireSmsToPhones(deps.messaging);
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
    created = await ctx.db.transaction(async (tx) =>
      insertAccountWithAdvert(
        { ...ctx, db: tx },
        {
          email: input.Email,
          passwordHash,
          phone: input.Phone,
          dateOfBirth: input.DateOfBirth,
          locale: input.Locale,
          termsAcceptedAt: now,
          // Unconfirmed until the emailed link and the password (confirmsignup).
          activatedAt: null,
          createdAt: now,
        },
        {
          kind: input.Kind,
          gender: input.Gender,
          name: input.Name,
          regionId: input.RegionId,
          cityId: input.CityId,
          age: ageOn(input.DateOfBirth, now),
        },
      ),
    );
  } catch (error) {
    // Two sign-ups with one email at the same moment: the second meets the unique index.
    const taken = isUniqueViolation(error) ? await findAccountByEmail(ctx.db, input.Email) : undefined;
    if (taken) return signUpForTakenAddress(ctx, taken, input, deps.messaging);
    throw error;
  }

  // Pictures uploaded during /create (profilepictureuploadertemp) become the new advert's, pending.
  if (deps.uploadToken) await attachTempPictures(ctx.db, deps.uploadToken, created.advertId);
  const account = { id: created.accountId, email: input.Email, locale: input.Locale };
  return () => issueSignUpLink({ ...ctx, actor: accountActor(created.accountId) }, account, deps.messaging, { again: false });
}
