/**
 * Spec §4: the front-page and search promotion pages open only if the advert is Active and its expiration
 * date is in the future (an expiration in a later year also counts; a missing one counts as now, so it
 * never is). The server refuses such a buy too (buyproduct 409 advertNotActive).
 */
import type { UserProfile } from '#lib/api/types.ts';

const ACTIVE = 1;

export function mayOpenPromotion(profile: Pick<UserProfile, 'profileStatus' | 'expirationDate'>, now: Date = new Date()): boolean {
  if (profile.profileStatus !== ACTIVE) return false;
  const expiration = profile.expirationDate ? new Date(profile.expirationDate).getTime() : now.getTime();
  return Number.isFinite(expiration) && expiration > now.getTime();
}
