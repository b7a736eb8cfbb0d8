/**
 * Whether the visitor has an advertiser session, asked once per page from /api/frontend/session when
 * something first listens (header and mobile menu share the answer); it answers 200 either way, so
 * visitors see no error in the console. undefined until known.
 */
import { atom, onMount } from 'nanostores';
import { frontendApi } from '../api/frontend.ts';

export const $signedIn = atom<boolean | undefined>(undefined);

onMount($signedIn, () => {
  if (typeof window === 'undefined' || $signedIn.get() !== undefined) return;
  frontendApi.session().then(
    (answer) => $signedIn.set(answer.signedIn),
    () => $signedIn.set(false),
  );
});
