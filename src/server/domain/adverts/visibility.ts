import { and, eq, gt, isNotNull, isNull, lte, or, type SQL } from 'drizzle-orm';
import { adverts, type Advert } from '../../db/schema.ts';
import { PROFILE_STATUS } from './statuses.ts';

/**
 * THE rule for what the public sees (DESIGN.md "Visibility"): status Active, expiration date in the
 * future, not on holiday, approved by support, owner age-verified, not deleted. Search, front page,
 * sitemap, the site build and the profile all use one of these two forms of it.
 */
export function publicAdvertCondition(now: Date): SQL {
  return and(
    eq(adverts.status, PROFILE_STATUS.Active),
    gt(adverts.expirationDate, now),
    or(isNull(adverts.holidayUntil), lte(adverts.holidayUntil, now)),
    isNotNull(adverts.approvedAt),
    isNotNull(adverts.ageVerifiedAt),
    isNull(adverts.deletedAt),
  ) as SQL;
}

export function isAdvertPublic(
  advert: Pick<Advert, 'status' | 'expirationDate' | 'holidayUntil' | 'approvedAt' | 'ageVerifiedAt' | 'deletedAt'>,
  now: Date,
): boolean {
  return (
    advert.status === PROFILE_STATUS.Active &&
    advert.expirationDate !== null &&
    advert.expirationDate > now &&
    (advert.holidayUntil === null || advert.holidayUntil <= now) &&
    advert.approvedAt !== null &&
    advert.ageVerifiedAt !== null &&
    advert.deletedAt === null
  );
}
