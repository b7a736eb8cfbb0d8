/**
 * A multiselect of the search filters (languages, nationalities, services): a collapsible group with a
 * type-to-filter box and a checkbox per option (at most 1000 options, spec §9). Shows the spec's texts
 * when the filter matches nothing ('No elements found. Consider changing the search query.') and when
 * there are no options at all ('List is empty.').
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { normalisePlaceName } from '#lib/format.ts';

export const OPTIONS_LIMIT = 1000;

export type MultiSelectOption = { id: number; name: string };

export type MultiSelectText = {
  filterLabel: string;
  filterPlaceholder: string;
  noMatch: string;
  empty: string;
  /** The accessible name of a selected option's remove button. */
  remove: (name: string) => string;
  selected: string;
};

type Props = {
  legend: string;
  options: MultiSelectOption[];
  selected: number[];
  onChange: (ids: number[]) => void;
  text: MultiSelectText;
  name: string;
};

/** Case, accents and æøå/ae-oe-aa folded, so 'kobenhavn', 'København' and 'KØB' all match. */
function fold(text: string): string {
  return normalisePlaceName(text);
}

export default function MultiSelect({ legend, options, selected, onChange, text, name }: Props) {
  const id = useId();
  const [query, setQuery] = useState('');
  // Open while the visitor keeps it open; opens by itself when a selection arrives (a URL, back/forward).
  const [open, setOpen] = useState(selected.length > 0);
  const hasSelection = selected.length > 0;
  useEffect(() => {
    if (hasSelection) setOpen(true);
  }, [hasSelection]);
  const limited = useMemo(() => options.slice(0, OPTIONS_LIMIT), [options]);
  const visible = useMemo(() => {
    const needle = fold(query);
    return needle ? limited.filter((option) => fold(option.name).includes(needle)) : limited;
  }, [limited, query]);
  const chosen = new Set(selected);
  const chosenOptions = limited.filter((option) => chosen.has(option.id));

  const toggle = (optionId: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(optionId);
    else next.delete(optionId);
    onChange([...next].sort((a, b) => a - b));
  };

  return (
    <details className="group border-b border-slate-200 py-1" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 font-semibold text-ink [&::-webkit-details-marker]:hidden">
        <span>
          {legend}
          {selected.length > 0 ? <span className="ml-1 font-normal text-muted">({selected.length})</span> : null}
        </span>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 transition group-open:rotate-180" fill="currentColor">
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
        </svg>
      </summary>
      <fieldset className="pb-3" data-multiselect={name}>
        <legend className="sr-only">{legend}</legend>
        {chosenOptions.length > 0 ? (
          <ul className="mb-2 flex flex-wrap gap-1.5" aria-label={text.selected}>
            {chosenOptions.map((option) => (
              <li key={option.id}>
                <button
                  type="button"
                  onClick={() => toggle(option.id, false)}
                  aria-label={text.remove(option.name)}
                  className="inline-flex min-h-8 items-center gap-1 rounded-full bg-brand-50 px-3 text-sm text-brand-800 hover:bg-brand-100"
                >
                  {option.name}
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        {limited.length > 0 ? (
          <>
            <label htmlFor={`${id}-filter`} className="sr-only">
              {text.filterLabel}
            </label>
            <input
              id={`${id}-filter`}
              type="search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder={text.filterPlaceholder}
              autoComplete="off"
              aria-controls={visible.length > 0 ? `${id}-list` : undefined}
              className="h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-ink placeholder:text-slate-500"
            />
          </>
        ) : null}
        {limited.length === 0 ? (
          <p className="mt-2 text-sm text-muted">{text.empty}</p>
        ) : visible.length === 0 ? (
          <p className="mt-2 text-sm text-muted" role="status">
            {text.noMatch}
          </p>
        ) : (
          <ul id={`${id}-list`} className="mt-2 max-h-52 space-y-0.5 overflow-y-auto pr-1">
            {visible.map((option) => (
              <li key={option.id}>
                <label className="flex min-h-9 cursor-pointer items-center gap-2 rounded-md px-1 text-sm text-slate-800 hover:bg-slate-50">
                  <input
                    type="checkbox"
                    name={name}
                    value={option.id}
                    checked={chosen.has(option.id)}
                    onChange={(event) => toggle(option.id, event.target.checked)}
                    className="h-4 w-4 accent-brand-700"
                  />
                  {option.name}
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
    </details>
  );
}
