import { and, asc, count, desc, eq, inArray, isNotNull, isNull, or } from 'drizzle-orm';
import { TERMS_RULES, type TermsRule } from '#lib/schemas/moderation.ts';
import type { AdvertLock, AdvertProfile } from '#lib/schemas/support-adverts.ts';
import {
  accounts,
  advertLanguages,
  advertServices,
  cities,
  contentReports,
  languages,
  nationalities,
  notifications,
  pictures,
  regions,
  reviews,
  services,
  statementsOfReasons,
  supportUsers,
  verifications,
  videos,
  type Advert,
} from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { PROFILE_STATUS, kindOf } from '../adverts/statuses.ts';
import { isAdvertPublic } from '../adverts/visibility.ts';
import { advertPath } from '../search/advert-card.ts';
import { findSupportAdvert } from './find-advert.ts';
import { signInLockedUntil } from '../accounts/sign-in-lock.ts';

const iso = (value: Date | null): string | null => value?.toISOString() ?? null;
const asRule = (value: string | null): TermsRule | null => ((TERMS_RULES as readonly string[]).includes(value ?? '') ? (value as TermsRule) : null);
const total = (rows: { n: number }[]) => Number(rows[0]?.n ?? 0);

/** The statement of reasons the advert's current lock was issued with (the latest 'advert.locked'). */
async function currentLock(ctx: DomainContext, advert: Advert): Promise<AdvertLock | null> {
  if (advert.status !== PROFILE_STATUS.Locked) return null;
  const [row] = await ctx.db
    .select({ statement: statementsOfReasons, by: supportUsers.name })
    .from(statementsOfReasons)
    .leftJoin(supportUsers, eq(supportUsers.id, statementsOfReasons.createdBy))
    .where(and(eq(statementsOfReasons.advertId, advert.id), eq(statementsOfReasons.decision, 'advert.locked')))
    .orderBy(desc(statementsOfReasons.id))
    .limit(1);
  if (!row) return advert.statusReason ? { reason: advert.statusReason, rule: null, lockedAt: advert.updatedAt.toISOString(), lockedBy: null, statementId: 0, appealed: false } : null;
  return {
    reason: row.statement.reason,
    rule: asRule(row.statement.rule),
    lockedAt: row.statement.createdAt.toISOString(),
    lockedBy: row.by,
    statementId: row.statement.id,
    appealed: row.statement.appealedAt !== null,
  };
}

/** profile (Support: advert:moderate:any): the advert, its account, names instead of ids, lock, verification and counts. */
export async function getAdvertProfile(ctx: DomainContext, id: number): Promise<AdvertProfile> {
  const advert = await findSupportAdvert(ctx, id);
  const accountId = advert.accountId;
  const [
    [account],
    [region],
    [city],
    [nationality],
    languageRows,
    serviceRows,
    [latestVerification],
    lock,
    pictureCount,
    videoCount,
    deletedPictures,
    deletedVideos,
    reviewCount,
    pendingReviewCount,
    reportCount,
    openReportCount,
    messageCount,
    unreadCount,
  ] = await Promise.all([
    ctx.db.select().from(accounts).where(eq(accounts.id, accountId)).limit(1),
    advert.regionId === null ? Promise.resolve([]) : ctx.db.select().from(regions).where(eq(regions.id, advert.regionId)),
    advert.cityId === null ? Promise.resolve([]) : ctx.db.select().from(cities).where(eq(cities.id, advert.cityId)),
    advert.nationalityId === null ? Promise.resolve([]) : ctx.db.select().from(nationalities).where(eq(nationalities.id, advert.nationalityId)),
    ctx.db
      .select({ da: languages.nameDa, en: languages.nameEn })
      .from(advertLanguages)
      .innerJoin(languages, eq(languages.id, advertLanguages.languageId))
      .where(eq(advertLanguages.advertId, advert.id))
      .orderBy(asc(languages.nameDa)),
    ctx.db
      .select({ da: services.nameDa, en: services.nameEn })
      .from(advertServices)
      .innerJoin(services, eq(services.id, advertServices.serviceId))
      .where(eq(advertServices.advertId, advert.id))
      .orderBy(asc(services.sortOrder), asc(services.nameDa)),
    ctx.db
      .select()
      .from(verifications)
      .where(or(eq(verifications.advertId, advert.id), eq(verifications.accountId, accountId)))
      .orderBy(desc(verifications.id))
      .limit(1),
    currentLock(ctx, advert),
    ctx.db.select({ n: count() }).from(pictures).where(and(eq(pictures.advertId, advert.id), isNull(pictures.deletedAt))),
    ctx.db.select({ n: count() }).from(videos).where(and(eq(videos.advertId, advert.id), isNull(videos.deletedAt))),
    ctx.db.select({ n: count() }).from(pictures).where(and(eq(pictures.advertId, advert.id), isNotNull(pictures.deletedAt))),
    ctx.db.select({ n: count() }).from(videos).where(and(eq(videos.advertId, advert.id), isNotNull(videos.deletedAt))),
    ctx.db.select({ n: count() }).from(reviews).where(eq(reviews.advertId, advert.id)),
    ctx.db.select({ n: count() }).from(reviews).where(and(eq(reviews.advertId, advert.id), eq(reviews.status, 0))),
    ctx.db.select({ n: count() }).from(contentReports).where(eq(contentReports.advertId, advert.id)),
    ctx.db.select({ n: count() }).from(contentReports).where(and(eq(contentReports.advertId, advert.id), inArray(contentReports.status, [0, 1]))),
    ctx.db.select({ n: count() }).from(notifications).where(eq(notifications.accountId, accountId)),
    ctx.db.select({ n: count() }).from(notifications).where(and(eq(notifications.accountId, accountId), eq(notifications.status, 0))),
  ]);
  if (!account) throw notFound('Advert');
  return {
    id: advert.id,
    name: advert.name,
    kind: kindOf(advert),
    status: advert.status,
    statusReason: advert.statusReason,
    lock,
    publicUrl: isAdvertPublic(advert, ctx.now()) ? advertPath(advert) : null,
    createdAt: advert.createdAt.toISOString(),
    updatedAt: advert.updatedAt.toISOString(),
    approvedAt: iso(advert.approvedAt),
    expirationDate: iso(advert.expirationDate),
    holidayUntil: iso(advert.holidayUntil),
    deletedAt: iso(advert.deletedAt),
    hasPendingChanges: advert.pendingChanges !== null && Object.keys(advert.pendingChanges).length > 0,
    account: {
      id: account.id,
      email: account.email,
      phone: account.phone,
      emailVerified: account.emailVerifiedAt !== null,
      phoneVerified: account.phoneVerifiedAt !== null,
      locale: account.locale,
      createdAt: account.createdAt.toISOString(),
      lastLoginAt: iso(account.lastLoginAt),
      lockedUntil: iso(await signInLockedUntil(ctx, { kind: 'advertiser', email: account.email, passwordChangedAt: account.passwordChangedAt })),
      deletedAt: iso(account.deletedAt),
    },
    fields: {
      title: advert.title,
      introduction: advert.introduction,
      description: advert.description,
      titleEn: advert.titleEn,
      introductionEn: advert.introductionEn,
      descriptionEn: advert.descriptionEn,
      phone: advert.phone,
      hasWhatsapp: advert.hasWhatsapp,
      website: advert.website,
      region: region ? { da: region.name, en: region.nameEn } : null,
      city: city?.name ?? null,
      age: advert.age,
      height: advert.height,
      weight: advert.weight,
      breastType: advert.breastType,
      nationality: nationality ? { da: nationality.nameDa, en: nationality.nameEn } : null,
      incall: advert.incall,
      outcall: advert.outcall,
      paymentOptions: advert.paymentOptions,
      languages: languageRows,
      services: serviceRows,
    },
    verification: {
      validationStatus: advert.validationStatus,
      ageVerifiedAt: iso(advert.ageVerifiedAt),
      latest: latestVerification
        ? {
            id: latestVerification.id,
            method: latestVerification.method,
            status: latestVerification.status,
            createdAt: latestVerification.createdAt.toISOString(),
            decidedAt: iso(latestVerification.decidedAt),
          }
        : null,
    },
    counts: {
      pictures: total(pictureCount),
      videos: total(videoCount),
      deletedMedia: total(deletedPictures) + total(deletedVideos),
      reviews: total(reviewCount),
      pendingReviews: total(pendingReviewCount),
      reports: total(reportCount),
      openReports: total(openReportCount),
      messages: total(messageCount),
      unreadMessages: total(unreadCount),
    },
  };
}
