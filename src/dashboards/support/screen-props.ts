/** What the app frame gives every support screen. */
import type { SupportProfile } from '#lib/api/types.ts';

export type SupportScreenProps = {
  /** The signed-in support user (GET supportprofile); null on the sign-in screens when nobody is signed in. */
  profile: SupportProfile | null;
  /** The route's parameters (e.g. `id` of users/{id}/) and query. */
  params: Record<string, string>;
  search: Record<string, string>;
};
