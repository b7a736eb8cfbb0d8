import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  advertLanguages,
  advertServices,
  adverts,
  cities,
  extraPriceItems,
  languages,
  nationalities,
  pictures,
  priceListItems,
  regions,
  reviews,
  scheduleEntries,
  services,
  videos,
} from '../../db/schema.ts';
import { AppError, notFound } from '../errors.ts';
import { isAdvertPublic } from '../adverts/visibility.ts';
import { PROFILE_STATUS, kindOf, type AdvertKind } from '../adverts/statuses.ts';
import type { Locale } from '../site/site-info.ts';
import { MEDIA_PREFIX, advertPath, publicPicture, publicPictureCondition, type PublicPicture } from './advert-card.ts';

export type FullProfile = {
  id: number;
  name: string;
  url: string;
  kind: AdvertKind;
  gender: number;
  title: string;
  introduction: string;
  description: string;
  age: number | null;
  height: number | null;
  weight: number | null;
  breastType: number | null;
  nationality: { id: number; code: string; name: string } | null;
  languages: { id: number; code: string; name: string }[];
  services: { id: number; slug: string; name: string; type: number }[];
  incall: boolean;
  outcall: boolean;
  location: { region: string | null; regionSlug: string | null; city: string | null; citySlug: string | null };
  phone: string | null;
  hasWhatsapp: boolean;
  website: string | null;
  priceList: { id: number; durationMinutes: number; incallPriceOre: number | null; outcallPriceOre: number | null; description: string | null }[];
  extraPrices: { id: number; description: string; priceOre: number }[];
  paymentOptions: string[];
  schedule: { weekday: number; from: string; to: string }[];
  pictures: PublicPicture[];
  videos: { id: number; url: string; posterUrl: string | null; width: number | null; height: number | null; durationSeconds: number | null }[];
  reviews: { id: number; authorName: string; rating: number; text: string; reply: string | null; createdAt: string }[];
  validated: boolean;
  updatedAt: string;
};

/**
 * Everything the advert page shows, for a public advert only (404 otherwise; a locked advert
 * answers 410 so the browser can show the blocked page). Texts in the requested language when the
 * advertiser wrote them, else in Danish.
 */
export async function getFullProfile(db: Db, id: number, locale: Locale, now: Date): Promise<FullProfile> {
  const [advert] = await db.select().from(adverts).where(eq(adverts.id, id)).limit(1);
  if (!advert) throw notFound('Advert');
  if (!isAdvertPublic(advert, now)) {
    if (advert.status === PROFILE_STATUS.Locked) throw new AppError('GONE', 'This advert has been blocked');
    throw notFound('Advert');
  }
  const en = locale === 'en';
  const [place, nationality, languageRows, serviceRows, priceRows, extraRows, scheduleRows, pictureRows, videoRows, reviewRows] =
    await Promise.all([
      advert.cityId
        ? db
            .select({ city: cities.name, citySlug: cities.slug, region: regions.name, regionEn: regions.nameEn, regionSlug: regions.slug })
            .from(cities)
            .innerJoin(regions, eq(regions.id, cities.regionId))
            .where(eq(cities.id, advert.cityId))
        : Promise.resolve([]),
      advert.nationalityId
        ? db.select().from(nationalities).where(eq(nationalities.id, advert.nationalityId))
        : Promise.resolve([]),
      db
        .select({ id: languages.id, code: languages.code, nameDa: languages.nameDa, nameEn: languages.nameEn })
        .from(advertLanguages)
        .innerJoin(languages, eq(languages.id, advertLanguages.languageId))
        .where(eq(advertLanguages.advertId, id))
        .orderBy(asc(languages.nameDa)),
      db
        .select({ id: services.id, slug: services.slug, nameDa: services.nameDa, nameEn: services.nameEn, type: services.type })
        .from(advertServices)
        .innerJoin(services, eq(services.id, advertServices.serviceId))
        .where(eq(advertServices.advertId, id))
        .orderBy(asc(services.type), asc(services.sortOrder), asc(services.nameDa)),
      db.select().from(priceListItems).where(eq(priceListItems.advertId, id)).orderBy(asc(priceListItems.sortOrder), asc(priceListItems.id)),
      db.select().from(extraPriceItems).where(eq(extraPriceItems.advertId, id)).orderBy(asc(extraPriceItems.sortOrder), asc(extraPriceItems.id)),
      db.select().from(scheduleEntries).where(eq(scheduleEntries.advertId, id)).orderBy(asc(scheduleEntries.weekday)),
      db
        .select()
        .from(pictures)
        .where(and(eq(pictures.advertId, id), publicPictureCondition))
        .orderBy(desc(pictures.isPrimary), asc(pictures.sortOrder), asc(pictures.id)),
      db
        .select()
        .from(videos)
        .where(
          and(eq(videos.advertId, id), eq(videos.status, 2), eq(videos.moderationStatus, 1), eq(videos.isOnline, true), isNull(videos.deletedAt)),
        )
        .orderBy(asc(videos.sortOrder), asc(videos.id)),
      db
        .select()
        .from(reviews)
        .where(and(eq(reviews.advertId, id), inArray(reviews.status, [1])))
        .orderBy(desc(reviews.createdAt))
        .limit(50),
    ]);
  const location = place[0];
  const nat = nationality[0];
  return {
    id: advert.id,
    name: advert.name,
    url: advertPath(advert),
    kind: kindOf(advert),
    gender: advert.gender,
    title: (en && advert.titleEn) || advert.title,
    introduction: (en && advert.introductionEn) || advert.introduction,
    description: (en && advert.descriptionEn) || advert.description,
    age: advert.age,
    height: advert.height,
    weight: advert.weight,
    breastType: advert.breastType,
    nationality: nat ? { id: nat.id, code: nat.code, name: en ? nat.nameEn : nat.nameDa } : null,
    languages: languageRows.map((l) => ({ id: l.id, code: l.code, name: en ? l.nameEn : l.nameDa })),
    services: serviceRows.map((s) => ({ id: s.id, slug: s.slug, name: en ? s.nameEn : s.nameDa, type: s.type })),
    incall: advert.incall,
    outcall: advert.outcall,
    location: {
      region: location ? (en ? location.regionEn : location.region) : null,
      regionSlug: location?.regionSlug ?? null,
      city: location?.city ?? null,
      citySlug: location?.citySlug ?? null,
    },
    phone: advert.phone,
    hasWhatsapp: advert.hasWhatsapp,
    website: advert.website,
    priceList: priceRows.map((p) => ({
      id: p.id,
      durationMinutes: p.durationMinutes,
      incallPriceOre: p.incallPriceOre,
      outcallPriceOre: p.outcallPriceOre,
      description: p.description,
    })),
    extraPrices: extraRows.map((e) => ({ id: e.id, description: e.description, priceOre: e.priceOre })),
    paymentOptions: advert.paymentOptions,
    schedule: scheduleRows.map((s) => ({ weekday: s.weekday, from: s.fromTime, to: s.toTime })),
    pictures: pictureRows.map(publicPicture),
    videos: videoRows.map((v) => ({
      id: v.id,
      url: `${MEDIA_PREFIX}${v.storageKey}`,
      posterUrl: v.posterKey ? `${MEDIA_PREFIX}${v.posterKey}` : null,
      width: v.width,
      height: v.height,
      durationSeconds: v.durationSeconds,
    })),
    reviews: reviewRows.map((r) => ({
      id: r.id,
      authorName: r.authorName,
      rating: r.rating,
      text: r.text,
      reply: r.replyText,
      createdAt: r.createdAt.toISOString(),
    })),
    validated: advert.validationStatus === 2,
    updatedAt: advert.updatedAt.toISOString(),
  };
}
