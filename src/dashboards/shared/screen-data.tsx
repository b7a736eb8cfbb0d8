/**
 * What every dashboard screen does first: load its data (a 401 sends the user to sign in and back), show
 * "loading", or the screen's load error with a retry, then the screen. `useScreenData` keeps the state;
 * the app's `ScreenShell` (made once per app with its translations by `createScreenShell`) renders the
 * heading, the intro and the loading and error states around the screen.
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { i18n } from 'i18next';
import { isApiError } from '#lib/api/errors.ts';
import { useAppT } from './use-t.ts';
import { goToLogin } from './session-ended.ts';

export type Loadable<T> = { status: 'loading' } | { status: 'error' } | { status: 'ready'; data: T };

export function useScreenData<T>(load: (signal: AbortSignal) => Promise<T>): {
  state: Loadable<T>;
  /** Replaces the data (e.g. with the answer of a save). */
  setData: (data: T) => void;
  /** Loads again. */
  reload: () => void;
} {
  const [state, setState] = useState<Loadable<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => {
        // A load that a newer one replaced says nothing about the screen any more.
        if (!controller.signal.aborted) setState({ status: 'ready', data });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isApiError(error, 401)) return goToLogin();
        console.warn('Screen could not load', error);
        setState({ status: 'error' });
      },
    );
    return () => controller.abort();
    // `load` is a module-level call (or one the screen keys by its parameters); a new attempt loads again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempt]);

  const setData = useCallback((data: T) => setState({ status: 'ready', data }), []);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, setData, reload };
}

export type ScreenShellProps<T> = {
  /** The id of the heading (the section is labelled by it). */
  id: string;
  title: string;
  intro?: ReactNode;
  /** Shown under the intro whatever the state (a rule the screen states, a check the screen runs first). */
  aside?: ReactNode;
  state: Loadable<T>;
  loadError: string;
  onRetry: () => void;
  children: (data: T) => ReactNode;
};

/** Keys every app's own catalog has (backend.json, support.json). */
const APP_TEXT = { loading: 'app.loading', retry: 'app.retry' } as const;

/** The ScreenShell of an app (its i18n instance, whose catalog has the APP_TEXT keys). */
export function createScreenShell(instance: i18n) {
  return function ScreenShell<T>({ id, title, intro, aside, state, loadError, onRetry, children }: ScreenShellProps<T>) {
    const t = useAppT(instance);
    return (
      <section aria-labelledby={id}>
        <h1 id={id} className="text-2xl font-bold tracking-tight text-ink">
          {title}
        </h1>
        {intro ? <p className="mt-2 max-w-prose text-slate-700">{intro}</p> : null}
        {aside}
        {state.status === 'loading' ? <p className="mt-6 text-slate-700">{t(APP_TEXT.loading)}</p> : null}
        {state.status === 'error' ? (
          <div className="mt-6">
            <p role="alert" className="text-red-800">
              {loadError}
            </p>
            <button type="button" className="mt-3 rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white" onClick={onRetry}>
              {t(APP_TEXT.retry)}
            </button>
          </div>
        ) : null}
        {state.status === 'ready' ? children(state.data) : null}
      </section>
    );
  };
}
