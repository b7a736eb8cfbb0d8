import { and, eq, gt, inArray } from 'drizzle-orm';
import { ageOn, MIN_AGE, type ClaimMigratedAdvertInput } from '#lib/schemas/account.ts';
import type { MigratedAdvertData } from '#lib/schemas/migration.ts';
import { accounts, adverts, extraPriceItems, migratedAdverts, pictures, priceListItems } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requirePermission } from '../permissions.ts';
import { hashToken, createSession, type NewSession } from '../accounts/sessions.ts';
import { newLinkToken } from '../accounts/tokens.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { requireAcceptablePassword } from '../accounts/password-policy.ts';
import { insertAccountWithAdvert } from '../accounts/create-profile.ts';
import { getUserProfile } from '../accounts/get-user-profile.ts';
import { issuePhoneCode, requireSmsToPhones } from '../accounts/phone-verification.ts';
import { recordLoginEvent } from '../accounts/sign-in-advertiser.ts';
import type { ConfirmedSignUp } from '../accounts/confirm-sign-up.ts';
import { accountActor, findAccountByEmail, invalidField, isUniqueViolation } from '../accounts/account-records.ts';
import { getSite, internationalPhone } from '../accounts/account-messages.ts';
import { claimInvitationEmail, claimInvitationSms } from './claim-messages.ts';

/**
 * Taking over an advert from the old site (issue 18, docs/decisions/031): support invites the owner
 * (`inviteMigratedAdvert`), the owner opens the emailed one-time link and makes the account
 * (`claimMigratedAdvert`): a password, the date of birth and the terms, as at /create; the email is
 * confirmed by the link, the phone next by the SMS code. The advert arrives as a New advert with its texts,
 * prices and pictures (pending), and goes through verification and support's approval like any other.
 * Or support finds it is an existing advertiser's advert (`mergeMigratedAdvert`): the old address then leads
 * to that advert.
 */

/** A claim link works this many days, once; a new invitation replaces it. */
export const MIGRATION_CLAIM_DAYS = 30;
const DAY = 86_400_000;

/** The states an invitation may go out from (again: a new link, the earlier one stops working). */
const INVITABLE = ['imported', 'invited'];

async function importedAdvert(ctx: DomainContext, id: number) {
  const [row] = await ctx.db.select().from(migratedAdverts).where(eq(migratedAdverts.id, id)).limit(1);
  if (!row) throw notFound('Imported advert not found');
  return row;
}

/**
 * invitemigrationadvert (Support): a one-time link by email to the imported advert's address and a notice
 * by SMS to its phone (docs/decisions/031: the link by email only). Needs an email and a phone; an address
 * that already has an account is refused (support merges instead: a second account would be refused at the
 * claim anyway). The link is never in the answer: only its owner reads it.
 */
export async function inviteMigratedAdvert(
  ctx: DomainContext,
  id: number,
  deps: { messaging: Messaging },
): Promise<{ state: 'invited'; invitedAt: string; claimExpiresAt: string }> {
  requirePermission(ctx.actor, 'migration:manage:any');
  const row = await importedAdvert(ctx, id);
  if (!INVITABLE.includes(row.state)) throw new AppError('CONFLICT', `An imported advert in state ${row.state} cannot be invited`, [{ field: 'Id', message: 'notInvitable' }]);
  if (!row.email) throw new AppError('CONFLICT', 'The imported advert has no email address', [{ field: 'Id', message: 'noEmail' }]);
  if (!row.phone) throw new AppError('CONFLICT', 'The imported advert has no phone number', [{ field: 'Id', message: 'noPhone' }]);
  if (await findAccountByEmail(ctx.db, row.email)) {
    throw new AppError('CONFLICT', 'The email address has an account: merge instead', [{ field: 'Id', message: 'emailHasAccount' }]);
  }
  const now = ctx.now();
  const until = new Date(now.getTime() + MIGRATION_CLAIM_DAYS * DAY);
  const { token, tokenHash } = newLinkToken();
  const [updated] = await ctx.db
    .update(migratedAdverts)
    .set({ state: 'invited', invitedAt: now, claimTokenHash: tokenHash, claimExpiresAt: until, decidedBy: ctx.actor.type === 'support' ? ctx.actor.supportUserId : null, updatedAt: now })
    .where(and(eq(migratedAdverts.id, id), inArray(migratedAdverts.state, INVITABLE)))
    .returning({ id: migratedAdverts.id });
  if (!updated) throw new AppError('CONFLICT', 'The imported advert changed meanwhile', [{ field: 'Id', message: 'notInvitable' }]);
  await writeAudit(ctx, {
    action: 'migration.invite',
    targetType: 'migrated_advert',
    targetId: id,
    before: { state: row.state },
    after: { state: 'invited', claimExpiresAt: until.toISOString() },
  });
  const site = await getSite(ctx.db);
  // In both languages: the old site kept none; the advertiser's language is the one they claim in.
  await deps.messaging.sendEmail(claimInvitationEmail(site, row.email, { name: row.name, token, until }));
  await deps.messaging.sendSms(claimInvitationSms(site, internationalPhone(row.phone)));
  return { state: 'invited', invitedAt: now.toISOString(), claimExpiresAt: until.toISOString() };
}

/** What the claim link shows before anything is typed: whose advert it is (its name), or that the link is no good. */
export async function claimPreview(ctx: DomainContext, token: string): Promise<{ name: string; email: string }> {
  const row = await usableClaim(ctx, token);
  return { name: row.name, email: row.email! };
}

async function usableClaim(ctx: DomainContext, token: string) {
  const [row] = await ctx.db
    .select()
    .from(migratedAdverts)
    .where(and(eq(migratedAdverts.claimTokenHash, hashToken(token)), eq(migratedAdverts.state, 'invited'), gt(migratedAdverts.claimExpiresAt, ctx.now())))
    .limit(1);
  if (!row || !row.email || !row.phone) throw invalidField('Token', 'linkInvalid', 'The link is invalid or has expired. Ask for a new one.');
  return row;
}

/**
 * claimmigratedadvert (frontend, /create/?claim=…): the link's token, a new password, the date of birth
 * (18 or older) and the terms. In one transaction: the account (confirmed, its email confirmed by the link),
 * the advert (New) with the imported texts, prices and pictures (pending support's look), the import
 * claimed and its link used up, a session; then the SMS code to the imported phone, and the answer /create's
 * phone step reads (as confirmsignup's). An address that got an account meanwhile is refused (409
 * `emailHasAccount`): its owner signs in, and support can merge.
 */
export async function claimMigratedAdvert(
  ctx: DomainContext,
  input: ClaimMigratedAdvertInput,
  deps: { messaging: Messaging; sessionDays: number },
): Promise<{ session: NewSession; profile: ConfirmedSignUp }> {
  requireSmsToPhones(deps.messaging);
  const now = ctx.now();
  const row = await usableClaim(ctx, input.Token);
  const email = row.email!;
  const phone = row.phone!;
  if (ageOn(input.DateOfBirth, now) < MIN_AGE) throw invalidField('DateOfBirth', 'underAge', 'You must be at least 18 years old to create an advert.');
  if (!input.AcceptTerms) throw invalidField('AcceptTerms', 'acceptTerms', 'Accept the terms to continue.');
  requireAcceptablePassword(input.Password, { field: 'Password', email });
  const taken = () => new AppError('CONFLICT', 'The email address has an account', [{ field: 'Token', message: 'emailHasAccount' }]);
  if (await findAccountByEmail(ctx.db, email)) throw taken();

  const passwordHash = await hashPassword(input.Password);
  const data = row.data as MigratedAdvertData;
  let made: { accountId: number; advertId: number; session: NewSession };
  try {
    made = await ctx.db.transaction(async (tx) => {
      const inTx = { ...ctx, db: tx };
      // The claim first: a second use of the link (another tab) finds it used and changes nothing.
      const [claimed] = await tx
        .update(migratedAdverts)
        .set({ state: 'claimed', claimTokenHash: null, claimExpiresAt: null, claimedAt: now, updatedAt: now })
        .where(and(eq(migratedAdverts.id, row.id), eq(migratedAdverts.state, 'invited'), eq(migratedAdverts.claimTokenHash, hashToken(input.Token))))
        .returning({ id: migratedAdverts.id });
      if (!claimed) throw invalidField('Token', 'linkInvalid', 'The link is invalid or has expired. Ask for a new one.');
      const { accountId, advertId } = await insertAccountWithAdvert(
        inTx,
        {
          email,
          passwordHash,
          phone,
          dateOfBirth: input.DateOfBirth,
          locale: input.Locale,
          termsAcceptedAt: now,
          activatedAt: now,
          emailVerifiedAt: now,
          lastLoginAt: now,
          createdAt: now,
        },
        {
          kind: row.kind,
          gender: row.gender,
          name: row.name,
          regionId: row.regionId,
          cityId: row.cityId,
          age: ageOn(input.DateOfBirth, now),
          title: data.title,
          introduction: data.introduction,
          description: data.description,
          titleEn: data.titleEn || null,
          introductionEn: data.introductionEn || null,
          descriptionEn: data.descriptionEn || null,
        },
        { via: 'migration' },
      );
      if (data.prices.length > 0) {
        await tx.insert(priceListItems).values(
          data.prices.map((price, index) => ({
            advertId,
            sortOrder: index,
            durationMinutes: price.durationMinutes,
            incallPriceOre: price.incallPriceOre,
            outcallPriceOre: price.outcallPriceOre,
            description: price.description || null,
          })),
        );
      }
      if (data.extraPrices.length > 0) {
        await tx.insert(extraPriceItems).values(data.extraPrices.map((price, index) => ({ advertId, sortOrder: index, description: price.description, priceOre: price.priceOre })));
      }
      // The imported pictures become the advert's, pending support's look like every upload.
      if (row.pictures.length > 0) {
        await tx.insert(pictures).values(
          row.pictures.map((picture, index) => ({
            advertId,
            storageKey: picture.key,
            variants: picture.variants,
            width: picture.width,
            height: picture.height,
            isPrimary: index === 0,
            sortOrder: index,
            moderationStatus: 0,
            perceptualHash: picture.perceptualHash,
            originalKey: picture.originalKey,
            createdAt: now,
          })),
        );
      }
      await tx.update(migratedAdverts).set({ accountId, advertId }).where(eq(migratedAdverts.id, row.id));
      const owner = { ...inTx, actor: accountActor(accountId) };
      const session = await createSession(tx, { accountId }, { days: deps.sessionDays, ip: ctx.ip, userAgent: ctx.userAgent, now });
      await recordLoginEvent(owner, { accountId, email, success: true });
      await writeAudit(owner, { action: 'migration.claim', targetType: 'migrated_advert', targetId: row.id, before: { state: 'invited' }, after: { state: 'claimed', accountId, advertId } });
      await writeAudit(owner, { action: 'account.sign_in', targetType: 'account', targetId: accountId });
      return { accountId, advertId, session };
    });
  } catch (error) {
    // The address signed up at the same moment: the unique index on accounts.email.
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }

  const owner = { ...ctx, actor: accountActor(made.accountId) };
  const code = await issuePhoneCode(owner, { id: made.accountId, locale: input.Locale, phone }, deps.messaging);
  const profile = await getUserProfile(ctx.db, made.accountId, now);
  return { session: made.session, profile: { ...profile, phone, phoneVerificationId: code.id } };
}

/**
 * mergemigrationadvert (Support): the imported advert is an existing advertiser's advert (`AdvertId`):
 * it becomes a duplicate of it, the old address leads there once it is public, and the import's pictures
 * are not used (the advertiser's own stay). From imported, invited (the link stops working) or duplicate.
 */
export async function mergeMigratedAdvert(ctx: DomainContext, input: { Id: number; AdvertId: number }): Promise<{ state: 'duplicate'; advertId: number }> {
  requirePermission(ctx.actor, 'migration:manage:any');
  const row = await importedAdvert(ctx, input.Id);
  if (!['imported', 'invited', 'duplicate'].includes(row.state)) {
    throw new AppError('CONFLICT', `An imported advert in state ${row.state} cannot be merged`, [{ field: 'Id', message: 'notMergeable' }]);
  }
  const [advert] = await ctx.db
    .select({ id: adverts.id, accountId: adverts.accountId, deletedAt: adverts.deletedAt })
    .from(adverts)
    .innerJoin(accounts, eq(accounts.id, adverts.accountId))
    .where(eq(adverts.id, input.AdvertId))
    .limit(1);
  if (!advert || advert.deletedAt) throw invalidField('AdvertId', 'advertNotFound', 'No such advert.');
  const now = ctx.now();
  await ctx.db
    .update(migratedAdverts)
    .set({
      state: 'duplicate',
      advertId: advert.id,
      accountId: advert.accountId,
      claimTokenHash: null,
      claimExpiresAt: null,
      decidedBy: ctx.actor.type === 'support' ? ctx.actor.supportUserId : null,
      updatedAt: now,
    })
    .where(eq(migratedAdverts.id, row.id));
  await writeAudit(ctx, {
    action: 'migration.merge',
    targetType: 'migrated_advert',
    targetId: row.id,
    before: { state: row.state, advertId: row.advertId },
    after: { state: 'duplicate', advertId: advert.id },
  });
  return { state: 'duplicate', advertId: advert.id };
}

