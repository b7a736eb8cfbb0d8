/**
 * /support/pending-reviews/{id}/ (Support): one review (GET pendingreview) with its advert, then the
 * decision (POST decidereview): a new review is approved (it shows on the profile after the page's rebuild)
 * or rejected with a reason kept for the record; a review the advertiser asked to remove is removed or kept.
 * A decided review shows the decision, who made it and when instead of the form; one someone else decided
 * meanwhile (409 `alreadyDecided`) says so and shows their decision.
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { supportApi } from '#lib/api/support.ts';
import { formatDateTime } from '#lib/format.ts';
import { DecideReviewSchema, type DecideReviewInput, type PendingReviewDetail, type ReviewDecision } from '#lib/schemas/reviews.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { fieldText, noticeText, primaryButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { Facts, ItemScreen, itemLoader } from '../item-screen.tsx';
import { DecisionRadios } from '../decision-fields.tsx';
import { sendDecision } from '../decision-submit.ts';

/** The decisions that fit a review: approve or reject a new one; remove or keep one asked to be removed. */
export function decisionsFor(kind: PendingReviewDetail['kind']): readonly ReviewDecision[] {
  return kind === 'new' ? ['approve', 'reject'] : ['remove', 'keep'];
}

export default function PendingReviewScreen({ params }: SupportScreenProps) {
  const id = params['id'] ?? '';
  return <ReviewLoader key={id} id={id} />;
}

function ReviewLoader({ id }: { id: string }) {
  const t = useAppT(supportI18n);
  const [alreadyDecided, setAlreadyDecided] = useState(false);
  const [justDecided, setJustDecided] = useState(false);
  const { state, setData, reload } = useScreenData<PendingReviewDetail | 'notFound'>(itemLoader(id, (itemId, signal) => supportApi.pendingReview(itemId, signal)));
  const title = state.status === 'ready' && state.data !== 'notFound' ? t('pendingReview.title', { id: state.data.id }) : t('screens.pendingReview');
  return (
    <ItemScreen
      width="max-w-3xl"
      catalog="pendingReview"
      list='pendingReviews'
      title={title}
      state={state}
      onRetry={reload}
    >
      {(review) => (
        <div className="mt-6 space-y-8">
          <ReviewFacts t={t} review={review} />
          <AdvertFacts t={t} review={review} />
          {alreadyDecided ? <FormNotice message={t('validation.alreadyDecided')} /> : null}
          {justDecided ? <FormNotice tone="success" message={t('pendingReview.decided')} /> : null}
          {review.open ? (
            <DecisionForm
              t={t}
              review={review}
              onDecided={(decided) => {
                setJustDecided(true);
                setData(decided);
              }}
              onAlreadyDecided={() => {
                setAlreadyDecided(true);
                reload();
              }}
            />
          ) : review.decision ? (
            <Decision t={t} review={review} />
          ) : null}
        </div>
      )}
    </ItemScreen>
  );
}

function ReviewFacts({ t, review }: { t: TFunction; review: PendingReviewDetail }) {
  const none = t('pendingReview.none');
  return (
    <section aria-labelledby="pending-review-facts" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="pending-review-facts" className="text-lg font-semibold text-ink">
        {t('pendingReview.reviewTitle')}
      </h2>
      <Facts
        rows={[
          [t('pendingReview.kind'), t(`pendingReviews.kinds.${review.kind}`)],
          [t('pendingReview.status'), <span key="status" data-review-status>{t(`pendingReview.statuses.${review.status}`)}</span>],
          [t('pendingReview.author'), review.authorName],
          [t('pendingReview.phone'), review.authorPhone ?? none],
          [t('pendingReview.rating'), t('pendingReview.stars', { rating: review.rating })],
          [t('pendingReview.text'), <span key="text" data-review-text>{review.text}</span>],
          [t('pendingReview.reply'), review.reply ?? none],
          [t('pendingReview.received'), formatDateTime(review.createdAt)],
          ...(review.removalRequestedAt ? ([[t('pendingReview.removalRequested'), formatDateTime(review.removalRequestedAt)]] as [string, string][]) : []),
        ]}
      />
    </section>
  );
}

function AdvertFacts({ t, review }: { t: TFunction; review: PendingReviewDetail }) {
  const { advert } = review;
  return (
    <section aria-labelledby="pending-review-advert" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="pending-review-advert" className="text-lg font-semibold text-ink">
        {t('pendingReview.advertTitle')}
      </h2>
      <Facts
        rows={[
          [t('pendingReview.advertName'), advert.name],
          [t('pendingReview.advertStatus'), t(`moderation.advertStatus.${advert.status}`, { defaultValue: String(advert.status) })],
          [
            t('pendingReview.publicPage'),
            advert.url ? (
              <a key="url" href={advert.url} target="_blank" rel="noopener" className="text-brand-700 underline">
                {advert.url}
              </a>
            ) : (
              t('pendingReview.notPublic')
            ),
          ],
          [t('pendingReview.otherReviews'), t('pendingReview.otherReviewsCount', review.otherReviews)],
        ]}
      />
    </section>
  );
}

function Decision({ t, review }: { t: TFunction; review: PendingReviewDetail }) {
  return (
    <section aria-labelledby="pending-review-decision" className="rounded-xl border border-emerald-300 bg-emerald-50 p-5" data-decision>
      <h2 id="pending-review-decision" className="text-lg font-semibold text-ink">
        {t('pendingReview.decidedTitle')}
      </h2>
      <Facts
        rows={[
          [t('pendingReview.decision'), review.decision ? t(`pendingReview.decisions.${review.decision}`) : t('pendingReview.none')],
          [t('pendingReview.decisionReason'), review.decisionReason ?? t('pendingReview.none')],
          [t('pendingReview.decidedBy'), review.decidedBy?.name || t('pendingReview.system')],
          [t('pendingReview.decidedAt'), review.decidedAt ? formatDateTime(review.decidedAt) : t('pendingReview.none')],
        ]}
      />
    </section>
  );
}

type FormProps = {
  t: TFunction;
  review: PendingReviewDetail;
  onDecided: (review: PendingReviewDetail) => void;
  onAlreadyDecided: () => void;
};

function DecisionForm({ t, review, onDecided, onAlreadyDecided }: FormProps) {
  const form = useApiForm({
    schema: DecideReviewSchema,
    defaultValues: { Id: review.id, Reason: '' },
    onUnauthorized: goToLogin,
    onValid: async (values: DecideReviewInput) => {
      await sendDecision(form, values, () => supportApi.decideReview(values), { onDecided, onAlreadyDecided });
    },
  });
  const {
    register,
    watch,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const decision = watch('Decision');
  const decisionError = fieldText(t, errors.Decision?.message);
  const reasonError = fieldText(t, errors.Reason?.message);

  return (
    <section aria-labelledby="pending-review-form-title" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="pending-review-form-title" className="text-lg font-semibold text-ink">
        {t('pendingReview.formTitle')}
      </h2>
      <form noValidate onSubmit={form.submit} className="mt-4 space-y-5">
        <FormNotice message={noticeText(t, form.notice) ?? fieldText(t, errors.Id?.message) ?? null} />
        <DecisionRadios
          id="review-decision"
          legend={t('pendingReview.decision')}
          choices={decisionsFor(review.kind)}
          label={(value) => t(`pendingReview.decisions.${value}`)}
          help={(value) => t(`pendingReview.decisionHelp.${value}`)}
          field={register('Decision')}
          error={decisionError}
        />
        <Field
          id="review-reason"
          label={decision === 'reject' ? t('pendingReview.reasonLabel') : `${t('pendingReview.reasonLabel')} (${t('pendingReview.reasonRequired')})`}
          required={decision === 'reject'}
          hint={t('pendingReview.reasonHint')}
          error={reasonError}
        >
          {(c) => <textarea {...c} {...register('Reason')} rows={4} maxLength={1000} className={controlClass(Boolean(errors.Reason), 'py-2')} />}
        </Field>
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? t('pendingReview.deciding') : t('pendingReview.decide')}
        </button>
      </form>
    </section>
  );
}
