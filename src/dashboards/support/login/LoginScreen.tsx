/**
 * /support/login/: email and password (useApiForm + SupportSignInSchema), POST /api/support/login; then
 * redirectTo (when it is a support page) or the user's landing page. A user with two-step sign-in gets a
 * 401 with field `code` (`codeRequired`): the form then shows the code field, keeps email and password,
 * and sends again with the code; a wrong or used code (`codeWrong`) shows at that field. A wrong email or
 * password and the lock after too many failed attempts (429 `accountLocked`) show above the form.
 */
import { useEffect, useState } from 'react';
import { supportApi } from '#lib/api/support.ts';
import { fieldErrorsOf, statusOf } from '#lib/api/errors.ts';
import type { SupportProfile } from '#lib/api/types.ts';
import { SupportSignInSchema, type SupportSignInInput } from '#lib/schemas/support-user.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { fieldText, noticeText } from '../../shared/form-text.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { afterLogin } from '../permissions.ts';
import { supportPath, supportRouter } from '../routes.ts';
import type { SupportScreenProps } from '../screen-props.ts';
import { $supportProfile } from '../session.ts';

export default function LoginScreen({ profile, search }: SupportScreenProps) {
  const t = useAppT(supportI18n);
  const [needsCode, setNeedsCode] = useState(false);
  const noPermission = search['noPermission'] === '1' || profile !== null;
  const changed = search['changed'] === '1';

  const form = useApiForm({
    schema: SupportSignInSchema,
    defaultValues: { email: '', password: '', code: '' },
    onValid: async (values: SupportSignInInput) => {
      const code = values.code?.trim();
      let signedIn: SupportProfile;
      try {
        signedIn = await supportApi.login({ email: values.email, password: values.password, ...(code ? { code } : {}) });
      } catch (error) {
        const status = statusOf(error);
        const reasons = fieldErrorsOf(error);
        if (status === 401) {
          const codeReason = reasons.find((r) => r.field.toLowerCase() === 'code');
          if (codeReason) {
            if (codeReason.message === 'codeRequired' && !needsCode) setNeedsCode(true);
            else form.setError('code', { type: 'server', message: codeReason.message });
            return;
          }
          form.setNotice('wrongCredentials');
          return;
        }
        if (status === 429) {
          form.setNotice(reasons[0]?.message ?? 'tooSoon');
          return;
        }
        throw error;
      }
      $supportProfile.set(signedIn);
      const target = afterLogin(search['redirectTo'], signedIn.permissions, signedIn.twoFactorRequired);
      if (target) supportRouter.open(target, true);
    },
  });
  const {
    register,
    setFocus,
    formState: { errors, isSubmitting },
  } = form;

  useEffect(() => {
    if (needsCode) setFocus('code');
  }, [needsCode, setFocus]);

  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight text-ink">{t('login.title')}</h1>
      {noPermission ? (
        <p role="alert" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          {t('app.noPermission')}
        </p>
      ) : null}
      {changed ? (
        <p role="status" className="mt-4 rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
          {t('login.changed')}
        </p>
      ) : null}
      {/* method="post": a submit before hydration must never put the password in the URL. */}
      <form method="post" noValidate onSubmit={form.submit} className="mt-6 space-y-5">
        <FormNotice message={noticeText(t, form.notice)} />
        <Field id="support-login-email" label={t('login.email')} error={fieldText(t, errors.email?.message)}>
          {(control) => (
            <input {...control} type="email" autoComplete="username" inputMode="email" className={controlClass(Boolean(errors.email), 'h-11')} {...register('email')} />
          )}
        </Field>
        <Field id="support-login-password" label={t('login.password')} error={fieldText(t, errors.password?.message)}>
          {(control) => (
            <input {...control} type="password" autoComplete="current-password" className={controlClass(Boolean(errors.password), 'h-11')} {...register('password')} />
          )}
        </Field>
        {needsCode ? (
          <Field id="support-login-code" label={t('login.code')} hint={t('login.codeHint')} error={fieldText(t, errors.code?.message)}>
            {(control) => (
              <input
                {...control}
                type="text"
                autoComplete="one-time-code"
                inputMode="numeric"
                pattern="[0-9]*"
                maxLength={6}
                className={controlClass(Boolean(errors.code), 'h-11 tracking-widest')}
                {...register('code')}
              />
            )}
          </Field>
        ) : null}
        <button
          type="submit"
          disabled={isSubmitting}
          className="inline-flex h-11 w-full items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
        >
          {isSubmitting ? t('login.submitting') : t('login.submit')}
        </button>
      </form>
      <p className="mt-6 text-sm">
        <AppLink router={supportRouter} href={supportPath('forgot')} className="font-medium text-brand-700 underline">
          {t('login.forgot')}
        </AppLink>
      </p>
    </div>
  );
}
