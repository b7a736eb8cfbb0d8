/**
 * /support/login/forgot/: the email of a support user → resetpassword. The answer is the same whether or
 * not a support user has this email (the server answers 204 either way), so the screen tells nothing.
 */
import { useEffect, useRef, useState } from 'react';
import { supportApi } from '#lib/api/support.ts';
import { ResetPasswordSchema } from '#lib/schemas/account.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { fieldText, noticeText } from '../../shared/form-text.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';

export default function ForgotScreen() {
  const t = useAppT(supportI18n);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const sentRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (sentTo) sentRef.current?.focus();
  }, [sentTo]);

  const form = useApiForm({
    schema: ResetPasswordSchema,
    defaultValues: { Email: '' },
    onValid: async (values) => {
      await supportApi.resetPassword(values.Email);
      setSentTo(values.Email);
    },
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;

  const backToLogin = (
    <p className="mt-6 text-sm">
      <AppLink router={supportRouter} href={supportPath('login')} className="font-medium text-brand-700 underline">
        {t('forgot.backToLogin')}
      </AppLink>
    </p>
  );

  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight text-ink">{t('screens.forgot')}</h1>
      {sentTo ? (
        <p ref={sentRef} tabIndex={-1} role="status" className="mt-4 rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-900">
          {t('forgot.sent', { email: sentTo })}
        </p>
      ) : (
        <>
          <p className="mt-2 text-slate-700">{t('forgot.intro')}</p>
          <form method="post" noValidate onSubmit={form.submit} className="mt-6 space-y-5">
            <FormNotice message={noticeText(t, form.notice)} />
            <Field id="support-forgot-email" label={t('forgot.email')} error={fieldText(t, errors.Email?.message)}>
              {(control) => (
                <input {...control} type="email" autoComplete="username" inputMode="email" className={controlClass(Boolean(errors.Email), 'h-11')} {...register('Email')} />
              )}
            </Field>
            <button
              type="submit"
              disabled={isSubmitting}
              className="inline-flex h-11 w-full items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
            >
              {isSubmitting ? t('forgot.submitting') : t('forgot.submit')}
            </button>
          </form>
        </>
      )}
      {backToLogin}
    </div>
  );
}
