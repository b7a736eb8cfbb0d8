import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the prebuilt HTML and while React hydrates it, true once the island runs in the browser. A
 * form's submit button stays disabled until then: a click before hydration would post the form natively
 * (to a static page that answers 404) instead of through the island.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
