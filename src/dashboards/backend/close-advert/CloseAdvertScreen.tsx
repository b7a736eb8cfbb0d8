/**
 * /backend/close-advert/: (a) put the advert on holiday until a date, and back; (b) close the advert
 * (status 5) after a confirmation, and reactivate it (status 1); (c) change the password; (d) delete the
 * account with the password after a confirmation (restorable for 30 days), then the front page, signed out;
 * (e) download everything kept about the account as a JSON file (GDPR art. 15 and 20), before deleting it.
 */
import { useCallback, useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import type * as v from 'valibot';
import type { TFunction } from 'i18next';
import { DeleteUserSchema, SetProfileHolidaySchema } from '#lib/schemas/advert-edit.ts';
import { UpdatePasswordSchema, type UpdatePasswordInput } from '#lib/schemas/account.ts';
import { HttpError, isApiError } from '#lib/api/errors.ts';
import { formatDate } from '#lib/format.ts';
import { $locale } from '#lib/stores/locale.ts';
import { toast } from '#lib/stores/toasts.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { DayInput } from '../../../components/form/DayInput.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { useUnsavedChanges } from '../../shared/unsaved-changes.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import type { BackendScreenProps } from '../screen-props.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import { failureKey, fieldText, noticeText, reportFailure } from '../../shared/form-text.ts';
import { dashboardApi, type Dashboard } from '../dashboard/api.ts';
import { ACTIVE, DEACTIVATED, closeAdvertApi } from './api.ts';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';

const buttonClass = 'min-h-11 rounded-lg bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800 disabled:opacity-60';
const cardClass = 'rounded-xl border border-slate-200 bg-white p-5';

export default function CloseAdvertScreen({ reloadProfile }: BackendScreenProps) {
  const t = useAppT(backendI18n);
  const { state, reload } = useScreenData(dashboardApi.dashboard);
  const changed = useCallback(() => {
    reload();
    reloadProfile();
  }, [reload, reloadProfile]);

  return (
    <div className="max-w-3xl">
      <ScreenShell id="close-advert-screen-heading" title={t('screens.closeAdvert')} state={state} loadError={t('closeAdvert.loadError')} onRetry={reload}>
        {(dashboard) => (
          <div className="mt-6 space-y-8">
            <Holiday dashboard={dashboard} t={t} onChanged={changed} />
            <CloseOrReactivate dashboard={dashboard} t={t} onChanged={changed} />
            <ChangePassword t={t} />
            <DownloadData t={t} />
            <DeleteAccount t={t} />
          </div>
        )}
      </ScreenShell>
    </div>
  );
}

function failureText(t: TFunction, error: unknown): string {
  if (error instanceof HttpError && error.status === 409) return t('closeAdvert.conflict');
  return noticeText(t, failureKey(error)) ?? '';
}

function Holiday({ dashboard, t, onChanged }: { dashboard: Dashboard; t: TFunction; onChanged: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useApiForm<v.InferInput<typeof SetProfileHolidaySchema>, v.InferOutput<typeof SetProfileHolidaySchema>>({
    schema: SetProfileHolidaySchema,
    defaultValues: { Until: '' },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      const answer = await closeAdvertApi.setHoliday(values.Until);
      form.reset({ Until: '' });
      toast({ title: t('closeAdvert.holidaySet', { date: answer.holidayUntil ? formatDate(answer.holidayUntil) : '' }), variant: 'success' });
      onChanged();
    },
  });
  const {
    register,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));

  async function endHoliday() {
    setError(null);
    setBusy(true);
    try {
      await closeAdvertApi.resetHoliday();
      toast({ title: t('closeAdvert.holidayEnded'), variant: 'success' });
      onChanged();
    } catch (failure) {
      if (isApiError(failure, 401)) return goToLogin();
      setError(failureText(t, failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="holiday-title" className={cardClass}>
      <h2 id="holiday-title" className="text-lg font-semibold text-ink">
        {t('closeAdvert.holidayTitle')}
      </h2>
      <p className="mt-2 text-slate-800">{t('closeAdvert.holidayExplain')}</p>
      {dashboard.holidayUntil ? (
        <div className="mt-4 space-y-3">
          <p className="font-semibold text-ink" data-holiday-until>
            {t('closeAdvert.onHolidayUntil', { date: formatDate(dashboard.holidayUntil) })}
          </p>
          <FormNotice message={error} />
          <button type="button" className={buttonClass} disabled={busy} onClick={() => void endHoliday()}>
            {t('closeAdvert.endHoliday')}
          </button>
        </div>
      ) : dashboard.profileStatus === ACTIVE ? (
        <form onSubmit={form.submit} noValidate className="mt-4 space-y-4">
          <FormNotice message={noticeText(t, form.notice)} />
          <Field id="holiday-until" label={t('closeAdvert.holidayUntil')} required error={fieldText(t, errors.Until?.message)}>
            {(c) => <DayInput {...c} {...register('Until')} placeholder={t('dayField.placeholder')} className={controlClass(!!errors.Until, 'h-11 max-w-xs')} />}
          </Field>
          <button type="submit" className={buttonClass} disabled={isSubmitting}>
            {t('closeAdvert.setHoliday')}
          </button>
        </form>
      ) : (
        <p className="mt-4 text-slate-700">{t('closeAdvert.holidayOnlyActive')}</p>
      )}
    </section>
  );
}

function CloseOrReactivate({ dashboard, t, onChanged }: { dashboard: Dashboard; t: TFunction; onChanged: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const status = dashboard.profileStatus;

  async function change(to: typeof ACTIVE | typeof DEACTIVATED) {
    setConfirming(false);
    setError(null);
    setBusy(true);
    try {
      await closeAdvertApi.changeStatus(to);
      toast({ title: t(to === DEACTIVATED ? 'closeAdvert.closed' : 'closeAdvert.reactivated'), variant: 'success' });
      onChanged();
    } catch (failure) {
      if (isApiError(failure, 401)) return goToLogin();
      setError(failureText(t, failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="close-title" className={cardClass}>
      <h2 id="close-title" className="text-lg font-semibold text-ink">
        {t('closeAdvert.closeTitle')}
      </h2>
      <FormNotice message={error} />
      {status === ACTIVE ? (
        <>
          <p className="mt-2 text-slate-800">{t('closeAdvert.closeExplain')}</p>
          <button type="button" className={`mt-4 ${buttonClass}`} disabled={busy} onClick={() => setConfirming(true)}>
            {t('closeAdvert.close')}
          </button>
          <ConfirmDialog
            open={confirming}
            title={t('closeAdvert.closeConfirmTitle')}
            body={t('closeAdvert.closeConfirmBody')}
            confirmLabel={t('closeAdvert.closeConfirm')}
            cancelLabel={t('form.cancel')}
            onConfirm={() => void change(DEACTIVATED)}
            onCancel={() => setConfirming(false)}
          />
        </>
      ) : status === DEACTIVATED ? (
        <>
          <p className="mt-2 font-semibold text-ink">{t('closeAdvert.isClosed')}</p>
          <p className="mt-1 text-slate-800">{t('closeAdvert.reactivateExplain')}</p>
          <button type="button" className={`mt-4 ${buttonClass}`} disabled={busy} onClick={() => void change(ACTIVE)}>
            {t('closeAdvert.reactivate')}
          </button>
        </>
      ) : (
        <p className="mt-2 text-slate-700">{t('closeAdvert.closeNotPossible')}</p>
      )}
    </section>
  );
}

function ChangePassword({ t }: { t: TFunction }) {
  const form = useApiForm<v.InferInput<typeof UpdatePasswordSchema>, UpdatePasswordInput>({
    schema: UpdatePasswordSchema,
    defaultValues: { Password: '', NewPassword: '' },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      await closeAdvertApi.updatePassword(values.Password, values.NewPassword);
      form.reset({ Password: '', NewPassword: '' });
      toast({ title: t('closeAdvert.passwordChanged'), variant: 'success' });
    },
  });
  const {
    register,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty, t('form.unsaved'));

  return (
    <section aria-labelledby="password-title" className={cardClass}>
      <h2 id="password-title" className="text-lg font-semibold text-ink">
        {t('closeAdvert.passwordTitle')}
      </h2>
      <p className="mt-2 text-slate-800">{t('closeAdvert.passwordExplain')}</p>
      <form onSubmit={form.submit} noValidate className="mt-4 space-y-4">
        <FormNotice message={noticeText(t, form.notice)} />
        <Field id="password-current" label={t('closeAdvert.currentPassword')} required error={fieldText(t, errors.Password?.message)}>
          {(c) => <input {...c} {...register('Password')} type="password" autoComplete="current-password" className={controlClass(!!errors.Password, 'h-11 max-w-sm')} />}
        </Field>
        <Field
          id="password-new"
          label={t('closeAdvert.newPassword')}
          required
          hint={t('closeAdvert.newPasswordHint')}
          error={fieldText(t, errors.NewPassword?.message)}
        >
          {(c) => <input {...c} {...register('NewPassword')} type="password" autoComplete="new-password" className={controlClass(!!errors.NewPassword, 'h-11 max-w-sm')} />}
        </Field>
        <button type="submit" className={buttonClass} disabled={isSubmitting}>
          {t('closeAdvert.changePassword')}
        </button>
      </form>
    </section>
  );
}

function DownloadData({ t }: { t: TFunction }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const { blob, fileName } = await closeAdvertApi.downloadData();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast({ title: t('closeAdvert.dataDownloaded'), variant: 'success' });
    } catch (failure) {
      reportFailure(t, failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="data-title" className={cardClass}>
      <h2 id="data-title" className="text-lg font-semibold text-ink">
        {t('closeAdvert.dataTitle')}
      </h2>
      <p className="mt-2 text-slate-800">{t('closeAdvert.dataExplain')}</p>
      <button type="button" className={`mt-4 ${buttonClass}`} disabled={busy} onClick={() => void download()} data-testid="download-data">
        {t('closeAdvert.dataDownload')}
      </button>
    </section>
  );
}

function DeleteAccount({ t }: { t: TFunction }) {
  const locale = useStore($locale);
  const [confirming, setConfirming] = useState(false);
  const [deleted, setDeleted] = useState(false);
  const form = useApiForm<v.InferInput<typeof DeleteUserSchema>, v.InferOutput<typeof DeleteUserSchema>>({
    schema: DeleteUserSchema,
    defaultValues: { Password: '' },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      await closeAdvertApi.deleteUser(values.Password);
      // Clear the unsaved mark first (the page is left once the form is clean; see the effect below).
      form.reset({ Password: '' });
      setDeleted(true);
    },
  });
  const {
    register,
    formState: { errors, isDirty, isSubmitting },
  } = form;
  useUnsavedChanges(isDirty && !deleted, t('form.unsaved'));

  useEffect(() => {
    if (deleted) location.assign(locale === 'en' ? '/en/' : '/');
  }, [deleted, locale]);

  return (
    <section aria-labelledby="delete-title" className={cardClass}>
      <h2 id="delete-title" className="text-lg font-semibold text-ink">
        {t('closeAdvert.deleteTitle')}
      </h2>
      <p className="mt-2 text-slate-800">{t('closeAdvert.deleteExplain')}</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setConfirming(true);
        }}
        noValidate
        className="mt-4 space-y-4"
      >
        <FormNotice message={noticeText(t, form.notice)} />
        {deleted ? (
          <p role="status" className="text-slate-800">
            {t('closeAdvert.deleted')}
          </p>
        ) : null}
        <Field id="delete-password" label={t('closeAdvert.deletePassword')} required error={fieldText(t, errors.Password?.message)}>
          {(c) => <input {...c} {...register('Password')} type="password" autoComplete="current-password" className={controlClass(!!errors.Password, 'h-11 max-w-sm')} />}
        </Field>
        <button type="submit" className="min-h-11 rounded-lg bg-red-700 px-5 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-60" disabled={isSubmitting || deleted}>
          {t('closeAdvert.delete')}
        </button>
      </form>
      <ConfirmDialog
        open={confirming}
        title={t('closeAdvert.deleteConfirmTitle')}
        body={t('closeAdvert.deleteConfirmBody')}
        confirmLabel={t('closeAdvert.deleteConfirm')}
        cancelLabel={t('form.cancel')}
        onConfirm={() => {
          setConfirming(false);
          void form.submit();
        }}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
