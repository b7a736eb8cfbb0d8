import { and, asc, desc, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { anyOf } from '../../db/any-of.ts';
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
  type Advert,
} from '../../db/schema.ts';
import { AppError, notFound } from '../errors.ts';
import { isAdvertPublic, publicAdvertCondition } from '../adverts/visibility.ts';
import { PROFILE_STATUS, kindOf } from '../adverts/statuses.ts';
import type { Locale } from '../site/site-info.ts';
import { MEDIA_PREFIX, advertPath, publicPicture, publicPictureCondition } from './advert-card.ts';
import { publishedVideoKeys } from '../media/publication.ts';
import type { FullProfile } from '#lib/schemas/public-advert.ts';

export type { FullProfile };

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
  const [profile] = (await buildFullProfiles(db, [advert], [locale])).get(locale)!;
  return profile!;
}

/** Public advert ids in id order, for the site build to page through; only among `among` when given. */
export async function listPublicAdvertIds(db: Db, now: Date, afterId: number, limit: number, among?: number[]): Promise<number[]> {
  if (among?.length === 0) return [];
  const rows = await db
    .select({ id: adverts.id })
    .from(adverts)
    .where(and(publicAdvertCondition(now), gt(adverts.id, afterId), among ? anyOf(adverts.id, among) : undefined))
    .orderBy(asc(adverts.id))
    .limit(limit);
  return rows.map((row) => row.id);
}

/**
 * Full profiles of many public adverts in a few queries (the site build reads them in bulk); with `ids`,
 * only the public ones among those (an incremental build reads just the adverts that changed).
 */
export async function listFullProfiles(
  db: Db,
  options: { afterId: number; limit: number; locale: Locale; now: Date; ids?: number[] | undefined },
): Promise<{ items: FullProfile[]; nextAfterId: number | null }> {
  const { byLocale, nextAfterId } = await listFullProfilesByLocale(db, { ...options, locales: [options.locale] });
  return { items: byLocale[options.locale] ?? [], nextAfterId };
}

/**
 * Like `listFullProfiles`, in several languages from one read of the rows (the site build makes the
 * Danish and the English page of every advert): the same adverts, in the same order, per locale.
 */
export async function listFullProfilesByLocale(
  db: Db,
  options: { afterId: number; limit: number; locales: readonly Locale[]; now: Date; ids?: number[] | undefined },
): Promise<{ byLocale: Partial<Record<Locale, FullProfile[]>>; nextAfterId: number | null }> {
  const ids = await listPublicAdvertIds(db, options.now, options.afterId, options.limit, options.ids);
  const byLocale: Partial<Record<Locale, FullProfile[]>> = {};
  if (ids.length === 0) {
    for (const locale of options.locales) byLocale[locale] = [];
    return { byLocale, nextAfterId: null };
  }
  const rows = await db.select().from(adverts).where(anyOf(adverts.id, ids)).orderBy(asc(adverts.id));
  for (const [locale, items] of await buildFullProfiles(db, rows, options.locales)) byLocale[locale] = items;
  return { byLocale, nextAfterId: ids.length === options.limit ? ids.at(-1)! : null };
}

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

/** The full profiles of these adverts in each of `locales`, reading every table once for all of them. */
async function buildFullProfiles(db: Db, advertRows: Advert[], locales: readonly Locale[]): Promise<Map<Locale, FullProfile[]>> {
  const ids = advertRows.map((a) => a.id);
  const cityIds = [...new Set(advertRows.map((a) => a.cityId).filter((id): id is number => id !== null))];
  const [placeRows, nationalityRows, languageRows, serviceRows, priceRows, extraRows, scheduleRows, pictureRows, videoRows, reviewRows] =
    await Promise.all([
      cityIds.length
        ? db
            .select({ cityId: cities.id, city: cities.name, citySlug: cities.slug, region: regions.name, regionEn: regions.nameEn, regionSlug: regions.slug })
            .from(cities)
            .innerJoin(regions, eq(regions.id, cities.regionId))
            .where(anyOf(cities.id, cityIds))
        : Promise.resolve([]),
      db.select().from(nationalities),
      db
        .select({ advertId: advertLanguages.advertId, id: languages.id, code: languages.code, nameDa: languages.nameDa, nameEn: languages.nameEn })
        .from(advertLanguages)
        .innerJoin(languages, eq(languages.id, advertLanguages.languageId))
        .where(anyOf(advertLanguages.advertId, ids))
        .orderBy(asc(languages.nameDa)),
      db
        .select({ advertId: advertServices.advertId, id: services.id, slug: services.slug, nameDa: services.nameDa, nameEn: services.nameEn, type: services.type })
        .from(advertServices)
        .innerJoin(services, eq(services.id, advertServices.serviceId))
        .where(anyOf(advertServices.advertId, ids))
        .orderBy(asc(services.type), asc(services.sortOrder), asc(services.nameDa)),
      db.select().from(priceListItems).where(anyOf(priceListItems.advertId, ids)).orderBy(asc(priceListItems.sortOrder), asc(priceListItems.id)),
      db.select().from(extraPriceItems).where(anyOf(extraPriceItems.advertId, ids)).orderBy(asc(extraPriceItems.sortOrder), asc(extraPriceItems.id)),
      db.select().from(scheduleEntries).where(anyOf(scheduleEntries.advertId, ids)).orderBy(asc(scheduleEntries.weekday)),
      db
        .select()
        .from(pictures)
        .where(and(anyOf(pictures.advertId, ids), publicPictureCondition))
        .orderBy(desc(pictures.isPrimary), asc(pictures.sortOrder), asc(pictures.id)),
      db
        .select()
        .from(videos)
        .where(
          and(
            anyOf(videos.advertId, ids),
            eq(videos.status, 2),
            eq(videos.moderationStatus, 1),
            eq(videos.isOnline, true),
            isNull(videos.deletedAt),
            isNotNull(videos.publicKey),
          ),
        )
        .orderBy(asc(videos.sortOrder), asc(videos.id)),
      db
        .select()
        .from(reviews)
        .where(and(anyOf(reviews.advertId, ids), eq(reviews.status, 1)))
        .orderBy(desc(reviews.createdAt)),
    ]);
  const placeOf = new Map(placeRows.map((p) => [p.cityId, p]));
  const nationalityOf = new Map(nationalityRows.map((n) => [n.id, n]));
  const languagesOf = groupBy(languageRows, (r) => r.advertId);
  const servicesOf = groupBy(serviceRows, (r) => r.advertId);
  const pricesOf = groupBy(priceRows, (r) => r.advertId);
  const extrasOf = groupBy(extraRows, (r) => r.advertId);
  const scheduleOf = groupBy(scheduleRows, (r) => r.advertId);
  const picturesOf = groupBy(pictureRows, (r) => r.advertId);
  const videosOf = groupBy(videoRows, (r) => r.advertId);
  const reviewsOf = groupBy(reviewRows, (r) => r.advertId);

  const profileIn = (locale: Locale) => (advert: Advert): FullProfile => {
    const en = locale === 'en';
    const location = advert.cityId ? placeOf.get(advert.cityId) : undefined;
    const nat = advert.nationalityId ? nationalityOf.get(advert.nationalityId) : undefined;
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
      languages: (languagesOf.get(advert.id) ?? []).map((l) => ({ id: l.id, code: l.code, name: en ? l.nameEn : l.nameDa })),
      services: (servicesOf.get(advert.id) ?? []).map((s) => ({ id: s.id, slug: s.slug, name: en ? s.nameEn : s.nameDa, type: s.type })),
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
      priceList: (pricesOf.get(advert.id) ?? []).map((p) => ({
        id: p.id,
        durationMinutes: p.durationMinutes,
        incallPriceOre: p.incallPriceOre,
        outcallPriceOre: p.outcallPriceOre,
        description: p.description,
      })),
      extraPrices: (extrasOf.get(advert.id) ?? []).map((e) => ({ id: e.id, description: e.description, priceOre: e.priceOre })),
      paymentOptions: advert.paymentOptions,
      schedule: (scheduleOf.get(advert.id) ?? []).map((s) => ({ weekday: s.weekday, from: s.fromTime, to: s.toTime })),
      pictures: (picturesOf.get(advert.id) ?? []).map((row) => publicPicture(row)),
      // A published video has its copies under public_key (docs/decisions/013); its own keys are private.
      videos: (videosOf.get(advert.id) ?? []).flatMap((v) =>
        v.publicKey
          ? [
              {
                id: v.id,
                url: `${MEDIA_PREFIX}${publishedVideoKeys(v.publicKey).video}`,
                posterUrl: v.posterKey ? `${MEDIA_PREFIX}${publishedVideoKeys(v.publicKey).poster}` : null,
                width: v.width,
                height: v.height,
                durationSeconds: v.durationSeconds,
              },
            ]
          : [],
      ),
      reviews: (reviewsOf.get(advert.id) ?? []).slice(0, 50).map((r) => ({
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
  };
  return new Map(locales.map((locale) => [locale, advertRows.map(profileIn(locale))]));
}
