/**
 * /support/adverts/ (Support): find an advert by id, name, email or phone (GET profiles; every key given must
 * match; the phone by its digits, +45 left out), newest first, in pages of PAGE_SIZE. The search and the page
 * are in the address (`?id=&name=&email=&phone=&skip=`), so reload and back keep them; each row opens
 * adverts/{id}/.
 */
import type { TFunction } from 'i18next';
import { supportAdvertsApi } from '#lib/api/support-adverts.ts';
import type { Paged } from '#lib/api/support.ts';
import { formatDateTime } from '#lib/format.ts';
import { AdvertProfilesQuerySchema, type AdvertProfileItem } from '#lib/schemas/support-adverts.ts';
import { controlClass } from '../../../components/form/Field.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import { Paging } from '../paging.tsx';
import { SearchForm, useSearchedPage, searchHref, searchOf, type ListSearch, type SearchQuery } from '../list-search.tsx';
import type { SupportScreenProps } from '../screen-props.ts';
import { ScreenShell } from '../screen-data.tsx';

export const PAGE_SIZE = 50;

type Key = 'id' | 'name' | 'email' | 'phone';
type Query = SearchQuery<Key>;
const SEARCH: ListSearch<Key> = {
  name: 'adverts',
  keys: ['id', 'name', 'email', 'phone'],
  fields: { id: 'Id', name: 'Name', email: 'Email', phone: 'Phone' },
  schema: AdvertProfilesQuerySchema,
  path: supportPath('adverts'),
};

/** The list's address for a search and a first row. */
export const advertsHref = (query: Query, skip: number): string => searchHref(SEARCH, query, skip);

export default function AdvertsScreen({ search }: SupportScreenProps) {
  const { query, skip } = searchOf(SEARCH, search);
  return <AdvertsList key={advertsHref(query, skip)} query={query} skip={skip} />;
}

function AdvertsList({ query, skip }: { query: Query; skip: number }) {
  const t = useAppT(supportI18n);
  const { invalid, state, reload } = useSearchedPage(SEARCH, query, { skip, take: PAGE_SIZE }, (body, signal) => supportAdvertsApi.profiles(body, signal));
  return (
    <ScreenShell
      id="adverts-heading"
      title={t('screens.adverts')}
      intro={t('adverts.intro')}
      aside={
        <SearchForm
          t={t}
          search={SEARCH}
          query={query}
          initialErrors={invalid ?? {}}
          columns="lg:grid-cols-[8rem_1fr_1fr_12rem_auto] lg:items-start"
          buttonsClassName="flex items-end gap-2 lg:mt-7"
          control={(key, { value, onChange, hasError, ...control }) => (
            <input
              {...control}
              type={key === 'phone' ? 'tel' : 'search'}
              inputMode={key === 'id' ? 'numeric' : undefined}
              value={value}
              onChange={(e) => onChange(e.target.value)}
              maxLength={key === 'phone' ? 40 : 200}
              className={controlClass(hasError, 'h-11 w-full')}
            />
          )}
        />
      }
      state={state}
      loadError={t('adverts.loadError')}
      onRetry={reload}
    >
      {(list) => (invalid ? null : <AdvertsTable t={t} list={list} query={query} skip={skip} />)}
    </ScreenShell>
  );
}

function AdvertsTable({ t, list, query, skip }: { t: TFunction; list: Paged<AdvertProfileItem>; query: Query; skip: number }) {
  if (list.items.length === 0) return <p className="mt-6 text-slate-700">{t('adverts.empty')}</p>;
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
      <Paging t={t} total={list.total} count={list.items.length} skip={skip} pageSize={PAGE_SIZE} href={(next) => advertsHref(query, next)} />
    </>
  );
}
