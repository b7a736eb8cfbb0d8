import type { AdvertKind } from '#lib/schemas/public-advert.ts';

/** Profile status (spec §3): 0 New, 1 Active, 2 Locked, 3 Deleted, 5 Deactivated. */
export const PROFILE_STATUS = { New: 0, Active: 1, Locked: 2, Deleted: 3, Deactivated: 5 } as const;
export type ProfileStatus = (typeof PROFILE_STATUS)[keyof typeof PROFILE_STATUS];

/** Advert type (spec §3): 0 IndependentEscort, 1 ThaiMassage. */
export const ADVERT_TYPE = { IndependentEscort: 0, ThaiMassage: 1 } as const;

/** Gender (spec §3); advert forms offer Woman and Transgender. */
export const GENDER = { Woman: 1, Man: 2, Couple: 3, Transvestite: 4, Transgender: 5, Transsexual: 6 } as const;

/** The three public categories, as they appear in URLs. */
export const ADVERT_KINDS: readonly AdvertKind[] = ['escort', 'trans-escort', 'thaimassage'];
export type { AdvertKind };

/** Advert kind is chosen by the path: thaimassage for Thai massage, trans-escort for escort with gender 5. */
export function kindOf(advert: { kind: number; gender: number }): AdvertKind {
  if (advert.kind === ADVERT_TYPE.ThaiMassage) return 'thaimassage';
  return advert.gender === GENDER.Transgender ? 'trans-escort' : 'escort';
}
