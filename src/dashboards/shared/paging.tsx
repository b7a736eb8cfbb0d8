/**
 * The paging of every list in the dashboards (support's lists and queues, an advert's sections, the
 * advertiser's purchase history): where this page is in the list, and links to the page before and after
 * it. The page is in the address (`?skip=`, `href(skip)`), so reload and back keep it. Texts: common
 * `paging.*`.
 */
import type { TFunction } from 'i18next';
import { AppLink, type AppNavigator } from './AppLink.tsx';
import { smallButton } from './form-text.ts';

/** The first row of the page in the address (`skip`, a whole number; anything else is the first page). */
export function skipOf(search: Record<string, string>): number {
  return Math.max(0, Number.parseInt(search['skip'] ?? '0', 10) || 0);
}

export function Paging({
  t,
  router,
  total,
  count,
  skip,
  pageSize,
  href,
}: {
  t: TFunction;
  /** The app's router (the links open in place). */
  router: AppNavigator;
  total: number;
  /** Rows on this page. */
  count: number;
  skip: number;
  pageSize: number;
  href: (skip: number) => string;
}) {
  const to = skip + count;
  return (
    <nav aria-label={t('common:paging.label')} className="mt-4 flex flex-wrap items-center gap-3">
      <p className="text-sm text-slate-700">{t('common:paging.showing', { from: count === 0 ? 0 : skip + 1, to, total })}</p>
      {skip > 0 ? (
        <AppLink router={router} href={href(Math.max(0, skip - pageSize))} className={smallButton}>
          {t('common:paging.previous')}
        </AppLink>
      ) : null}
      {to < total ? (
        <AppLink router={router} href={href(skip + pageSize)} className={smallButton}>
          {t('common:paging.next')}
        </AppLink>
      ) : null}
    </nav>
  );
}
