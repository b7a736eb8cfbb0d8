/**
 * What support's searchable lists share (adverts/, orders/): a search whose keys live in the address
 * (`?key=value&skip=`), checked with the valibot schema the call validates with, and the search form that
 * keeps what was typed, shows each field's message and opens the list's address for a good search.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import * as v from 'valibot';
import { Field, controlClass, type ControlProps } from '../../components/form/Field.tsx';
import { DayInput } from '../../components/form/DayInput.tsx';
import { dayFieldText, dayFieldValue } from '#lib/format.ts';
import { AppLink } from '../shared/AppLink.tsx';
import { skipOf } from '../shared/paging.tsx';
import { useScreenData } from '../shared/screen-data.tsx';
import type { Paged } from '#lib/api/support.ts';
import { fieldText, secondaryButton, smallButton } from '../shared/form-text.ts';
import { supportRouter } from './routes.ts';

/**
 * One list's search: its name (the catalog's `{name}.search.{key|submit|clear}` and the fields' ids
 * `{name}-search-{key}`), its keys in the address, the call's field for each, the schema and the list's path.
 */
export type ListSearch<K extends string> = {
  name: string;
  keys: readonly K[];
  fields: Record<K, string>;
  schema: v.GenericSchema;
  path: string;
  /** The keys that are days: typed and shown as dd-mm-yyyy, carried in the address as yyyy-MM-dd. */
  days?: readonly K[];
};

export type SearchQuery<K extends string> = Record<K, string>;

/** The query of the address (absent keys empty) and its first row. */
export function searchOf<K extends string>(search: ListSearch<K>, params: Record<string, string>): { query: SearchQuery<K>; skip: number } {
  const query = Object.fromEntries(search.keys.map((key) => [key, params[key] ?? ''])) as SearchQuery<K>;
  return { query, skip: skipOf(params) };
}

/** The query as the call takes it (its field names, values trimmed). */
export function bodyOf<K extends string>(search: ListSearch<K>, query: SearchQuery<K>): Record<string, string> {
  return Object.fromEntries(search.keys.map((key) => [search.fields[key], query[key].trim()]));
}

/**
 * A searched list's page from the call, with the search's field errors: while the address's search is
 * not valid nothing is asked (an empty page; the form says why at its fields).
 */
export function useSearchedPage<K extends string, T>(
  search: ListSearch<K>,
  query: SearchQuery<K>,
  page: { skip: number; take: number },
  load: (body: Record<string, string | number>, signal: AbortSignal) => Promise<Paged<T>>,
) {
  const invalid = searchErrors(search, query);
  const data = useScreenData((signal) => (invalid ? Promise.resolve({ total: 0, items: [] }) : load({ ...bodyOf(search, query), Skip: page.skip, Take: page.take }, signal)));
  return { invalid, ...data };
}

/** The list's address for a search and a first row. */
export function searchHref<K extends string>(search: ListSearch<K>, query: SearchQuery<K>, skip: number): string {
  const params = new URLSearchParams();
  for (const key of search.keys) if (query[key].trim()) params.set(key, query[key].trim());
  if (skip > 0) params.set('skip', String(skip));
  const text = params.toString();
  return `${search.path}${text ? `?${text}` : ''}`;
}

/** Field errors of a search (the schema the call validates with), or null when it is good. */
export function searchErrors<K extends string>(search: ListSearch<K>, query: SearchQuery<K>): Partial<Record<K, string>> | null {
  const result = v.safeParse(search.schema, bodyOf(search, query));
  if (result.success) return null;
  const errors: Partial<Record<K, string>> = {};
  for (const issue of result.issues) {
    const key = search.keys.find((k) => search.fields[k] === v.getDotPath(issue));
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

type SearchFormProps<K extends string> = {
  t: TFunction;
  search: ListSearch<K>;
  query: SearchQuery<K>;
  initialErrors: Partial<Record<K, string>>;
  /** The grid's columns from small screens up, and where the buttons go (Tailwind classes). */
  columns: string;
  buttonsClassName: string;
  control: (key: K, props: ControlProps & { value: string; onChange: (value: string) => void; hasError: boolean }) => ReactNode;
};

/** The query with its day keys' values passed through `convert` (shown ↔ carried). */
function mapDays<K extends string>(search: ListSearch<K>, query: SearchQuery<K>, convert: (value: string) => string): SearchQuery<K> {
  const days = search.days ?? [];
  return Object.fromEntries(search.keys.map((key) => [key, days.includes(key) ? convert(query[key]) : query[key]])) as SearchQuery<K>;
}

export function SearchForm<K extends string>({ t, search, query, initialErrors, columns, buttonsClassName, control }: SearchFormProps<K>) {
  const texts = `${search.name}.search`;
  const isDay = (key: K) => search.days?.includes(key) ?? false;
  const [values, setValues] = useState<SearchQuery<K>>(() => mapDays(search, query, dayFieldText));
  const [errors, setErrors] = useState(initialErrors);
  function submit(event: FormEvent) {
    event.preventDefault();
    const found = searchErrors(search, values);
    if (found) {
      setErrors(found);
      return;
    }
    setErrors({});
    supportRouter.open(searchHref(search, mapDays(search, values, dayFieldValue), 0));
  }
  return (
    <form role="search" noValidate onSubmit={submit} className={`mt-4 grid gap-4 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 ${columns}`}>
      {search.keys.map((key) => {
        const error = fieldText(t, errors[key]);
        return (
          <Field key={key} id={`${search.name}-search-${key}`} label={t(`${texts}.${key}`)} error={error}>
            {(props) =>
              isDay(key) ? (
                <DayInput
                  {...props}
                  placeholder={t('dayField.placeholder')}
                  value={values[key]}
                  onChange={(e) => setValues({ ...values, [key]: e.target.value })}
                  className={controlClass(Boolean(error), 'h-11 w-full')}
                />
              ) : (
                control(key, { ...props, value: values[key], onChange: (value) => setValues({ ...values, [key]: value }), hasError: Boolean(error) })
              )
            }
          </Field>
        );
      })}
      <div className={buttonsClassName}>
        <button type="submit" className={secondaryButton}>
          {t(`${texts}.submit`)}
        </button>
        {search.keys.some((key) => query[key]) ? (
          <AppLink router={supportRouter} href={search.path} className={smallButton}>
            {t(`${texts}.clear`)}
          </AppLink>
        ) : null}
      </div>
    </form>
  );
}
