/** What the app frame gives every backend screen. */
import type { UserProfile } from '#lib/api/types.ts';

export type BackendScreenProps = {
  /** The signed-in advertiser (GET userprofile). */
  profile: UserProfile;
  /** Fetches userprofile again (after a change the frame shows, e.g. the advert's status). */
  reloadProfile: () => void;
};
