/**
 * /support/news/ (Administration): news for advertisers, drafts first and then by first day, newest first
 * (GET news: Skip, Take, Title, LocaleId), with language, status (draft, scheduled, showing, ended), first
 * and end day and whether pinned; searched by words of the title and a language, in pages of PAGE_SIZE,
 * all kept in the address (`?title=`, `?locale=`, `?skip=`). "New news item" → news/new/.
 */
import { useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { supportNewsApi } from '#lib/api/support-news.ts';
import type { Paged } from '#lib/api/support.ts';
import { NEWS_LOCALES, type SupportNewsItem } from '#lib/schemas/news.ts';
import { Field, controlClass } from '../../../components/form/Field.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { primaryButton, secondaryButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { skipOf } from '../../shared/paging.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import { Paging } from '../paging.tsx';
import type { SupportScreenProps } from '../screen-props.ts';
import { ScreenShell } from '../screen-data.tsx';
import { Table, cell } from '../advert/advert-sections.tsx';
import { NewsLocaleOptions } from '../news-item/news-parts.tsx';
import { formatIsoDay } from '#lib/format.ts';

export const PAGE_SIZE = 20;

type Search = { title: string; locale: string };

/** The list's address for a search and a first row. */
export function newsHref(search: Search, skip: number): string {
  const query = new URLSearchParams();
  if (search.title) query.set('title', search.title);
  if (search.locale) query.set('locale', search.locale);
  if (skip > 0) query.set('skip', String(skip));
  const text = query.toString();
  return `${supportPath('news')}${text ? `?${text}` : ''}`;
}

/** The address of one news item's screen. */
export const newsItemHref = (id: number | 'new') => `${supportPath('news')}${id}/`;

export default function NewsScreen({ search }: SupportScreenProps) {
  const title = (search['title'] ?? '').trim();
  const locale = (NEWS_LOCALES as readonly string[]).includes(search['locale'] ?? '') ? search['locale']! : '';
  const skip = skipOf(search);
  return <NewsList key={`${title}\n${locale}\n${skip}`} search={{ title, locale }} skip={skip} />;
}

function NewsList({ search, skip }: { search: Search; skip: number }) {
  const t = useAppT(supportI18n);
  const { state, reload } = useScreenData((signal) =>
    supportNewsApi.list({ Skip: skip, Take: PAGE_SIZE, ...(search.title ? { Title: search.title } : {}), ...(search.locale ? { LocaleId: search.locale } : {}) }, signal),
  );
  return (
    <ScreenShell
      id="news-heading"
      title={t('screens.news')}
      intro={t('news.intro')}
      aside={
        <div className="mt-4 flex flex-wrap items-end justify-between gap-4">
          <SearchForm t={t} search={search} />
          <AppLink router={supportRouter} href={newsItemHref('new')} className={primaryButton}>
            {t('news.new')}
          </AppLink>
        </div>
      }
      state={state}
      loadError={t('news.loadError')}
      onRetry={reload}
    >
      {(list) => <NewsTable t={t} list={list} search={search} skip={skip} />}
    </ScreenShell>
  );
}

function SearchForm({ t, search }: { t: TFunction; search: Search }) {
  const [title, setTitle] = useState(search.title);
  const [locale, setLocale] = useState(search.locale);
  function submit(event: FormEvent) {
    event.preventDefault();
    supportRouter.open(newsHref({ title: title.trim(), locale }, 0));
  }
  return (
    <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-3">
      <Field id="news-search-title" label={t('news.title')}>
        {(control) => <input {...control} type="search" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} className={controlClass(false, 'h-11 w-64 max-w-full')} />}
      </Field>
      <Field id="news-search-locale" label={t('news.language')}>
        {(control) => (
          <select {...control} value={locale} onChange={(e) => setLocale(e.target.value)} className={controlClass(false, 'h-11')}>
            <option value="">{t('news.allLanguages')}</option>
            <NewsLocaleOptions t={t} />
          </select>
        )}
      </Field>
      <button type="submit" className={secondaryButton}>
        {t('news.search')}
      </button>
    </form>
  );
}

function NewsTable({ t, list, search, skip }: { t: TFunction; list: Paged<SupportNewsItem>; search: Search; skip: number }) {
  if (list.items.length === 0) return <p className="mt-6 text-slate-700">{t('news.empty')}</p>;
  const columns = (['title', 'language', 'state', 'publishFrom', 'endsOn', 'pinned'] as const).map((column) => t(`news.columns.${column}`));
  return (
    <>
      <Table caption={t('news.caption')} columns={columns}>
        {list.items.map((item) => (
          <tr key={item.id} data-news={item.id}>
            <th scope="row" className="px-3 py-2 font-medium">
              <AppLink router={supportRouter} href={newsItemHref(item.id)} className="text-brand-700 underline" lang={item.locale}>
                {item.title}
              </AppLink>
            </th>
            <td className={cell}>{t(`news.languages.${item.locale}`)}</td>
            <td className={cell} data-state={item.state}>
              {t(`news.states.${item.state}`)}
            </td>
            <td className={`${cell} whitespace-nowrap`}>{formatIsoDay(item.publishFrom)}</td>
            <td className={`${cell} whitespace-nowrap`}>{formatIsoDay(item.endsOn)}</td>
            <td className={cell}>{item.pinned ? t('news.pinnedYes') : ''}</td>
          </tr>
        ))}
      </Table>
      <Paging t={t} total={list.total} count={list.items.length} skip={skip} pageSize={PAGE_SIZE} href={(next) => newsHref(search, next)} />
    </>
  );
}
