/**
 * The overview of adverts/{id}/: the advert as the advertiser filled it in (names of places and choices),
 * its account, verification and counts, and the status: the lock (reason, rule, who, when) and the form that
 * changes the status with a reason (POST profilestatus). Locking names a rule of the terms, asks first, and
 * sends the advertiser a statement of reasons; unlocking goes back to Active or to New.
 */
import { useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { supportAdvertsApi } from '#lib/api/support-adverts.ts';
import { formatDateTime } from '#lib/format.ts';
import { AdvertStatusChangeSchema, type AdvertProfile, type AdvertStatusChangeInput, type BilingualName } from '#lib/schemas/support-adverts.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { fieldText, noticeText, primaryButton } from '../../shared/form-text.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { supportPath, supportRouter } from '../routes.ts';
import { Facts } from '../item-screen.tsx';
import { ReasonField, RuleSelect } from '../decision-fields.tsx';
import { advertHref } from './advert-sections.tsx';
import { ImpersonateButton } from './ImpersonateButton.tsx';

const LOCKED = 2;

/** The statuses support may move an advert to from its status (the status table's support rows used here). */
export function statusTargets(status: number): number[] {
  switch (status) {
    case 0:
      return [2];
    case 1:
      return [2];
    case 2:
      return [1, 0];
    case 5:
      return [2];
    default:
      return [];
  }
}

type Props = { t: TFunction; advert: AdvertProfile; onChanged: (advert: AdvertProfile) => void };

export function OverviewSection({ t, advert, onChanged }: Props) {
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <div className="space-y-8">
      <StatusPanel t={t} advert={advert} />
      {saved ? (
        <p role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-emerald-900">
          {saved}
        </p>
      ) : null}
      {statusTargets(advert.status).length > 0 ? (
        <StatusForm
          key={`${advert.status}`}
          t={t}
          advert={advert}
          onChanged={(changed) => {
            setSaved(t('advert.status.saved', { status: t(`moderation.advertStatus.${changed.status}`) }));
            onChanged(changed);
          }}
        />
      ) : null}
      <AdvertFacts t={t} advert={advert} />
      <AccountFacts t={t} advert={advert} />
    </div>
  );
}

const section = 'rounded-xl border border-slate-200 bg-white p-5';
const heading = 'text-lg font-semibold text-ink';
const names = (t: TFunction, list: BilingualName[]) => (list.length === 0 ? t('advert.none') : list.map((name) => (t('advert.lang') === 'en' ? name.en : name.da)).join(', '));
const name = (t: TFunction, value: BilingualName | null) => (value ? (t('advert.lang') === 'en' ? value.en : value.da) : t('advert.none'));
const date = (t: TFunction, value: string | null) => (value ? formatDateTime(value) : t('advert.none'));
const yesNo = (t: TFunction, value: boolean) => (value ? t('form.yes') : t('form.no'));

function StatusPanel({ t, advert }: { t: TFunction; advert: AdvertProfile }) {
  const { lock } = advert;
  return (
    <section aria-labelledby="advert-status-title" className={`rounded-xl border p-5 ${lock ? 'border-red-300 bg-red-50' : 'border-slate-200 bg-white'}`} data-lock={lock ? 'locked' : undefined}>
      <h2 id="advert-status-title" className={heading}>
        {t('advert.status.title')}
      </h2>
      <Facts
        rows={[
          [t('advert.status.current'), t(`moderation.advertStatus.${advert.status}`, { defaultValue: String(advert.status) })],
          ...(lock
            ? ([
                [t('advert.status.lockReason'), lock.reason],
                [t('advert.status.lockRule'), lock.rule ? t(`moderation.rules.${lock.rule}`) : t('advert.none')],
                [t('advert.status.lockedBy'), lock.lockedBy ?? t('advert.history.actors.system')],
                [t('advert.status.lockedAt'), formatDateTime(lock.lockedAt)],
                [t('advert.status.appealed'), yesNo(t, lock.appealed)],
              ] as [string, string][])
            : []),
          [
            t('advert.status.publicPage'),
            advert.publicUrl ? (
              <a key="url" href={advert.publicUrl} target="_blank" rel="noopener" className="text-brand-700 underline">
                {advert.publicUrl}
              </a>
            ) : (
              t('advert.status.notPublic')
            ),
          ],
          [t('advert.status.approvedAt'), date(t, advert.approvedAt)],
          [t('advert.status.expirationDate'), date(t, advert.expirationDate)],
          [t('advert.status.holidayUntil'), date(t, advert.holidayUntil)],
          [t('advert.status.pendingChanges'), advert.hasPendingChanges ? (
            <AppLink key="review" router={supportRouter} href={`${supportPath('reviewAdverts')}${advert.id}/`} className="text-brand-700 underline">
              {t('advert.status.openReview')}
            </AppLink>
          ) : t('form.no')],
        ]}
      />
    </section>
  );
}

function StatusForm({ t, advert, onChanged }: Props) {
  const targets = statusTargets(advert.status);
  const [confirming, setConfirming] = useState(false);
  const confirmed = useRef(false);
  const form = useApiForm({
    schema: AdvertStatusChangeSchema,
    defaultValues: { Id: advert.id, Status: targets[0]!, Reason: '', Rule: '' },
    onUnauthorized: goToLogin,
    onValid: async (values: AdvertStatusChangeInput) => {
      if (values.Status === LOCKED && !confirmed.current) {
        setConfirming(true);
        return;
      }
      confirmed.current = false;
      const changed = await supportAdvertsApi.changeStatus(values);
      form.reset({ Id: changed.id, Status: statusTargets(changed.status)[0] ?? 0, Reason: '', Rule: '' });
      onChanged(changed);
    },
  });
  const {
    register,
    watch,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));
  const locking = Number(watch('Status')) === LOCKED;
  const rule = watch('Rule');
  const ruleMissing = locking && !rule && form.notice === 'validation.requiredFields' ? 'required' : undefined;
  const ruleError = fieldText(t, errors.Rule?.message ?? ruleMissing);
  const statusError = fieldText(t, errors.Status?.message);
  return (
    <section aria-labelledby="advert-status-form" className={section}>
      <h2 id="advert-status-form" className={heading}>
        {advert.status === LOCKED ? t('advert.status.unlockTitle') : t('advert.status.formTitle')}
      </h2>
      <form noValidate onSubmit={form.submit} className="mt-4 space-y-5">
        <FormNotice message={noticeText(t, form.notice) ?? fieldText(t, errors.Id?.message) ?? null} />
        <Field id="advert-status" label={t('advert.status.newStatus')} required error={statusError}>
          {(c) => (
            <select {...c} {...register('Status')} className={controlClass(Boolean(statusError), 'h-11')}>
              {targets.map((status) => (
                <option key={status} value={status}>
                  {t(`advert.status.to.${status}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {locking ? (
          <RuleSelect t={t} id="advert-rule" label={t('advert.status.rule')} chooseLabel={t('advert.status.chooseRule')} required field={register('Rule')} error={ruleError} />
        ) : null}
        <ReasonField
          id="advert-reason"
          label={t('advert.status.reason')}
          hint={locking ? t('advert.status.reasonHintLock') : t('advert.status.reasonHint')}
          rows={4}
          field={register('Reason')}
          error={fieldText(t, errors.Reason?.message)}
        />
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className={primaryButton} disabled={isSubmitting}>
            {isSubmitting ? t('advert.status.saving') : t('advert.status.submit')}
          </button>
          <ImpersonateButton advertId={advert.id} />
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        title={t('advert.status.confirmTitle')}
        body={t('advert.status.confirmBody', { name: advert.name })}
        confirmLabel={t('advert.status.confirmLock')}
        cancelLabel={t('form.cancel')}
        onConfirm={() => {
          setConfirming(false);
          confirmed.current = true;
          void form.submit();
        }}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}

function AdvertFacts({ t, advert }: { t: TFunction; advert: AdvertProfile }) {
  const f = advert.fields;
  const none = t('advert.none');
  return (
    <section aria-labelledby="advert-fields-title" className={section}>
      <h2 id="advert-fields-title" className={heading}>
        {t('advert.fields.title')}
      </h2>
      <Facts
        rows={[
          [t('advert.fields.id'), String(advert.id)],
          [t('advert.fields.name'), advert.name],
          [t('advert.fields.kind'), t(`adverts.kind.${advert.kind}`)],
          [t('advert.fields.heading'), f.title || none],
          [t('advert.fields.introduction'), f.introduction || none],
          [t('advert.fields.description'), f.description || none],
          ...(f.titleEn || f.introductionEn || f.descriptionEn
            ? ([
                [t('advert.fields.headingEn'), f.titleEn || none],
                [t('advert.fields.introductionEn'), f.introductionEn || none],
                [t('advert.fields.descriptionEn'), f.descriptionEn || none],
              ] as [string, string][])
            : []),
          [t('advert.fields.phone'), f.phone ? `${f.phone}${f.hasWhatsapp ? ` (${t('advert.fields.whatsapp')})` : ''}` : none],
          [t('advert.fields.website'), f.website || none],
          [t('advert.fields.region'), name(t, f.region)],
          [t('advert.fields.city'), f.city ?? none],
          [t('advert.fields.age'), f.age === null ? none : String(f.age)],
          [t('advert.fields.height'), f.height === null ? none : `${f.height} cm`],
          [t('advert.fields.weight'), f.weight === null ? none : `${f.weight} kg`],
          [t('advert.fields.breastType'), f.breastType === null ? none : t(`advert.fields.breast.${f.breastType}`, { defaultValue: none })],
          [t('advert.fields.nationality'), name(t, f.nationality)],
          [t('advert.fields.meeting'), [f.incall ? t('advert.fields.incall') : null, f.outcall ? t('advert.fields.outcall') : null].filter(Boolean).join(', ') || none],
          [t('advert.fields.payment'), f.paymentOptions.length === 0 ? none : f.paymentOptions.map((option) => t(`advert.fields.paymentOptions.${option}`, { defaultValue: option })).join(', ')],
          [t('advert.fields.languages'), names(t, f.languages)],
          [t('advert.fields.services'), names(t, f.services)],
          [t('advert.fields.created'), formatDateTime(advert.createdAt)],
          [t('advert.fields.updated'), formatDateTime(advert.updatedAt)],
          [t('advert.fields.deleted'), date(t, advert.deletedAt)],
        ]}
      />
    </section>
  );
}

function AccountFacts({ t, advert }: { t: TFunction; advert: AdvertProfile }) {
  const { account, verification, counts } = advert;
  const latest = verification.latest;
  return (
    <section aria-labelledby="advert-account-title" className={section}>
      <h2 id="advert-account-title" className={heading}>
        {t('advert.account.title')}
      </h2>
      <Facts
        rows={[
          [t('advert.account.email'), `${account.email} (${account.emailVerified ? t('advert.account.verified') : t('advert.account.notVerified')})`],
          [t('advert.account.phone'), account.phone ? `${account.phone} (${account.phoneVerified ? t('advert.account.verified') : t('advert.account.notVerified')})` : t('advert.none')],
          [t('advert.account.locale'), t(`advert.account.locales.${account.locale}`, { defaultValue: account.locale })],
          [t('advert.account.created'), formatDateTime(account.createdAt)],
          [t('advert.account.lastLogin'), date(t, account.lastLoginAt)],
          [t('advert.account.lockedUntil'), date(t, account.lockedUntil)],
          [t('advert.account.deleted'), date(t, account.deletedAt)],
          [t('advert.account.validation'), t(`advert.account.validationStatus.${verification.validationStatus}`, { defaultValue: String(verification.validationStatus) })],
          [t('advert.account.ageVerifiedAt'), date(t, verification.ageVerifiedAt)],
          [
            t('advert.account.latestVerification'),
            latest ? (
              <AppLink key="verification" router={supportRouter} href={`${supportPath('validation')}${latest.id}/`} className="text-brand-700 underline">
                {t('advert.account.verificationLink', { id: latest.id, date: formatDateTime(latest.createdAt) })}
              </AppLink>
            ) : (
              t('advert.none')
            ),
          ],
          [t('advert.account.media'), t('advert.account.mediaCounts', { pictures: counts.pictures, videos: counts.videos, deleted: counts.deletedMedia })],
          [
            t('advert.account.reviews'),
            <AppLink key="reviews" router={supportRouter} href={advertHref(advert.id, 'reviews')} className="text-brand-700 underline">
              {t('advert.account.reviewCounts', { count: counts.reviews, pending: counts.pendingReviews })}
            </AppLink>,
          ],
          [
            t('advert.account.reports'),
            <AppLink key="reports" router={supportRouter} href={advertHref(advert.id, 'reports')} className="text-brand-700 underline">
              {t('advert.account.reportCounts', { count: counts.reports, open: counts.openReports })}
            </AppLink>,
          ],
          [t('advert.account.messages'), t('advert.account.messageCounts', { count: counts.messages, unread: counts.unreadMessages })],
        ]}
      />
    </section>
  );
}
