import { and, asc, avg, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { anyOf } from '../../db/any-of.ts';
import { adverts, cities, pictures, regions, reviews, videos, type MediaVariant } from '../../db/schema.ts';
import { slugify } from '#lib/format.ts';
import { kindOf } from '../adverts/statuses.ts';
import type { AdvertCard, PublicPicture } from '#lib/schemas/public-advert.ts';
import type { Locale } from '../site/site-info.ts';
import { publishedVariantKey } from '../media/publication.ts';

export type { AdvertCard, PublicPicture };

export const MEDIA_PREFIX = '/media/';

export function advertPath(advert: { id: number; name: string }): string {
  const slug = slugify(advert.name) || 'annonce';
  return `/annonce/${slug}-${advert.id}/`;
}

/**
 * A picture as the public sees it: the URLs of its published copies (`publicKey`, docs/decisions/013),
 * or, with `urlOf`, the authenticated URLs the owner and support use (`privatePictureUrl`). A picture
 * that is not published has no public variants.
 */
export function publicPicture(
  row: { id: number; width: number | null; height: number | null; variants: MediaVariant[]; publicKey: string | null },
  urlOf?: (variant: MediaVariant) => string,
): PublicPicture {
  const publicKey = row.publicKey;
  const url = urlOf ?? ((v: MediaVariant) => (publicKey ? `${MEDIA_PREFIX}${publishedVariantKey(publicKey, v)}` : null));
  const variants = [...row.variants]
    .sort((a, b) => a.width - b.width)
    .flatMap((v) => {
      const address = url(v);
      return address ? [{ url: address, width: v.width, height: v.height, format: v.format }] : [];
    });
  const largest = variants.at(-1);
  return { id: row.id, width: row.width ?? largest?.width ?? 0, height: row.height ?? largest?.height ?? 0, variants };
}

/** Approved, online, not deleted, and published (its copies in the public area): the pictures the public may see. */
export const publicPictureCondition = and(
  eq(pictures.moderationStatus, 1),
  eq(pictures.isOnline, true),
  isNull(pictures.deletedAt),
  isNotNull(pictures.publicKey),
);

/** Cards for the given advert ids, in the order given. The caller decides which adverts are public. */
export async function listAdvertCards(db: Db, ids: number[], locale: Locale, now: Date): Promise<AdvertCard[]> {
  if (ids.length === 0) return [];
  const [rows, pictureRows, reviewRows, videoRows] = await Promise.all([
    db
      .select({
        id: adverts.id,
        name: adverts.name,
        kind: adverts.kind,
        gender: adverts.gender,
        title: adverts.title,
        titleEn: adverts.titleEn,
        introduction: adverts.introduction,
        introductionEn: adverts.introductionEn,
        age: adverts.age,
        validationStatus: adverts.validationStatus,
        frontPageBoostUntil: adverts.frontPageBoostUntil,
        searchBoostUntil: adverts.searchBoostUntil,
        city: cities.name,
        citySlug: cities.slug,
        region: regions.name,
        regionEn: regions.nameEn,
        regionSlug: regions.slug,
      })
      .from(adverts)
      .leftJoin(cities, eq(cities.id, adverts.cityId))
      .leftJoin(regions, eq(regions.id, adverts.regionId))
      .where(anyOf(adverts.id, ids)),
    db
      .selectDistinctOn([pictures.advertId], {
        advertId: pictures.advertId,
        id: pictures.id,
        width: pictures.width,
        height: pictures.height,
        variants: pictures.variants,
        publicKey: pictures.publicKey,
      })
      .from(pictures)
      .where(and(anyOf(pictures.advertId, ids), publicPictureCondition))
      .orderBy(pictures.advertId, sql`${pictures.isPrimary} desc`, asc(pictures.sortOrder), asc(pictures.id)),
    db
      .select({ advertId: reviews.advertId, n: count(), rating: avg(reviews.rating) })
      .from(reviews)
      .where(and(anyOf(reviews.advertId, ids), eq(reviews.status, 1)))
      .groupBy(reviews.advertId),
    db
      .selectDistinct({ advertId: videos.advertId })
      .from(videos)
      .where(
        and(
          anyOf(videos.advertId, ids),
          eq(videos.status, 2),
          eq(videos.moderationStatus, 1),
          eq(videos.isOnline, true),
          isNotNull(videos.publicKey),
          isNull(videos.deletedAt),
        ),
      ),
  ]);
  const pictureOf = new Map(pictureRows.map((p) => [p.advertId, p]));
  const reviewOf = new Map(reviewRows.map((r) => [r.advertId, r]));
  const withVideo = new Set(videoRows.map((v) => v.advertId));
  const byId = new Map(
    rows.map((row) => {
      const picture = pictureOf.get(row.id);
      const review = reviewOf.get(row.id);
      const card: AdvertCard = {
        id: row.id,
        name: row.name,
        url: advertPath(row),
        kind: kindOf(row),
        title: (locale === 'en' && row.titleEn) || row.title,
        introduction: (locale === 'en' && row.introductionEn) || row.introduction,
        age: row.age,
        city: row.city,
        citySlug: row.citySlug,
        region: locale === 'en' ? row.regionEn : row.region,
        regionSlug: row.regionSlug,
        picture: picture ? publicPicture(picture) : null,
        validated: row.validationStatus === 2,
        hasVideo: withVideo.has(row.id),
        reviewCount: review ? Number(review.n) : 0,
        rating: review?.rating ? Math.round(Number(review.rating) * 10) / 10 : null,
        frontPageBoosted: row.frontPageBoostUntil !== null && row.frontPageBoostUntil > now,
        searchBoosted: row.searchBoostUntil !== null && row.searchBoostUntil > now,
      };
      return [row.id, card] as const;
    }),
  );
  return ids.map((id) => byId.get(id)).filter((card): card is AdvertCard => card !== undefined);
}
