/**
 * A screen of a client-only app as its own chunk, loaded when first opened. A chunk that fails to load
 * (a deploy replaced it) reloads the page once (spec §2: a failed dynamic load of a screen reloads);
 * `reloadKey` names the sessionStorage mark that stops a second reload.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export function lazyScreen<Props>(
  reloadKey: string,
  load: () => Promise<{ default: ComponentType<Props> }>,
): LazyExoticComponent<ComponentType<Props>> {
  return lazy(() =>
    load().then(
      (module) => {
        sessionStorage.removeItem(reloadKey);
        return module;
      },
      (error: unknown) => {
        if (!sessionStorage.getItem(reloadKey)) {
          sessionStorage.setItem(reloadKey, '1');
          location.reload();
          return new Promise<never>(() => undefined);
        }
        throw error;
      },
    ),
  );
}
