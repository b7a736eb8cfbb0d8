import { and, eq, gt, inArray, isNotNull, isNull, lt, notExists, or, sql } from 'drizzle-orm';
import {
  accounts,
  advertLanguages,
  advertSearch,
  advertSearchDocuments,
  advertServices,
  adverts,
  auditLog,
  blacklistEntries,
  contentReports,
  emailVerificationTokens,
  extraPriceItems,
  loginEvents,
  migratedAdverts,
  newsReads,
  notifications,
  outboxMessages,
  passwordResetTokens,
  phoneVerificationCodes,
  pictures,
  priceListItems,
  reviews,
  scheduleEntries,
  sessions,
  statementsOfReasons,
  verificationHandoffs,
  verifications,
  videos,
  type Account,
} from '../../db/schema.ts';
import type { MediaStorage } from '../../adapters/types.ts';
import { SYSTEM, type DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { PROFILE_STATUS, RESTORE_DAYS } from '../adverts/statuses.ts';
import { UNCONFIRMED_SIGN_UP_DAYS, UNCONFIRMED_SIGN_UP_GRACE_DAYS } from './confirm-sign-up.ts';
import { removePictureFiles } from '../media/picture-processing.ts';
import { forgottenImport, removeImportFiles } from '../migration/delete-unclaimed.ts';

const DAY = 86_400_000;
/** What an erased audit entry's before/after says instead (the trigger of migration 0012 allows only this or NULL). */
const ERASED = { erased: true };

/**
 * The erasure of a deleted account's personal data, RESTORE_DAYS after its deletion (issue 15 item 7;
 * docs/decisions/023-erasure-and-data-export.md), run by the durable daily job `account.erasure`.
 *
 * Deleted: every file of the account's pictures, videos and verifications (private and public, originals
 * included); the rows of pictures, videos, verifications, languages, services, prices, schedule, reviews,
 * blacklist, notifications, sessions, codes and links, the search rows, the sign-in history
 * (login_events, also failed sign-ins with its email) and the outbox messages to its email and phones.
 * Anonymised, the rows other records point to: the account (email `erased-{id}@erased.invalid`, no
 * password, phone, birth date), the advert (name "Slettet", no texts, phone, website or attributes), the
 * old site's adverts it claimed (migrated_adverts: name, old slug, email, phone, texts and picture files
 * gone; the old id and state kept, so the old address answers Gone), the
 * statements of reasons (kept for the DSA: decision, rule, support's reason, dates; the advert's name and
 * the appeal's text removed), reports about the advert (the advert's URL removed), and the audit entries
 * about the account, its advert and media, or made by the account, or naming its email: before/after
 * become {"erased": true}, the address goes, and only support's reasons stay. Kept: orders and their
 * promotions (bookkeeping), referring to the anonymised account by id.
 *
 * Idempotent and safe to repeat after a crash: files first (a missing file is not an error), then one
 * transaction for the rows that sets erased_at last, so an interrupted run is done again whole.
 */
export async function eraseExpiredAccounts(ctx: DomainContext, storage: MediaStorage, limit = 100): Promise<number> {
  const cutoff = new Date(ctx.now().getTime() - RESTORE_DAYS * DAY);
  const due = await ctx.db
    .select()
    .from(accounts)
    .where(and(isNotNull(accounts.deletedAt), lt(accounts.deletedAt, cutoff), isNull(accounts.erasedAt)))
    .limit(limit);
  for (const account of due) await eraseAccount(ctx, storage, account);
  return due.length;
}

/**
 * Removes sign-ups never confirmed (docs/decisions/024), run by the same daily job: an account whose
 * sign-up is unconfirmed (`activated_at` null), made more than UNCONFIRMED_SIGN_UP_DAYS ago, whose last
 * sign-up link expired more than UNCONFIRMED_SIGN_UP_GRACE_DAYS ago. Nobody ever signed in to it, so there is
 * nothing to restore: it is marked deleted with its advert and erased at once, as a deleted account is
 * after its restore window (files, rows, outbox, audit entries), and its address is free again.
 */
export async function purgeUnconfirmedSignUps(ctx: DomainContext, storage: MediaStorage, limit = 100): Promise<number> {
  const now = ctx.now();
  const linksEndedBefore = new Date(now.getTime() - UNCONFIRMED_SIGN_UP_GRACE_DAYS * DAY);
  const liveLink = ctx.db
    .select({ one: sql`1` })
    .from(emailVerificationTokens)
    .where(
      and(
        eq(emailVerificationTokens.accountId, accounts.id),
        eq(emailVerificationTokens.purpose, 'sign_up'),
        gt(emailVerificationTokens.expiresAt, linksEndedBefore),
      ),
    );
  const due = await ctx.db
    .select()
    .from(accounts)
    .where(
      and(
        isNull(accounts.activatedAt),
        isNull(accounts.deletedAt),
        isNull(accounts.erasedAt),
        lt(accounts.createdAt, new Date(now.getTime() - UNCONFIRMED_SIGN_UP_DAYS * DAY)),
        notExists(liveLink),
      ),
    )
    .limit(limit);
  for (const account of due) {
    await ctx.db.transaction(async (tx) => {
      await tx.update(adverts).set({ status: PROFILE_STATUS.Deleted, deletedAt: now }).where(eq(adverts.accountId, account.id));
      await tx.update(accounts).set({ deletedAt: now }).where(eq(accounts.id, account.id));
    });
    await writeAudit(
      { ...ctx, actor: SYSTEM, ip: undefined },
      { action: 'account.sign_up_expired', targetType: 'account', targetId: account.id, after: { deletedAt: now.toISOString() } },
    );
    await eraseAccount(ctx, storage, { ...account, deletedAt: now });
  }
  return due.length;
}

async function eraseAccount(ctx: DomainContext, storage: MediaStorage, account: Account): Promise<void> {
  const db = ctx.db;
  const advertRows = await db.select({ id: adverts.id, phone: adverts.phone }).from(adverts).where(eq(adverts.accountId, account.id));
  const advertIds = advertRows.map((row) => row.id);
  const [pictureRows, videoRows, verificationRows, notificationRows, reviewRows] = await Promise.all([
    advertIds.length ? db.select().from(pictures).where(inArray(pictures.advertId, advertIds)) : [],
    advertIds.length ? db.select().from(videos).where(inArray(videos.advertId, advertIds)) : [],
    db.select().from(verifications).where(eq(verifications.accountId, account.id)),
    db.select({ id: notifications.id }).from(notifications).where(eq(notifications.accountId, account.id)),
    advertIds.length ? db.select({ id: reviews.id }).from(reviews).where(inArray(reviews.advertId, advertIds)) : [],
  ]);
  // The old site's adverts the account claimed (issue 30): their imported copy is the same person's data.
  const importedRows = await db
    .select({ id: migratedAdverts.id, pictures: migratedAdverts.pictures })
    .from(migratedAdverts)
    .where(or(eq(migratedAdverts.accountId, account.id), advertIds.length ? inArray(migratedAdverts.advertId, advertIds) : undefined));

  // Files first: repeated after a crash, they are simply not there any more.
  for (const picture of pictureRows) await removePictureFiles(storage, picture);
  for (const video of videoRows) {
    await storage.deletePrefix('private', video.storageKey);
    if (video.publicKey) await storage.deletePrefix('public', video.publicKey);
  }
  for (const verification of verificationRows) {
    for (const file of verification.files) await storage.delete('private', file.key);
  }
  for (const imported of importedRows) await removeImportFiles(storage, imported.pictures);

  const email = account.email.toLowerCase();
  const phones = [account.phone, ...advertRows.map((row) => row.phone)].filter((phone): phone is string => !!phone);
  const targets: [string, (number | string)[]][] = [
    ['account', [account.id]],
    ['advert', advertIds],
    ['picture', pictureRows.map((row) => row.id)],
    ['video', videoRows.map((row) => row.id)],
    ['verification', verificationRows.map((row) => row.id)],
    ['notification', notificationRows.map((row) => row.id)],
    ['review', reviewRows.map((row) => row.id)],
    ['migrated_advert', importedRows.map((row) => row.id)],
  ];
  const aboutTheAccount = or(
    ...targets
      .filter(([, ids]) => ids.length > 0)
      .map(([type, ids]) => and(eq(auditLog.targetType, type), inArray(auditLog.targetId, ids.map(String)))),
    and(eq(auditLog.actorType, 'advertiser'), eq(auditLog.actorId, account.id)),
    sql`position(${email} in lower(coalesce(${auditLog.before}::text, '') || coalesce(${auditLog.after}::text, ''))) > 0`,
  );

  await db.transaction(async (tx) => {
    if (advertIds.length) {
      await tx.delete(pictures).where(inArray(pictures.advertId, advertIds));
      await tx.delete(videos).where(inArray(videos.advertId, advertIds));
      for (const table of [advertLanguages, advertServices, priceListItems, extraPriceItems, scheduleEntries, reviews, advertSearch, advertSearchDocuments]) {
        await tx.delete(table).where(inArray(table.advertId, advertIds));
      }
      await tx
        .update(adverts)
        .set({
          name: 'Slettet',
          slug: 'slettet',
          title: '',
          introduction: '',
          description: '',
          titleEn: null,
          introductionEn: null,
          descriptionEn: null,
          phone: null,
          hasWhatsapp: false,
          website: null,
          regionId: null,
          cityId: null,
          age: null,
          height: null,
          weight: null,
          breastType: null,
          nationalityId: null,
          incall: false,
          outcall: false,
          paymentOptions: [],
          statusReason: null,
          pendingChanges: null,
          pendingSince: null,
          skippedDashboardItems: [],
        })
        .where(inArray(adverts.id, advertIds));
      await tx.update(contentReports).set({ advertUrl: null }).where(inArray(contentReports.advertId, advertIds));
    }
    if (importedRows.length) {
      // The old id and the state stay: the old address answers Gone (by id, the advert being deleted); the
      // old slug (often the person's name) goes, and with it the address from the public redirect list.
      await tx
        .update(migratedAdverts)
        .set({ ...forgottenImport(), name: '', oldSlug: '', updatedAt: ctx.now() })
        .where(inArray(migratedAdverts.id, importedRows.map((row) => row.id)));
    }
    for (const table of [blacklistEntries, notifications, newsReads, sessions, passwordResetTokens, emailVerificationTokens, phoneVerificationCodes, verificationHandoffs, verifications]) {
      await tx.delete(table).where(eq(table.accountId, account.id));
    }
    await tx.delete(loginEvents).where(or(eq(loginEvents.accountId, account.id), sql`lower(${loginEvents.email}) = ${email}`));
    await tx.delete(outboxMessages).where(sql`lower(${outboxMessages.recipient}) = ${email}${phones.length ? sql` or ${inArray(outboxMessages.recipient, phones)}` : sql``}`);
    await tx
      .update(statementsOfReasons)
      .set({ what: '', appealText: null })
      .where(or(eq(statementsOfReasons.accountId, account.id), advertIds.length ? inArray(statementsOfReasons.advertId, advertIds) : undefined));
    // The one change the audit log allows, in this transaction only (migration 0012): information taken away.
    await tx.execute(sql`select set_config('app.audit_erasure', 'on', true)`);
    await tx
      .update(auditLog)
      .set({
        before: sql`case when ${auditLog.before} is null then null else ${JSON.stringify(ERASED)}::jsonb end`,
        after: sql`case when ${auditLog.after} is null then null else ${JSON.stringify(ERASED)}::jsonb end`,
        ip: null,
        reason: sql`case when ${auditLog.actorType} = 'support' then ${auditLog.reason} else null end`,
      })
      .where(aboutTheAccount);
    await tx.execute(sql`select set_config('app.audit_erasure', 'off', true)`);
    await tx
      .update(accounts)
      .set({
        email: `erased-${account.id}@erased.invalid`,
        passwordHash: '!erased',
        phone: null,
        phoneVerifiedAt: null,
        emailVerifiedAt: null,
        dateOfBirth: null,
        lastLoginAt: null,
        erasedAt: ctx.now(),
      })
      .where(eq(accounts.id, account.id));
  });

  await writeAudit(
    { ...ctx, actor: SYSTEM, ip: undefined },
    {
      action: 'account.erased',
      targetType: 'account',
      targetId: account.id,
      after: { adverts: advertIds.length, pictures: pictureRows.length, videos: videoRows.length, verifications: verificationRows.length },
    },
  );
}
