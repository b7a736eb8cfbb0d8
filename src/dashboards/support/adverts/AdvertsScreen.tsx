/**
 * /support/adverts/ (Support): find an advert by id, name, email or phone (GET profiles; every key given must
 * match; the phone by its digits, +45 left out), newest first, in pages of PAGE_SIZE. The search and the page
 * are in the address (`?id=&name=&email=&phone=&skip=`), so reload and back keep them; each row opens
 * adverts/{id}/.
 */
import { useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import * as v from 'valibot';
import { supportAdvertsApi } from '#lib/api/support-adverts.ts';
import type { Paged } from '#lib/api/support.ts';
import { formatDateTime } from '#lib/format.ts';
import { AdvertProfilesQuerySchema, type AdvertProfileItem } from '#lib/schemas/support-adverts.ts';
import { Field, controlClass } from '../../../components/form/Field.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { fieldText, secondaryButton, smallButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { ScreenShell } from '../screen-data.tsx';

export const PAGE_SIZE = 50;

const KEYS = ['id', 'name', 'email', 'phone'] as const;
type Key = (typeof KEYS)[number];
type Query = Record<Key, string>;
const SCHEMA_FIELD: Record<Key, 'Id' | 'Name' | 'Email' | 'Phone'> = { id: 'Id', name: 'Name', email: 'Email', phone: 'Phone' };

/** The list's address for a search and a first row. */
export function advertsHref(query: Query, skip: number): string {
  const params = new URLSearchParams();
  for (const key of KEYS) if (query[key].trim()) params.set(key, query[key].trim());
  if (skip > 0) params.set('skip', String(skip));
  const search = params.toString();
  return `${supportPath('adverts')}${search ? `?${search}` : ''}`;
}

/** Field errors of a search (the schema the call validates with), or null when it is good. */
function searchErrors(query: Query): Partial<Record<Key, string>> | null {
  const result = v.safeParse(AdvertProfilesQuerySchema, { Id: query.id, Name: query.name, Email: query.email, Phone: query.phone });
  if (result.success) return null;
  const errors: Partial<Record<Key, string>> = {};
  for (const issue of result.issues) {
    const field = v.getDotPath(issue);
    const key = KEYS.find((k) => SCHEMA_FIELD[k] === field);
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

export default function AdvertsScreen({ search }: SupportScreenProps) {
  const query: Query = { id: search['id'] ?? '', name: search['name'] ?? '', email: search['email'] ?? '', phone: search['phone'] ?? '' };
  const skip = Math.max(0, Number.parseInt(search['skip'] ?? '0', 10) || 0);
  const key = `${advertsHref(query, skip)}`;
  return <AdvertsList key={key} query={query} skip={skip} />;
}

function AdvertsList({ query, skip }: { query: Query; skip: number }) {
  const t = useAppT(supportI18n);
  const invalid = searchErrors(query);
  const { state, reload } = useScreenData((signal) =>
    invalid
      ? Promise.resolve({ total: 0, items: [] })
      : supportAdvertsApi.profiles({ Id: query.id, Name: query.name, Email: query.email, Phone: query.phone, Skip: skip, Take: PAGE_SIZE }, signal),
  );
  return (
    <ScreenShell
      id="adverts-heading"
      title={t('screens.adverts')}
      intro={t('adverts.intro')}
      aside={<SearchForm t={t} query={query} initialErrors={invalid ?? {}} />}
      state={state}
      loadError={t('adverts.loadError')}
      onRetry={reload}
    >
      {(list) => (invalid ? null : <AdvertsTable t={t} list={list} query={query} skip={skip} />)}
    </ScreenShell>
  );
}

function SearchForm({ t, query, initialErrors }: { t: TFunction; query: Query; initialErrors: Partial<Record<Key, string>> }) {
  const [values, setValues] = useState<Query>(query);
  const [errors, setErrors] = useState(initialErrors);
  function submit(event: FormEvent) {
    event.preventDefault();
    const found = searchErrors(values);
    if (found) {
      setErrors(found);
      return;
    }
    setErrors({});
    supportRouter.open(advertsHref(values, 0));
  }
  return (
    <form role="search" noValidate onSubmit={submit} className="mt-4 grid gap-4 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-[8rem_1fr_1fr_12rem_auto] lg:items-start">
      {KEYS.map((key) => {
        const error = fieldText(t, errors[key]);
        return (
          <Field key={key} id={`adverts-search-${key}`} label={t(`adverts.search.${key}`)} error={error}>
            {(control) => (
              <input
                {...control}
                type={key === 'email' ? 'search' : key === 'phone' ? 'tel' : 'search'}
                inputMode={key === 'id' ? 'numeric' : undefined}
                value={values[key]}
                onChange={(e) => setValues({ ...values, [key]: e.target.value })}
                maxLength={key === 'phone' ? 40 : 200}
                className={controlClass(Boolean(error), 'h-11 w-full')}
              />
            )}
          </Field>
        );
      })}
      <div className="flex items-end gap-2 lg:mt-7">
        <button type="submit" className={secondaryButton}>
          {t('adverts.search.submit')}
        </button>
        {KEYS.some((key) => query[key]) ? (
          <AppLink router={supportRouter} href={supportPath('adverts')} className={smallButton}>
            {t('adverts.search.clear')}
          </AppLink>
        ) : null}
      </div>
    </form>
  );
}

function AdvertsTable({ t, list, query, skip }: { t: TFunction; list: Paged<AdvertProfileItem>; query: Query; skip: number }) {
  if (list.items.length === 0) return <p className="mt-6 text-slate-700">{t('adverts.empty')}</p>;
  const from = skip + 1;
  const to = skip + list.items.length;
  return (
    <>
      <div role="region" aria-label={t('adverts.caption')} tabIndex={0} className="mt-6 overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('adverts.caption')}</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              {(['id', 'name', 'email', 'phone', 'kind', 'status', 'verified', 'created', 'lastLogin'] as const).map((column) => (
                <th key={column} scope="col" className="whitespace-nowrap px-3 py-2 font-semibold">
                  {t(`adverts.columns.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {list.items.map((advert) => (
              <tr key={advert.id} data-advert={advert.id}>
                <td className="px-3 py-2 text-slate-800">{advert.id}</td>
                <th scope="row" className="px-3 py-2 font-medium">
                  <AppLink router={supportRouter} href={`${supportPath('adverts')}${advert.id}/`} className="text-brand-700 underline">
                    {advert.name}
                  </AppLink>
                </th>
                <td className="break-all px-3 py-2 text-slate-800">{advert.email}</td>
                <td className="whitespace-nowrap px-3 py-2 text-slate-800">{advert.phone ?? '–'}</td>
                <td className="px-3 py-2 text-slate-800">{t(`adverts.kind.${advert.kind}`)}</td>
                <td className="px-3 py-2 text-slate-800">{t(`moderation.advertStatus.${advert.status}`, { defaultValue: String(advert.status) })}</td>
                <td className="px-3 py-2 text-slate-800">{advert.verified ? t('form.yes') : t('form.no')}</td>
                <td className="whitespace-nowrap px-3 py-2 text-slate-800">{formatDateTime(advert.createdAt)}</td>
                <td className="whitespace-nowrap px-3 py-2 text-slate-800">{advert.lastLoginAt ? formatDateTime(advert.lastLoginAt) : t('adverts.never')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav aria-label={t('adverts.paging')} className="mt-4 flex flex-wrap items-center gap-3">
        <p className="text-sm text-slate-700">{t('adverts.showing', { from, to, total: list.total })}</p>
        {skip > 0 ? (
          <AppLink router={supportRouter} href={advertsHref(query, Math.max(0, skip - PAGE_SIZE))} className={smallButton}>
            {t('adverts.previous')}
          </AppLink>
        ) : null}
        {to < list.total ? (
          <AppLink router={supportRouter} href={advertsHref(query, skip + PAGE_SIZE)} className={smallButton}>
            {t('adverts.next')}
          </AppLink>
        ) : null}
      </nav>
    </>
  );
}
