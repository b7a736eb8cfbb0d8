import { asc, eq, inArray, isNull, and, or, sql } from 'drizzle-orm';
import {
  accounts,
  advertLanguages,
  advertServices,
  adverts,
  blacklistEntries,
  extraPriceItems,
  languages,
  loginEvents,
  news,
  newsReads,
  notifications,
  orders,
  pictures,
  priceListItems,
  promotions,
  reviews,
  scheduleEntries,
  services,
  statementsOfReasons,
  verifications,
  videos,
} from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requireAdvertiserAccountId } from '../adverts/own-advert.ts';
import { refuseWhileImpersonating } from './impersonation.ts';
import { PUBLIC_MEDIA_PREFIX, privatePictureUrl, privateVideoUrl, publishedVariantKey, publishedVideoKeys } from '../media/publication.ts';

const MODERATION = ['pending', 'approved', 'declined'] as const;
const moderationOf = (status: number) => MODERATION[status] ?? 'pending';

/**
 * dataexport (our call; GDPR art. 15 and 20; docs/decisions/023-erasure-and-data-export.md): everything
 * we keep about the signed-in advertiser, as one machine-readable JSON document: the account, the advert
 * with its texts, languages, services, prices, schedule, pictures and videos (with the addresses the
 * owner can fetch them at, and their public address while published), reviews and replies, blacklist,
 * sign-in history, notifications, news read, statements of reasons and appeals, verifications (outcome, not files),
 * orders and the periods they bought. Owner only: refused while support is signed in as the advertiser.
 * Audited (without the data).
 */
export async function exportAccountData(ctx: DomainContext): Promise<Record<string, unknown>> {
  const accountId = requireAdvertiserAccountId(ctx);
  refuseWhileImpersonating(ctx.actor, 'account.export');
  const db = ctx.db;
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw notFound('Account');
  const advertRows = await db.select().from(adverts).where(eq(adverts.accountId, accountId)).orderBy(asc(adverts.id));
  const advertIds = advertRows.map((row) => row.id);
  const ofAdverts = <T>(load: () => Promise<T[]>): Promise<T[]> => (advertIds.length ? load() : Promise.resolve([]));

  const [languageRows, serviceRows, priceRows, extraRows, scheduleRows, pictureRows, videoRows, reviewRows, promotionRows] = await Promise.all([
    ofAdverts(() =>
      db
        .select({ advertId: advertLanguages.advertId, code: languages.code })
        .from(advertLanguages)
        .innerJoin(languages, eq(languages.id, advertLanguages.languageId))
        .where(inArray(advertLanguages.advertId, advertIds)),
    ),
    ofAdverts(() =>
      db
        .select({ advertId: advertServices.advertId, slug: services.slug, name: services.nameDa })
        .from(advertServices)
        .innerJoin(services, eq(services.id, advertServices.serviceId))
        .where(inArray(advertServices.advertId, advertIds)),
    ),
    ofAdverts(() => db.select().from(priceListItems).where(inArray(priceListItems.advertId, advertIds)).orderBy(asc(priceListItems.sortOrder))),
    ofAdverts(() => db.select().from(extraPriceItems).where(inArray(extraPriceItems.advertId, advertIds)).orderBy(asc(extraPriceItems.sortOrder))),
    ofAdverts(() => db.select().from(scheduleEntries).where(inArray(scheduleEntries.advertId, advertIds)).orderBy(asc(scheduleEntries.weekday))),
    ofAdverts(() =>
      db
        .select()
        .from(pictures)
        .where(and(inArray(pictures.advertId, advertIds), isNull(pictures.deletedAt)))
        .orderBy(asc(pictures.sortOrder), asc(pictures.id)),
    ),
    ofAdverts(() =>
      db
        .select()
        .from(videos)
        .where(and(inArray(videos.advertId, advertIds), isNull(videos.deletedAt)))
        .orderBy(asc(videos.sortOrder), asc(videos.id)),
    ),
    ofAdverts(() => db.select().from(reviews).where(inArray(reviews.advertId, advertIds)).orderBy(asc(reviews.id))),
    ofAdverts(() => db.select().from(promotions).where(inArray(promotions.advertId, advertIds)).orderBy(asc(promotions.id))),
  ]);
  const [blacklist, signIns, notificationRows, statements, verificationRows, orderRows, newsRead] = await Promise.all([
    db.select().from(blacklistEntries).where(eq(blacklistEntries.accountId, accountId)).orderBy(asc(blacklistEntries.id)),
    db
      .select({ at: loginEvents.createdAt, success: loginEvents.success, ip: loginEvents.ip, userAgent: loginEvents.userAgent })
      .from(loginEvents)
      .where(or(eq(loginEvents.accountId, accountId), sql`lower(${loginEvents.email}) = ${account.email.toLowerCase()}`))
      .orderBy(asc(loginEvents.id)),
    db.select().from(notifications).where(eq(notifications.accountId, accountId)).orderBy(asc(notifications.id)),
    db
      .select()
      .from(statementsOfReasons)
      .where(or(eq(statementsOfReasons.accountId, accountId), advertIds.length ? inArray(statementsOfReasons.advertId, advertIds) : undefined))
      .orderBy(asc(statementsOfReasons.id)),
    db.select().from(verifications).where(eq(verifications.accountId, accountId)).orderBy(asc(verifications.id)),
    db.select().from(orders).where(eq(orders.accountId, accountId)).orderBy(asc(orders.id)),
    db
      .select({ newsId: newsReads.newsId, title: news.title, readAt: newsReads.readAt })
      .from(newsReads)
      .innerJoin(news, eq(news.id, newsReads.newsId))
      .where(eq(newsReads.accountId, accountId))
      .orderBy(asc(newsReads.readAt)),
  ]);

  const byAdvert = <T extends { advertId: number | null }>(rows: T[], advertId: number) => rows.filter((row) => row.advertId === advertId);
  const document = {
    format: 'annonce-account-data',
    version: 1,
    exportedAt: ctx.now().toISOString(),
    account: {
      id: account.id,
      email: account.email,
      phone: account.phone,
      phoneVerifiedAt: account.phoneVerifiedAt,
      emailVerifiedAt: account.emailVerifiedAt,
      dateOfBirth: account.dateOfBirth,
      locale: account.locale,
      termsAcceptedAt: account.termsAcceptedAt,
      createdAt: account.createdAt,
      lastLoginAt: account.lastLoginAt,
      deletedAt: account.deletedAt,
    },
    adverts: advertRows.map((advert) => ({
      id: advert.id,
      status: advert.status,
      kind: advert.kind,
      gender: advert.gender,
      name: advert.name,
      locale: advert.locale,
      title: advert.title,
      introduction: advert.introduction,
      description: advert.description,
      titleEn: advert.titleEn,
      introductionEn: advert.introductionEn,
      descriptionEn: advert.descriptionEn,
      phone: advert.phone,
      hasWhatsapp: advert.hasWhatsapp,
      website: advert.website,
      regionId: advert.regionId,
      cityId: advert.cityId,
      age: advert.age,
      height: advert.height,
      weight: advert.weight,
      breastType: advert.breastType,
      nationalityId: advert.nationalityId,
      incall: advert.incall,
      outcall: advert.outcall,
      paymentOptions: advert.paymentOptions,
      pendingChanges: advert.pendingChanges,
      validationStatus: advert.validationStatus,
      approvedAt: advert.approvedAt,
      ageVerifiedAt: advert.ageVerifiedAt,
      expirationDate: advert.expirationDate,
      holidayUntil: advert.holidayUntil,
      frontPageBoostUntil: advert.frontPageBoostUntil,
      searchBoostUntil: advert.searchBoostUntil,
      viewCount: advert.viewCount,
      createdAt: advert.createdAt,
      updatedAt: advert.updatedAt,
      deletedAt: advert.deletedAt,
      languages: byAdvert(languageRows, advert.id).map((row) => row.code),
      services: byAdvert(serviceRows, advert.id).map((row) => ({ slug: row.slug, name: row.name })),
      prices: byAdvert(priceRows, advert.id).map(({ durationMinutes, incallPriceOre, outcallPriceOre, description }) => ({
        durationMinutes,
        incallPriceOre,
        outcallPriceOre,
        description,
      })),
      extraPrices: byAdvert(extraRows, advert.id).map(({ description, priceOre }) => ({ description, priceOre })),
      schedule: byAdvert(scheduleRows, advert.id).map(({ weekday, fromTime, toTime }) => ({ weekday, from: fromTime, to: toTime })),
      pictures: byAdvert(pictureRows, advert.id).map((row) => {
        const publicKey = row.publicKey;
        return {
          id: row.id,
          width: row.width,
          height: row.height,
          isPrimary: row.isPrimary,
          isOnline: row.isOnline,
          moderation: moderationOf(row.moderationStatus),
          declineReason: row.declineReason,
          uploadedAt: row.createdAt,
          files: row.variants.map((variant) => ({
            width: variant.width,
            height: variant.height,
            format: variant.format,
            url: privatePictureUrl('advertiser', row.id, variant),
            publicUrl: publicKey ? `${PUBLIC_MEDIA_PREFIX}${publishedVariantKey(publicKey, variant)}` : null,
          })),
        };
      }),
      videos: byAdvert(videoRows, advert.id).map((row) => ({
        id: row.id,
        durationSeconds: row.durationSeconds,
        width: row.width,
        height: row.height,
        isOnline: row.isOnline,
        moderation: moderationOf(row.moderationStatus),
        declineReason: row.declineReason,
        uploadedAt: row.createdAt,
        url: row.videoKey ? privateVideoUrl('advertiser', row.id, 'video') : null,
        posterUrl: row.posterKey ? privateVideoUrl('advertiser', row.id, 'poster') : null,
        publicUrl: row.publicKey ? `${PUBLIC_MEDIA_PREFIX}${publishedVideoKeys(row.publicKey).video}` : null,
      })),
      // Reviews of the advert as the advertiser sees them (the visitor's phone number is theirs, not exported).
      reviews: byAdvert(reviewRows, advert.id).map((row) => ({
        id: row.id,
        authorName: row.authorName,
        rating: row.rating,
        text: row.text,
        status: row.status,
        replyText: row.replyText,
        replyAt: row.replyAt,
        removalRequestedAt: row.removalRequestedAt,
        createdAt: row.createdAt,
      })),
      promotions: byAdvert(promotionRows, advert.id).map(({ type, startsAt, endsAt, orderId }) => ({ type, startsAt, endsAt, orderId })),
    })),
    blacklist: blacklist.map(({ phone, note, createdAt }) => ({ phone, note, createdAt })),
    signIns,
    notifications: notificationRows.map(({ titleDa, titleEn, bodyDa, bodyEn, link, status, createdAt }) => ({
      titleDa,
      titleEn,
      bodyDa,
      bodyEn,
      link,
      read: status === 1,
      createdAt,
    })),
    newsRead,
    statementsOfReasons: statements.map((row) => ({
      decision: row.decision,
      what: row.what,
      reason: row.reason,
      rule: row.rule,
      createdAt: row.createdAt,
      appealText: row.appealText,
      appealedAt: row.appealedAt,
      appealDecision: row.appealDecision,
      appealReason: row.appealReason,
      appealDecidedAt: row.appealDecidedAt,
    })),
    verifications: verificationRows.map((row) => ({
      method: row.method,
      status: row.status,
      submittedAt: row.submittedAt,
      decidedAt: row.decidedAt,
      reason: row.reason,
      files: row.files.map((file) => ({ kind: file.kind, uploadedAt: file.uploadedAt })),
      filesDeletedAt: row.filesDeletedAt,
      createdAt: row.createdAt,
    })),
    orders: orderRows.map((row) => ({
      id: row.id,
      productDescription: row.productDescription,
      totalPriceOre: row.totalPriceOre,
      vatOre: row.vatOre,
      status: row.status,
      referenceId: row.referenceId,
      paymentProvider: row.paymentProvider,
      createdAt: row.createdAt,
      paidAt: row.paidAt,
    })),
  };
  await writeAudit(ctx, { action: 'account.export', targetType: 'account', targetId: accountId });
  return document;
}
