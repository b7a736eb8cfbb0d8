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

/** Who changes a status: the advertiser (own advert), support staff, or the system (jobs, approval flow). */
export type StatusChanger = 'advertiser' | 'support' | 'system';

/**
 * Days a newly approved advert is shown without a package (docs/decisions/016): support's first
 * approval of an advert that never had a package sets its expiration date this far ahead.
 */
export const INTRODUCTORY_PERIOD_DAYS = 14;

/** Days a deleted account can still be restored by its owner (restoreprofile). */
export const RESTORE_DAYS = 30;

/**
 * THE status transition table (DESIGN.md "Statuses"; docs/decisions/011). Each row: from, to, who may
 * make it, and through which call. Anything not listed is refused. Guards that need more than the two
 * statuses (a password, a past approval, the 30 days) are checked by the function that makes the change.
 * "Expired", "Pending" and "on holiday" are not statuses: they are derived (see dashboard.ts).
 */
export const STATUS_TRANSITIONS: readonly { from: ProfileStatus; to: ProfileStatus; by: readonly StatusChanger[]; via: string }[] = [
  // Support approves a new advert (the advertiser must be age-verified first); support or the system may lock it.
  { from: PROFILE_STATUS.New, to: PROFILE_STATUS.Active, by: ['support', 'system'], via: 'support approval' },
  { from: PROFILE_STATUS.New, to: PROFILE_STATUS.Locked, by: ['support', 'system'], via: 'support lock' },
  { from: PROFILE_STATUS.New, to: PROFILE_STATUS.Deleted, by: ['advertiser', 'support'], via: 'deleteuser' },
  // The advertiser closes the advert (close-advert); support may too, or lock it.
  { from: PROFILE_STATUS.Active, to: PROFILE_STATUS.Deactivated, by: ['advertiser', 'support'], via: 'changeprofilestatus' },
  { from: PROFILE_STATUS.Active, to: PROFILE_STATUS.Locked, by: ['support', 'system'], via: 'support lock' },
  { from: PROFILE_STATUS.Active, to: PROFILE_STATUS.Deleted, by: ['advertiser', 'support'], via: 'deleteuser' },
  // Reactivation (guard: approved before).
  { from: PROFILE_STATUS.Deactivated, to: PROFILE_STATUS.Active, by: ['advertiser', 'support'], via: 'changeprofilestatus' },
  { from: PROFILE_STATUS.Deactivated, to: PROFILE_STATUS.Locked, by: ['support', 'system'], via: 'support lock' },
  { from: PROFILE_STATUS.Deactivated, to: PROFILE_STATUS.Deleted, by: ['advertiser', 'support'], via: 'deleteuser' },
  // Only support unlocks: back to Active (approved before) or to New (to be moderated again).
  { from: PROFILE_STATUS.Locked, to: PROFILE_STATUS.Active, by: ['support'], via: 'support unlock' },
  { from: PROFILE_STATUS.Locked, to: PROFILE_STATUS.New, by: ['support'], via: 'support unlock' },
  // The owner may delete their data even when locked (a restore brings the lock back).
  { from: PROFILE_STATUS.Locked, to: PROFILE_STATUS.Deleted, by: ['advertiser', 'support'], via: 'deleteuser' },
  // Restore within 30 days: back to the status before the deletion, whatever it was.
  { from: PROFILE_STATUS.Deleted, to: PROFILE_STATUS.New, by: ['advertiser', 'support'], via: 'restoreprofile' },
  { from: PROFILE_STATUS.Deleted, to: PROFILE_STATUS.Active, by: ['advertiser', 'support'], via: 'restoreprofile' },
  { from: PROFILE_STATUS.Deleted, to: PROFILE_STATUS.Locked, by: ['advertiser', 'support'], via: 'restoreprofile' },
  { from: PROFILE_STATUS.Deleted, to: PROFILE_STATUS.Deactivated, by: ['advertiser', 'support'], via: 'restoreprofile' },
];

/** Whether `by` may move an advert from `from` to `to` (per the table; extra guards are the caller's). */
export function canChangeStatus(from: number, to: number, by: StatusChanger): boolean {
  return STATUS_TRANSITIONS.some((t) => t.from === from && t.to === to && t.by.includes(by));
}

/** Whether anyone at all may make this transition (refusals: 409 if nobody may, 403 if only others may). */
export function isKnownTransition(from: number, to: number): boolean {
  return STATUS_TRANSITIONS.some((t) => t.from === from && t.to === to);
}

export function isProfileStatus(value: number): value is ProfileStatus {
  return (Object.values(PROFILE_STATUS) as number[]).includes(value);
}
