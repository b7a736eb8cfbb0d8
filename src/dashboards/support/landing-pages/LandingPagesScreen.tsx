/**
 * /support/landing-pages/ (SEO): every SEO page by type (GET landingpages: Skip, Take, Id, Title, Url,
 * TypeValue, and WithoutText): service pages, articles, free pages, and the index pages of every kind,
 * kind × region and kind × city, listed for every place even before anyone wrote a text ("no text yet":
 * opens a new index page for that place). Each page's languages show whether they are published. The
 * search and the page are in the address (reload and back keep them). "New page" → landing-pages/new/.
 */
import type { TFunction } from 'i18next';
import { supportSeoPagesApi } from '#lib/api/support-seo-pages.ts';
import type { Paged } from '#lib/api/support.ts';
import { formatDate } from '#lib/format.ts';
import { LANDING_PAGE_TYPES, LandingPagesQuerySchema, type SupportLandingListItem } from '#lib/schemas/landing-page.ts';
import { controlClass } from '../../../components/form/Field.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { primaryButton, smallButton } from '../../shared/form-text.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import { SearchForm, useSearchedPage, searchHref, searchOf, type ListSearch, type SearchQuery } from '../list-search.tsx';
import type { SupportScreenProps } from '../screen-props.ts';
import { ScreenShell } from '../screen-data.tsx';
import { Table, cell } from '../advert/advert-sections.tsx';
import { Paging } from '../paging.tsx';

export const PAGE_SIZE = 25;

type Key = 'id' | 'title' | 'url' | 'type' | 'withoutText';
type Query = SearchQuery<Key>;
const SEARCH: ListSearch<Key> = {
  name: 'landingPages',
  keys: ['id', 'title', 'url', 'type', 'withoutText'],
  fields: { id: 'Id', title: 'Title', url: 'Url', type: 'TypeValue', withoutText: 'WithoutText' },
  schema: LandingPagesQuerySchema,
  path: supportPath('landingPages'),
};

/** The list's address for a search and a first row. */
export const landingPagesHref = (query: Query, skip: number): string => searchHref(SEARCH, query, skip);

/** The address of a page's editor; a new page's with what it starts from (an index page's place, a search term). */
export function landingPageHref(id: number | 'new', start: { type?: string; url?: string; term?: string } = {}): string {
  const query = new URLSearchParams(Object.entries(start).filter(([, value]) => value) as [string, string][]).toString();
  return `${supportPath('landingPages')}${id}/${query ? `?${query}` : ''}`;
}

const WITHOUT_TEXT: Query = { id: '', title: '', url: '', type: '', withoutText: 'true' };

export default function LandingPagesScreen({ search }: SupportScreenProps) {
  const { query, skip } = searchOf(SEARCH, search);
  return <LandingPagesList key={landingPagesHref(query, skip)} query={query} skip={skip} />;
}

function LandingPagesList({ query, skip }: { query: Query; skip: number }) {
  const t = useAppT(supportI18n);
  const { invalid, state, reload } = useSearchedPage(SEARCH, query, { skip, take: PAGE_SIZE }, (body, signal) => supportSeoPagesApi.list(body, signal));
  return (
    <ScreenShell
      id="landing-pages-heading"
      title={t('screens.landingPages')}
      intro={t('landingPages.intro')}
      aside={
        <>
          <div className="mt-4 flex flex-wrap gap-3">
            <AppLink router={supportRouter} href={landingPageHref('new')} className={primaryButton}>
              {t('landingPages.new')}
            </AppLink>
            {query.withoutText ? null : (
              <AppLink router={supportRouter} href={landingPagesHref(WITHOUT_TEXT, 0)} className={smallButton}>
                {t('landingPages.showWithoutText')}
              </AppLink>
            )}
          </div>
          <SearchForm
            t={t}
            search={SEARCH}
            query={query}
            initialErrors={invalid ?? {}}
            columns="lg:grid-cols-5 lg:items-end"
            buttonsClassName="flex items-end gap-2 sm:col-span-2 lg:col-span-5"
            control={(key, { value, onChange, hasError, ...control }) =>
              key === 'type' ? (
                <select {...control} value={value} onChange={(e) => onChange(e.target.value)} className={controlClass(hasError, 'h-11 w-full')}>
                  <option value="">{t('landingPages.search.anyType')}</option>
                  {LANDING_PAGE_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {t(`landingPages.types.${type}`)}
                    </option>
                  ))}
                </select>
              ) : key === 'withoutText' ? (
                <select {...control} value={value} onChange={(e) => onChange(e.target.value)} className={controlClass(hasError, 'h-11 w-full')}>
                  <option value="">{t('landingPages.search.anyText')}</option>
                  <option value="true">{t('landingPages.search.onlyWithoutText')}</option>
                </select>
              ) : (
                <input
                  {...control}
                  type="search"
                  inputMode={key === 'id' ? 'numeric' : undefined}
                  value={value}
                  onChange={(e) => onChange(e.target.value)}
                  maxLength={200}
                  className={controlClass(hasError, 'h-11 w-full')}
                />
              )
            }
          />
        </>
      }
      state={state}
      loadError={t('landingPages.loadError')}
      onRetry={reload}
    >
      {(list) => (invalid ? null : <LandingPagesTable t={t} list={list} query={query} skip={skip} />)}
    </ScreenShell>
  );
}

function Languages({ t, item }: { t: TFunction; item: SupportLandingListItem }) {
  if (item.locales.length === 0) return <>–</>;
  return (
    <ul className="space-y-0.5">
      {item.locales.map((locale) => (
        <li key={locale.locale} data-locale={locale.locale} data-published={locale.published}>
          {t(`landingPages.languages.${locale.locale}`)}: {locale.published ? t('landingPages.published') : t('landingPages.draft')}
        </li>
      ))}
    </ul>
  );
}

function LandingPagesTable({ t, list, query, skip }: { t: TFunction; list: Paged<SupportLandingListItem>; query: Query; skip: number }) {
  if (list.items.length === 0) return <p className="mt-6 text-slate-700">{t('landingPages.empty')}</p>;
  const columns = (['title', 'type', 'address', 'languages', 'text', 'updated'] as const).map((column) => t(`landingPages.columns.${column}`));
  return (
    <>
      <p className="mt-6 text-sm text-slate-700">{t('landingPages.count', { count: list.total })}</p>
      <Table caption={t('landingPages.caption')} columns={columns}>
        {list.items.map((item) => {
          const href = item.id === null ? landingPageHref('new', { type: 'index', url: item.url }) : landingPageHref(item.id);
          const name = item.id === null ? item.place ?? item.url : item.title || item.place || item.url;
          return (
            <tr key={`${item.type}/${item.url}`} data-landing-page={item.id ?? 'unwritten'} data-url={item.url}>
              <th scope="row" className="px-3 py-2 font-medium">
                <AppLink router={supportRouter} href={href} className="text-brand-700 underline">
                  {name}
                </AppLink>
                {item.type === 'index' && item.id !== null && item.place ? <span className="block text-sm font-normal text-slate-600">{item.place}</span> : null}
              </th>
              <td className={cell}>{t(`landingPages.types.${item.type}`)}</td>
              <td className={`${cell} break-all`}>{item.path}</td>
              <td className={cell}>
                <Languages t={t} item={item} />
              </td>
              <td className={cell} data-has-text={item.hasText}>
                {item.id === null ? t('landingPages.noTextYet') : item.hasText ? t('landingPages.hasText') : t('landingPages.noText')}
              </td>
              <td className={`${cell} whitespace-nowrap`}>{item.updatedAt ? formatDate(item.updatedAt) : '–'}</td>
            </tr>
          );
        })}
      </Table>
      <Paging t={t} total={list.total} count={list.items.length} skip={skip} pageSize={PAGE_SIZE} href={(next) => landingPagesHref(query, next)} />
    </>
  );
}
