import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, adverts } from '../../db/schema.ts';
import { notFound } from '../errors.ts';
import { kindOf } from '../adverts/statuses.ts';
import type { Actor } from '../context.ts';
import { getImpersonationInfo, type ImpersonationInfo } from './impersonation.ts';

/** User profile (spec §3). */
export type UserProfile = {
  id: number;
  email: string;
  /** The account's advert (its verification calls name it: updateidentification ProfileId); null without one. */
  advertId: number | null;
  profileStatus: number | null;
  expirationDate: string | null;
  permissions: string[];
  escort: boolean;
  transEscort: boolean;
  thaimassage: boolean;
  /** Whether the account's email and phone were confirmed (link, SMS code). */
  emailVerified: boolean;
  phoneVerified: boolean;
  /** Set while support is signed in as the advertiser (the backend shows a banner with Stop); else null. */
  impersonation: ImpersonationInfo | null;
};

/** The profile; `actor` (the session's, for userprofile) tells whether support is impersonating. */
export async function getUserProfile(db: Db, accountId: number, _now: Date, actor?: Actor): Promise<UserProfile> {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId)).limit(1);
  if (!account || account.deletedAt) throw notFound('Account');
  const [advert] = await db
    .select()
    .from(adverts)
    .where(and(eq(adverts.accountId, accountId), isNull(adverts.deletedAt)))
    .orderBy(asc(adverts.id))
    .limit(1);
  const kind = advert ? kindOf(advert) : null;
  return {
    id: account.id,
    email: account.email,
    advertId: advert?.id ?? null,
    profileStatus: advert?.status ?? null,
    expirationDate: advert?.expirationDate?.toISOString() ?? null,
    permissions: [],
    escort: kind === 'escort',
    transEscort: kind === 'trans-escort',
    thaimassage: kind === 'thaimassage',
    emailVerified: account.emailVerifiedAt !== null,
    phoneVerified: account.phoneVerifiedAt !== null,
    impersonation: actor ? await getImpersonationInfo({ db }, actor) : null,
  };
}
