/** The signed-in support user: undefined while unknown, null when signed out. */
import { atom } from 'nanostores';
import { supportApi } from '#lib/api/support.ts';
import { isApiError } from '#lib/api/errors.ts';
import type { SupportProfile } from '#lib/api/types.ts';

export const $supportProfile = atom<SupportProfile | null | undefined>(undefined);

const sameProfile = (a: SupportProfile | null | undefined, b: SupportProfile) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Fetches the profile again (after a change of one's own two-step sign-in, and on every move to another
 * screen, so a permission removed or a session ended shows at once): a 401 means signed out (the app then
 * sends the user to sign in). Other failures keep the profile and are thrown.
 */
export async function reloadSupportProfile(signal?: AbortSignal): Promise<SupportProfile | null> {
  try {
    const profile = await supportApi.supportProfile(signal);
    if (!sameProfile($supportProfile.get(), profile)) $supportProfile.set(profile);
    return profile;
  } catch (error) {
    if (isApiError(error, 401)) {
      $supportProfile.set(null);
      return null;
    }
    throw error;
  }
}
