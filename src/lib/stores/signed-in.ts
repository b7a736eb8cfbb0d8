/**
 * Whether the visitor has an advertiser session, asked once per page from /api/backend/userprofile when
 * something first listens (header and mobile menu share the answer). undefined until known.
 */
import { atom, onMount } from 'nanostores';
import { backendApi } from '../api/backend.ts';

export const $signedIn = atom<boolean | undefined>(undefined);

onMount($signedIn, () => {
  if (typeof window === 'undefined' || $signedIn.get() !== undefined) return;
  backendApi.userProfile().then(
    () => $signedIn.set(true),
    () => $signedIn.set(false),
  );
});
