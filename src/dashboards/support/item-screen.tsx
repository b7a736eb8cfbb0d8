/** Pieces every support screen of one item shares (a report, an appeal, a verification, an advert under review). */
import type { ReactNode } from 'react';
import { isApiError } from '#lib/api/errors.ts';

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
