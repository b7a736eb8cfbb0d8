/** Pieces every support screen of one item shares (a report, an appeal, a verification, an advert, a review, a user). */
import type { ReactNode } from 'react';
import { isApiError } from '#lib/api/errors.ts';
import type { Loadable } from '../shared/screen-data.tsx';
import { AppLink } from '../shared/AppLink.tsx';
import { supportRouter } from './routes.ts';
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
  /** The way back to the item's list. */
  back: { href: string; label: string };
  /** The id of the heading. */
  id: string;
  title: string;
  state: Loadable<T | 'notFound'>;
  loadError: string;
  /** What the screen says for an item that is not there. */
  notFound: string;
  onRetry: () => void;
  children: (item: T) => ReactNode;
};

/** The frame of one item's screen: the link back to its list, the heading, loading and errors, and "not found". */
export function ItemScreen<T>({ width, back, id, title, state, loadError, notFound, onRetry, children }: ItemScreenProps<T>) {
  return (
    <div className={width}>
      <p className="mb-4 text-sm">
        <AppLink router={supportRouter} href={back.href} className="font-medium text-brand-700 underline">
          {back.label}
        </AppLink>
      </p>
      <ScreenShell id={id} title={title} state={state} loadError={loadError} onRetry={onRetry}>
        {(item) => (item === 'notFound' ? <p className="mt-6 text-slate-700">{notFound}</p> : children(item))}
      </ScreenShell>
    </div>
  );
}
