/**
 * reviews/: the advert's reviews (approved, pending, hidden, rejected), filtered by status, each with its
 * date (dd-MM-yyyy), rating and text. The advertiser publishes one reply to a review (addreview; afterwards
 * the reply is shown and no second one offered) and can ask support to remove a review with a reason
 * (deletereview; shown as requested afterwards).
 */
import { useState } from 'react';
import * as v from 'valibot';
import { formatDate } from '#lib/format.ts';
import { AddReviewSchema, DeleteReviewSchema } from '#lib/schemas/advert-edit.ts';
import { toast } from '#lib/stores/toasts.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import { fieldText, noticeText, primaryButton, secondaryButton, smallButton } from '../../shared/form-text.ts';
import { REVIEW_STATUS, reviewsApi, type ProfileReview, type ReviewStatusName } from './api.ts';

type Filter = 'all' | ReviewStatusName;
const FILTERS: Filter[] = ['all', 'approved', 'pending', 'hidden', 'rejected'];
const statusName = (status: number): ReviewStatusName =>
  (Object.entries(REVIEW_STATUS).find(([, value]) => value === status)?.[0] as ReviewStatusName | undefined) ?? 'pending';

export default function ReviewsScreen() {
  const t = useAppT(backendI18n);
  const { state, setData, reload } = useScreenData(reviewsApi.list);
  const [filter, setFilter] = useState<Filter>('all');

  const reviews = state.status === 'ready' ? state.data : [];
  const replace = (review: ProfileReview) => setData(reviews.map((r) => (r.id === review.id ? review : r)));
  const countOf = (f: Filter) => (f === 'all' ? reviews.length : reviews.filter((r) => statusName(r.status) === f).length);
  const shown = filter === 'all' ? reviews : reviews.filter((r) => statusName(r.status) === filter);

  return (
    <ScreenShell id="reviews-screen-heading" title={t('screens.reviews')} intro={t('reviews.intro')} state={state} loadError={t('reviews.loadError')} onRetry={reload}>
      {() => (
        <>
          <div role="group" aria-label={t('reviews.filter')} className="mt-6 flex flex-wrap gap-2">
            {FILTERS.map((f) => (
              <button
                key={f}
                type="button"
                aria-pressed={filter === f}
                onClick={() => setFilter(f)}
                className={`min-h-10 rounded-full border px-4 text-sm font-medium ${
                  filter === f ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-300 bg-white text-ink hover:bg-slate-50'
                }`}
              >
                {t(`reviews.filters.${f}`)} ({countOf(f)})
              </button>
            ))}
          </div>
          {shown.length === 0 ? (
            <p className="mt-6 text-slate-700">{reviews.length === 0 ? t('reviews.none') : t('reviews.noneInFilter')}</p>
          ) : (
            <ul className="mt-6 space-y-4">
              {shown.map((review) => (
                <li key={review.id}>
                  <ReviewCard review={review} onChange={replace} />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </ScreenShell>
  );
}

const STATUS_COLOURS: Record<ReviewStatusName, string> = {
  approved: 'bg-emerald-100 text-emerald-900',
  pending: 'bg-amber-100 text-amber-950',
  hidden: 'bg-slate-200 text-slate-800',
  rejected: 'bg-red-100 text-red-900',
};

function ReviewCard({ review, onChange }: { review: ProfileReview; onChange: (review: ProfileReview) => void }) {
  const t = useAppT(backendI18n);
  const [askingRemoval, setAskingRemoval] = useState(false);
  const status = statusName(review.status);
  const titleId = `review-${review.id}-title`;

  return (
    <article aria-labelledby={titleId} data-review={review.id} className="rounded-xl border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={titleId} className="text-lg font-semibold text-ink">
          {t('reviews.by', { name: review.authorName })}
        </h2>
        <span className={`rounded-full px-3 py-1 text-sm font-medium ${STATUS_COLOURS[status]}`}>{t(`reviews.status.${status}`)}</span>
      </div>
      <p className="mt-1 flex flex-wrap gap-x-4 text-sm text-slate-700">
        <span>
          <span aria-hidden="true" className="text-amber-700">
            {'★'.repeat(review.rating)}
            {'☆'.repeat(Math.max(0, 5 - review.rating))}
          </span>{' '}
          {t('reviews.rating', { rating: review.rating })}
        </span>
        <span>{t('reviews.date', { date: formatDate(review.createdAt) })}</span>
      </p>
      <p className="mt-3 whitespace-pre-line text-ink">{review.text}</p>

      {review.reply !== null ? (
        <div className="mt-4 rounded-lg border-l-4 border-brand-700 bg-slate-50 p-3" data-reply>
          <p className="text-sm font-semibold text-ink">
            {review.replyAt ? t('reviews.yourReplyOn', { date: formatDate(review.replyAt) }) : t('reviews.yourReply')}
          </p>
          <p className="mt-1 whitespace-pre-line text-ink">{review.reply}</p>
        </div>
      ) : status !== 'rejected' ? (
        <ReplyForm review={review} onReplied={onChange} />
      ) : null}

      {review.removalRequested ? (
        <p className="mt-4 text-sm font-medium text-slate-800" data-removal-requested>
          {t('reviews.removalRequested')}
        </p>
      ) : askingRemoval ? (
        <RemovalForm
          review={review}
          onCancel={() => setAskingRemoval(false)}
          onRequested={(updated) => {
            setAskingRemoval(false);
            onChange(updated);
          }}
        />
      ) : (
        <button type="button" className={`${smallButton} mt-4`} onClick={() => setAskingRemoval(true)}>
          {t('reviews.askRemoval')}
        </button>
      )}
    </article>
  );
}

type ReplyValues = { ReviewId: number; Text: string };
type ReplyOutput = v.InferOutput<typeof AddReviewSchema>;

function ReplyForm({ review, onReplied }: { review: ProfileReview; onReplied: (review: ProfileReview) => void }) {
  const t = useAppT(backendI18n);
  const form = useApiForm<ReplyValues, ReplyOutput>({
    schema: AddReviewSchema as unknown as v.GenericSchema<ReplyValues, ReplyOutput>,
    defaultValues: { ReviewId: review.id, Text: '' },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const updated = await reviewsApi.reply(values.ReviewId, values.Text);
      form.reset({ ReviewId: review.id, Text: '' });
      onReplied(updated);
      toast({ title: t('form.saved'), variant: 'success' });
    },
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const id = `review-${review.id}-reply`;

  return (
    <form noValidate onSubmit={form.submit} className="mt-4 space-y-3">
      <FormNotice message={noticeText(t, form.notice)} />
      <Field id={id} label={t('reviews.replyLabel')} hint={t('reviews.replyHint')} required error={fieldText(t, errors.Text?.message)}>
        {(control) => <textarea {...control} {...form.register('Text')} rows={3} maxLength={1000} className={controlClass(!!errors.Text, 'py-2')} />}
      </Field>
      <button type="submit" className={primaryButton} disabled={isSubmitting}>
        {isSubmitting ? t('form.saving') : t('reviews.publishReply')}
      </button>
    </form>
  );
}

type RemovalValues = { ReviewId: number; Reason: string };
/** deletereview's schema, with the reason required on this screen (support needs to know why). */
const RemovalSchema = v.pipe(
  DeleteReviewSchema,
  v.forward(
    v.check((input) => input.Reason.length > 0, 'required'),
    ['Reason'],
  ),
);
type RemovalOutput = v.InferOutput<typeof RemovalSchema>;

function RemovalForm({ review, onRequested, onCancel }: { review: ProfileReview; onRequested: (review: ProfileReview) => void; onCancel: () => void }) {
  const t = useAppT(backendI18n);
  const form = useApiForm<RemovalValues, RemovalOutput>({
    schema: RemovalSchema as unknown as v.GenericSchema<RemovalValues, RemovalOutput>,
    defaultValues: { ReviewId: review.id, Reason: '' },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const updated = await reviewsApi.requestRemoval(values.ReviewId, values.Reason);
      form.reset({ ReviewId: review.id, Reason: '' });
      onRequested(updated);
      toast({ title: t('form.saved'), variant: 'success' });
    },
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const id = `review-${review.id}-reason`;

  return (
    <form noValidate onSubmit={form.submit} className="mt-4 space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3">
      <FormNotice message={noticeText(t, form.notice)} />
      <Field id={id} label={t('reviews.reasonLabel')} hint={t('reviews.reasonHint')} required error={fieldText(t, errors.Reason?.message)}>
        {(control) => <textarea {...control} {...form.register('Reason')} rows={3} maxLength={500} className={controlClass(!!errors.Reason, 'py-2')} />}
      </Field>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? t('form.saving') : t('reviews.sendRemoval')}
        </button>
        <button type="button" className={secondaryButton} onClick={onCancel}>
          {t('form.cancel')}
        </button>
      </div>
    </form>
  );
}
