/**
 * /support/pending-reviews/ (Support): visitors' reviews waiting for approval and reviews the advertiser
 * asked to remove (GET pendingreviews), oldest first, each linking to its screen. Pages of PAGE_SIZE
 * (`?skip=` in the address, so back and reload keep the page).
 */
import type { TFunction } from 'i18next';
import { supportApi, type Paged } from '#lib/api/support.ts';
import { formatDateTime } from '#lib/format.ts';
import type { PendingReviewItem } from '#lib/schemas/reviews.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import { Paging } from '../paging.tsx';
import type { SupportScreenProps } from '../screen-props.ts';
import { ScreenShell } from '../screen-data.tsx';
import { skipOf } from '../../shared/paging.tsx';

export const PAGE_SIZE = 50;

/** The list's address for a first row. */
export function pendingReviewsHref(skip: number): string {
  return `${supportPath('pendingReviews')}${skip > 0 ? `?skip=${skip}` : ''}`;
}

/** The first words of a review's text, for the list. */
export function excerpt(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…` : text;
}

export default function PendingReviewsScreen({ search }: SupportScreenProps) {
  const skip = skipOf(search);
  return <ReviewsList key={skip} skip={skip} />;
}

function ReviewsList({ skip }: { skip: number }) {
  const t = useAppT(supportI18n);
  const { state, reload } = useScreenData((signal) => supportApi.pendingReviews({ Skip: skip, Take: PAGE_SIZE }, signal));
  return (
    <ScreenShell
      id="pending-reviews-heading"
      title={t('screens.pendingReviews')}
      intro={t('pendingReviews.intro')}
      state={state}
      loadError={t('pendingReviews.loadError')}
      onRetry={reload}
    >
      {(list) => <ReviewsTable t={t} list={list} skip={skip} />}
    </ScreenShell>
  );
}

function ReviewsTable({ t, list, skip }: { t: TFunction; list: Paged<PendingReviewItem>; skip: number }) {
  if (list.items.length === 0) return <p className="mt-6 text-slate-700">{t('pendingReviews.empty')}</p>;
  return (
    <>
      <div className="mt-6 overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('pendingReviews.caption')}</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              {(['review', 'advert', 'kind', 'rating', 'received'] as const).map((column) => (
                <th key={column} scope="col" className="px-3 py-2 font-semibold">
                  {t(`pendingReviews.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {list.items.map((review) => (
              <tr key={review.id} data-review={review.id} data-kind={review.kind}>
                <th scope="row" className="px-3 py-2 font-medium">
                  <AppLink router={supportRouter} href={`${supportPath('pendingReviews')}${review.id}/`} className="text-brand-700 underline">
                    {review.authorName}
                  </AppLink>
                  <span className="mt-0.5 block font-normal text-slate-700">{excerpt(review.text)}</span>
                </th>
                <td className="px-3 py-2 text-slate-800">{review.advertName}</td>
                <td className="px-3 py-2 text-slate-800">{t(`pendingReviews.kinds.${review.kind}`)}</td>
                <td className="whitespace-nowrap px-3 py-2 text-slate-800">
                  <span aria-hidden="true" className="text-amber-600">
                    {'★'.repeat(review.rating)}
                  </span>
                  <span className="sr-only">{t('pendingReviews.stars', { rating: review.rating })}</span>
                </td>
                <td className="whitespace-nowrap px-3 py-2 text-slate-800">{formatDateTime(review.removalRequestedAt ?? review.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Paging t={t} total={list.total} count={list.items.length} skip={skip} pageSize={PAGE_SIZE} href={(next) => pendingReviewsHref(next)} />
    </>
  );
}
