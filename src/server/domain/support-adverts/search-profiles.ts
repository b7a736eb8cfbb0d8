import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AdvertProfileItem, AdvertProfilesQueryInput } from '#lib/schemas/support-adverts.ts';
import { accounts, adverts } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { kindOf } from '../adverts/statuses.ts';
import { paged, requireAdvertSupport } from './find-advert.ts';
import { containing } from '../../db/like.ts';

/** `%text%` for ILIKE, with the pattern's own characters taken literally. */

/**
 * The digits of a phone number as the search compares them: every non-digit dropped, and a Danish country
 * code (+45, 0045) left out of a number longer than eight digits.
 */
export function phoneDigits(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length > 8 && digits.startsWith('0045')) return digits.slice(4);
  if (digits.length > 8 && digits.startsWith('45')) return digits.slice(2);
  return digits;
}

const digitsOf = (column: typeof adverts.phone | typeof accounts.phone) => sql`regexp_replace(coalesce(${column}, ''), '[^0-9]', '', 'g')`;

/**
 * profiles (Support: advert:moderate:any): adverts by id (exact), name (contains), the account's email
 * (contains) and phone (the advert's or the account's, compared by digits); every key given must match.
 * Deleted adverts are found too. Newest first, paged.
 */
export async function searchAdvertProfiles(ctx: DomainContext, input: AdvertProfilesQueryInput): Promise<{ total: number; items: AdvertProfileItem[] }> {
  requireAdvertSupport(ctx);
  const conditions: SQL[] = [];
  if (input.Id !== '') conditions.push(eq(adverts.id, input.Id));
  if (input.Name) conditions.push(ilike(adverts.name, containing(input.Name)));
  if (input.Email) conditions.push(ilike(accounts.email, containing(input.Email.toLowerCase())));
  const phone = phoneDigits(input.Phone);
  if (phone) {
    const pattern = containing(phone);
    conditions.push(or(sql`${digitsOf(adverts.phone)} like ${pattern}`, sql`${digitsOf(accounts.phone)} like ${pattern}`)!);
  }
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [totals, rows] = await Promise.all([
    ctx.db.select({ total: count() }).from(adverts).innerJoin(accounts, eq(accounts.id, adverts.accountId)).where(where),
    ctx.db
      .select({ advert: adverts, email: accounts.email, accountPhone: accounts.phone, lastLoginAt: accounts.lastLoginAt })
      .from(adverts)
      .innerJoin(accounts, eq(accounts.id, adverts.accountId))
      .where(where)
      .orderBy(desc(adverts.id))
      .offset(input.Skip)
      .limit(input.Take),
  ]);
  return paged(
    totals[0]?.total,
    rows.map(({ advert, email, accountPhone, lastLoginAt }) => ({
      id: advert.id,
      name: advert.name,
      email,
      phone: advert.phone ?? accountPhone,
      kind: kindOf(advert),
      status: advert.status,
      verified: advert.validationStatus === 2 || advert.ageVerifiedAt !== null,
      createdAt: advert.createdAt.toISOString(),
      lastLoginAt: lastLoginAt?.toISOString() ?? null,
    })),
  );
}
