/**
 * /support/two-factor/: the signed-in user's own two-step sign-in (TOTP). A session alone changes nothing
 * (issue 15 item 5). Off: the password, then "Turn on" asks the server for a pending secret
 * (twofactorsetup) and shows it as a QR code and as text in groups of four; the code the app then shows
 * confirms it (twofactorconfirm), and the profile is fetched again, so Administration opens at once for a
 * user who has it. On: a current code of the app moves it to a new app (the same setup), or turns it off
 * (twofactordisable), unless the user has Administration, which needs it (`twoFactorRequiredForAdministration`).
 * Each change signs the user out of their other sessions (said on the screen). Forms keep what was typed
 * on a refusal.
 */
import { useEffect, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { supportApi } from '#lib/api/support.ts';
import type { SupportProfile, TwoFactorSetup } from '#lib/api/types.ts';
import { TwoFactorCodeSchema, TwoFactorPasswordSchema } from '#lib/schemas/support-user.ts';
import { toast } from '#lib/stores/toasts.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { fieldText, noticeText, primaryButton, reportFailure, secondaryButton } from '../../shared/form-text.ts';
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
  if (!profile) return null;

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

      <p className="mt-2 max-w-prose text-slate-700">{t('twoFactor.otherSessions')}</p>

      {!setup ? <StartForm t={t} withCode={profile.twoFactorEnabled} onStarted={setSetup} /> : null}

      {setup ? (
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

      {profile.twoFactorEnabled && !setup ? (
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

/**
 * The proof before a new secret is shown: the password while two-step sign-in is off, a current code of
 * the app while it is on (then the form moves it to a new app).
 */
function StartForm({ t, withCode, onStarted }: { t: TFunction; withCode: boolean; onStarted: (setup: TwoFactorSetup) => void }) {
  return withCode ? <StartWithCode t={t} onStarted={onStarted} /> : <StartWithPassword t={t} onStarted={onStarted} />;
}

function StartWithPassword({ t, onStarted }: { t: TFunction; onStarted: (setup: TwoFactorSetup) => void }) {
  const form = useApiForm({
    schema: TwoFactorPasswordSchema,
    defaultValues: { Password: '' },
    onUnauthorized: goToLogin,
    onValid: async (values) => onStarted(await supportApi.twoFactorSetup({ Password: values.Password })),
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form noValidate onSubmit={form.submit} aria-labelledby="two-factor-start-title" className="mt-6 space-y-4 rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="two-factor-start-title" className="text-lg font-semibold text-ink">
        {t('twoFactor.setUp')}
      </h2>
      <p className="text-slate-800">{t('twoFactor.passwordIntro')}</p>
      <FormNotice message={noticeText(t, form.notice)} />
      <Field id="two-factor-password" label={t('twoFactor.password')} error={fieldText(t, errors.Password?.message)}>
        {(control) => (
          <input
            {...control}
            {...form.register('Password')}
            type="password"
            autoComplete="current-password"
            className={controlClass(Boolean(errors.Password), 'h-11 max-w-md')}
          />
        )}
      </Field>
      <button type="submit" className={primaryButton} disabled={isSubmitting}>
        {isSubmitting ? t('twoFactor.settingUp') : t('twoFactor.setUp')}
      </button>
    </form>
  );
}

function StartWithCode({ t, onStarted }: { t: TFunction; onStarted: (setup: TwoFactorSetup) => void }) {
  return (
    <CodeProofForm
      t={t}
      name="two-factor-move"
      texts={{ title: 'twoFactor.moveTitle', intro: 'twoFactor.moveIntro', label: 'twoFactor.currentCode', submit: 'twoFactor.move', busy: 'twoFactor.settingUp' }}
      send={async (code) => onStarted(await supportApi.twoFactorSetup({ Code: code }))}
    />
  );
}

/** The six digits of the authenticator app, the same input on every form of this screen. */
function CodeField({ id, label, error, field }: { id: string; label: string; error: string | undefined; field: UseFormRegisterReturn }) {
  return (
    <Field id={id} label={label} error={error}>
      {(control) => (
        <input
          {...control}
          {...field}
          type="text"
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={6}
          className={controlClass(Boolean(error), 'h-11 max-w-40 tracking-widest')}
        />
      )}
    </Field>
  );
}

type CodeProofTexts = { title: string; intro: string; label: string; submit: string; busy: string };

/** A titled form that proves the change with a current code of the app (moving it, turning it off). */
function CodeProofForm({ t, name, texts, send }: { t: TFunction; name: string; texts: CodeProofTexts; send: (code: string) => Promise<void> }) {
  const form = useApiForm({
    schema: TwoFactorCodeSchema,
    defaultValues: { Code: '' },
    onUnauthorized: goToLogin,
    onValid: async (values) => {
      await send(values.Code);
      form.reset({ Code: '' });
    },
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form noValidate onSubmit={form.submit} aria-labelledby={`${name}-title`} className="mt-6 space-y-4 rounded-xl border border-slate-200 bg-white p-5">
      <h2 id={`${name}-title`} className="text-lg font-semibold text-ink">
        {t(texts.title)}
      </h2>
      <p className="text-slate-800">{t(texts.intro)}</p>
      <FormNotice message={noticeText(t, form.notice)} />
      <CodeField id={`${name}-code`} label={t(texts.label)} error={fieldText(t, errors.Code?.message)} field={form.register('Code')} />
      <button type="submit" className={primaryButton} disabled={isSubmitting}>
        {isSubmitting ? t(texts.busy) : t(texts.submit)}
      </button>
    </form>
  );
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
        <CodeField id="two-factor-code" label={t('twoFactor.code')} error={fieldText(t, errors.Code?.message)} field={form.register('Code')} />
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
  return (
    <CodeProofForm
      t={t}
      name="two-factor-off"
      texts={{ title: 'twoFactor.offTitle', intro: 'twoFactor.offIntro', label: 'twoFactor.code', submit: 'twoFactor.turnOff', busy: 'twoFactor.turningOff' }}
      send={async (code) => {
        await supportApi.twoFactorDisable(code);
        await onDone();
      }}
    />
  );
}
