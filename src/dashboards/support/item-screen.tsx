/** Pieces every support screen of one item shares (a report, an appeal, a verification, an advert, a review, a user). */
import type { ReactNode } from 'react';
import { isApiError } from '#lib/api/errors.ts';
import type { Loadable } from '../shared/screen-data.tsx';
import { AppLink } from '../shared/AppLink.tsx';
import { supportPath, supportRouter, type SupportRoute } from './routes.ts';
import { useAppT } from '../shared/use-t.ts';
import { supportI18n } from './i18n.ts';
import { ScreenShell } from './screen-data.tsx';

/** A list of facts: term and value side by side from small screens up. */
export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="mt-3 grid gap-x-6 gap-y-3 sm:grid-cols-[minmax(10rem,auto)_1fr]">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-semibold text-ink">{term}</dt>
          <dd className="whitespace-pre-line break-words text-slate-800">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Loads the item of a route's `:id`: 'notFound' for an id that is not a number or an answer of 404, so the
 * screen can say so; other failures go to the screen's load error.
 */
export function itemLoader<T>(id: string, load: (id: number, signal: AbortSignal) => Promise<T>): (signal: AbortSignal) => Promise<T | 'notFound'> {
  const numeric = /^\d{1,9}$/.test(id) ? Number(id) : null;
  return async (signal) => {
    if (numeric === null) return 'notFound';
    try {
      return await load(numeric, signal);
    } catch (error) {
      if (isApiError(error, 404)) return 'notFound';
      throw error;
    }
  };
}

type ItemScreenProps<T> = {
  /** The screen's width class (Tailwind `max-w-*`). */
  width: string;
  /**
   * The screen's key in the support catalog: its texts `{catalog}.back` (the link back to the list),
   * `{catalog}.loadError` and `{catalog}.notFound`, and the heading's id (`{catalog}-heading`, kebab case).
   */
  catalog: string;
  /** The list the screen's item is in (the link back). */
  list: SupportRoute;
  /** The link back's words, when they are not `{catalog}.back`. */
  backLabel?: string;
  title: string;
  state: Loadable<T | 'notFound'>;
  onRetry: () => void;
  children: (item: T) => ReactNode;
};

/** The frame of one item's screen: the link back to its list, the heading, loading and errors, and "not found". */
export function ItemScreen<T>({ width, catalog, list, backLabel, title, state, onRetry, children }: ItemScreenProps<T>) {
  const t = useAppT(supportI18n);
  return (
    <div className={width}>
      <p className="mb-4 text-sm">
        <AppLink router={supportRouter} href={supportPath(list)} className="font-medium text-brand-700 underline">
          {backLabel ?? t(`${catalog}.back`)}
        </AppLink>
      </p>
      <ScreenShell id={`${catalog.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-heading`} title={title} state={state} loadError={t(`${catalog}.loadError`)} onRetry={onRetry}>
        {(item) => (item === 'notFound' ? <p className="mt-6 text-slate-700">{t(`${catalog}.notFound`)}</p> : children(item))}
      </ScreenShell>
    </div>
  );
}
