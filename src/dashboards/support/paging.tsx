/**
 * The paging of every support list (adverts, orders, users, queues, an advert's sections): where this page
 * is in the list, and links to the page before and after it. The page is in the address (`href(skip)`), so
 * reload and back keep it.
 */
import type { TFunction } from 'i18next';
import { AppLink } from '../shared/AppLink.tsx';
import { smallButton } from '../shared/form-text.ts';
import { supportRouter } from './routes.ts';

export function Paging({
  t,
  total,
  count,
  skip,
  pageSize,
  href,
}: {
  t: TFunction;
  total: number;
  /** Rows on this page. */
  count: number;
  skip: number;
  pageSize: number;
  href: (skip: number) => string;
}) {
  const to = skip + count;
  return (
    <nav aria-label={t('pages.label')} className="mt-4 flex flex-wrap items-center gap-3">
      <p className="text-sm text-slate-700">{t('pages.showing', { from: count === 0 ? 0 : skip + 1, to, total })}</p>
      {skip > 0 ? (
        <AppLink router={supportRouter} href={href(Math.max(0, skip - pageSize))} className={smallButton}>
          {t('pages.previous')}
        </AppLink>
      ) : null}
      {to < total ? (
        <AppLink router={supportRouter} href={href(skip + pageSize)} className={smallButton}>
          {t('pages.next')}
        </AppLink>
      ) : null}
    </nav>
  );
}
