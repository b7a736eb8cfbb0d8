/**
 * Reviews of adverts/{id}/reviews/: every review of the advert in any status, newest first (GET
 * advertreviews); a pending one links to its item in the pending-reviews queue, where it is decided.
 */
import type { TFunction } from 'i18next';
import { supportAdvertsApi } from '#lib/api/support-adverts.ts';
import { formatDateTime } from '#lib/format.ts';
import type { AdvertProfile } from '#lib/schemas/support-adverts.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { supportPath, supportRouter } from '../routes.ts';
import { SectionData, Table, cell } from './advert-sections.tsx';

const PENDING = 0;

export function ReviewsSection({ t, advert }: { t: TFunction; advert: AdvertProfile }) {
  return (
    <section aria-labelledby="advert-reviews">
      <h2 id="advert-reviews" className="text-lg font-semibold text-ink">
        {t('advert.reviews.title')}
      </h2>
      <SectionData load={(signal) => supportAdvertsApi.reviews(advert.id, signal)} loadError={t('advert.loadSectionError')}>
        {(items) =>
          items.length === 0 ? (
            <p className="mt-4 text-slate-700">{t('advert.reviews.empty')}</p>
          ) : (
            <Table caption={t('advert.reviews.title')} columns={['received', 'author', 'rating', 'text', 'status'].map((column) => t(`advert.reviews.${column}`))}>
              {items.map((review) => (
                <tr key={review.id} data-review={review.id} data-review-status={review.status}>
                  <td className={`${cell} whitespace-nowrap`}>{formatDateTime(review.createdAt)}</td>
                  <td className={cell}>{review.authorName}</td>
                  <td className={`${cell} whitespace-nowrap`}>{t('advert.reviews.stars', { count: review.rating })}</td>
                  <td className={`${cell} max-w-md whitespace-pre-line break-words`}>
                    {review.text}
                    {review.replyText ? <span className="mt-2 block text-slate-600">{t('advert.reviews.reply', { text: review.replyText })}</span> : null}
                  </td>
                  <td className={cell}>
                    {review.status === PENDING ? (
                      <AppLink router={supportRouter} href={`${supportPath('pendingReviews')}${review.id}/`} className="text-brand-700 underline">
                        {t('advert.reviews.pendingLink')}
                      </AppLink>
                    ) : (
                      t(`advert.reviews.statuses.${review.status}`, { defaultValue: String(review.status) })
                    )}
                    {review.removalRequested ? <span className="block text-sm text-slate-600">{t('advert.reviews.removalRequested')}</span> : null}
                  </td>
                </tr>
              ))}
            </Table>
          )
        }
      </SectionData>
    </section>
  );
}
