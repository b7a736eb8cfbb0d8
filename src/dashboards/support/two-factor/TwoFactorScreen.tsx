/**
 * /support/two-factor/: the signed-in user's own two-step sign-in (TOTP). Off: "Turn on" asks the server
 * for a pending secret (twofactorsetup) and shows it as a QR code and as text in groups of four; the code
 * the app then shows confirms it (twofactorconfirm), and the profile is fetched again, so Administration
 * opens at once for a user who has it. On: a code turns it off (twofactordisable), unless the user has
 * Administration, which needs it (the server refuses with `twoFactorRequiredForAdministration`).
 */
import { useEffect, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { supportApi } from '#lib/api/support.ts';
import { isApiError } from '#lib/api/errors.ts';
import type { SupportProfile, TwoFactorSetup } from '#lib/api/types.ts';
import { TwoFactorCodeSchema } from '#lib/schemas/support-user.ts';
import { toast } from '#lib/stores/toasts.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { failureKey, fieldText, noticeText, primaryButton, reportFailure, secondaryButton } from '../../shared/form-text.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { reloadSupportProfile } from '../session.ts';

/** A base32 secret in groups of four, as people type it. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

export default function TwoFactorScreen({ profile }: SupportScreenProps) {
  const t = useAppT(supportI18n);
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  if (!profile) return null;

  async function start() {
    setStarting(true);
    setStartError(null);
    try {
      setSetup(await supportApi.twoFactorSetup());
    } catch (error) {
      if (isApiError(error, 401)) return goToLogin();
      console.warn('Two-step setup failed', error);
      const key = failureKey(error);
      setStartError(key.startsWith('errors.') ? noticeText(t, key) : t('twoFactor.setupFailed'));
    } finally {
      setStarting(false);
    }
  }

  const hasAdministration = profile.permissions.includes('Administration');

  return (
    <section aria-labelledby="two-factor-heading" className="max-w-2xl">
      <h1 id="two-factor-heading" className="text-2xl font-bold tracking-tight text-ink">
        {t('screens.twoFactor')}
      </h1>
      <p className="mt-2 max-w-prose text-slate-700">{t('twoFactor.intro')}</p>
      <p className="mt-4 font-semibold text-ink" data-two-factor-status>
        {profile.twoFactorEnabled ? t('twoFactor.statusOn') : t('twoFactor.statusOff')}
      </p>
      {profile.twoFactorRequired ? (
        <p className="mt-2 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">{t('twoFactor.required')}</p>
      ) : null}

      {!profile.twoFactorEnabled && !setup ? (
        <div className="mt-6 space-y-3">
          <FormNotice message={startError} />
          <button type="button" className={primaryButton} disabled={starting} onClick={() => void start()}>
            {starting ? t('twoFactor.settingUp') : t('twoFactor.setUp')}
          </button>
        </div>
      ) : null}

      {!profile.twoFactorEnabled && setup ? (
        <SetupForm
          t={t}
          setup={setup}
          onCancel={() => setSetup(null)}
          onDone={async () => {
            await reloadAfterChange(t);
            setSetup(null);
            toast({ title: t('twoFactor.enabled'), variant: 'success' });
          }}
        />
      ) : null}

      {profile.twoFactorEnabled ? (
        hasAdministration ? (
          <p className="mt-6 text-slate-700">{fieldText(t, 'twoFactorRequiredForAdministration')}</p>
        ) : (
          <DisableForm
            t={t}
            onDone={async () => {
              toast({ title: t('twoFactor.disabled'), variant: 'success' });
              await reloadAfterChange(t);
            }}
          />
        )
      ) : null}
    </section>
  );
}

async function reloadAfterChange(t: TFunction): Promise<SupportProfile | null> {
  try {
    return await reloadSupportProfile();
  } catch (error) {
    reportFailure(t, error);
    return null;
  }
}

function SetupForm({ t, setup, onCancel, onDone }: { t: TFunction; setup: TwoFactorSetup; onCancel: () => void; onDone: () => Promise<void> }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const form = useApiForm({
    schema: TwoFactorCodeSchema,
    defaultValues: { Code: '' },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      await supportApi.twoFactorConfirm(values.Code);
      await onDone();
    },
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <div className="mt-6 rounded-xl border border-slate-200 bg-white p-5">
      <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-ink focus:outline-none">
        {t('twoFactor.setupTitle')}
      </h2>
      <p className="mt-3 text-slate-800">{t('twoFactor.scan')}</p>
      <img
        src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qrSvg)}`}
        alt={t('twoFactor.qrAlt')}
        width={200}
        height={200}
        className="mt-3 h-[200px] w-[200px] border border-slate-200 bg-white"
      />
      <p className="mt-4 text-slate-800">{t('twoFactor.manual')}</p>
      <p className="mt-1">
        <code className="rounded bg-slate-100 px-2 py-1 font-mono text-base tracking-wider text-ink" data-two-factor-secret>
          {groupSecret(setup.secret)}
        </code>
      </p>
      <form noValidate onSubmit={form.submit} className="mt-5 space-y-4">
        <p className="text-slate-800">{t('twoFactor.enterCode')}</p>
        <FormNotice message={noticeText(t, form.notice)} />
        <Field id="two-factor-code" label={t('twoFactor.code')} error={fieldText(t, errors.Code?.message)}>
          {(control) => (
            <input
              {...control}
              {...form.register('Code')}
              type="text"
              autoComplete="one-time-code"
              inputMode="numeric"
              pattern="[0-9]*"
              maxLength={6}
              className={controlClass(Boolean(errors.Code), 'h-11 max-w-40 tracking-widest')}
            />
          )}
        </Field>
        <div className="flex flex-wrap gap-3">
          <button type="submit" className={primaryButton} disabled={isSubmitting}>
            {isSubmitting ? t('twoFactor.confirming') : t('twoFactor.confirm')}
          </button>
          <button type="button" className={secondaryButton} onClick={onCancel}>
            {t('twoFactor.cancel')}
          </button>
        </div>
      </form>
    </div>
  );
}

function DisableForm({ t, onDone }: { t: TFunction; onDone: () => Promise<void> }) {
  const form = useApiForm({
    schema: TwoFactorCodeSchema,
    defaultValues: { Code: '' },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      await supportApi.twoFactorDisable(values.Code);
      form.reset({ Code: '' });
      await onDone();
    },
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form noValidate onSubmit={form.submit} aria-labelledby="two-factor-off-title" className="mt-6 space-y-4 rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="two-factor-off-title" className="text-lg font-semibold text-ink">
        {t('twoFactor.offTitle')}
      </h2>
      <p className="text-slate-800">{t('twoFactor.offIntro')}</p>
      <FormNotice message={noticeText(t, form.notice)} />
      <Field id="two-factor-off-code" label={t('twoFactor.code')} error={fieldText(t, errors.Code?.message)}>
        {(control) => (
          <input
            {...control}
            {...form.register('Code')}
            type="text"
            autoComplete="one-time-code"
            inputMode="numeric"
            pattern="[0-9]*"
            maxLength={6}
            className={controlClass(Boolean(errors.Code), 'h-11 max-w-40 tracking-widest')}
          />
        )}
      </Field>
      <button type="submit" className={primaryButton} disabled={isSubmitting}>
        {isSubmitting ? t('twoFactor.turningOff') : t('twoFactor.turnOff')}
      </button>
    </form>
  );
}
