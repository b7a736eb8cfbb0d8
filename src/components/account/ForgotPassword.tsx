/**
 * /login/forgot/: the email of the account → resetpassword. The answer is the same whether or not an
 * account has this email (the server answers 204 either way), so the page tells nothing about accounts.
 */
import { useEffect, useRef, useState } from 'react';
import type { Messages } from '#lib/i18n/messages.ts';
import { frontendApi } from '#lib/api/frontend.ts';
import { ResetPasswordSchema } from '#lib/schemas/account.ts';
import { Field, FormNotice, SubmitButton, controlClass } from '../form/Field.tsx';
import { useApiForm } from '../form/use-api-form.ts';
import { accountTexts } from './texts.ts';

type Props = { messages: Messages; loginHref: string };

export default function ForgotPassword({ messages, loginHref }: Props) {
  const texts = accountTexts(messages);
  const { t } = texts;
  const [sentTo, setSentTo] = useState<string | null>(null);
  const sentRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (sentTo) sentRef.current?.focus();
  }, [sentTo]);

  const form = useApiForm({
    schema: ResetPasswordSchema,
    defaultValues: { Email: '' },
    onValid: async (values) => {
      await frontendApi.resetPassword(values.Email);
      setSentTo(values.Email);
    },
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;

  if (sentTo) {
    return (
      <div className="space-y-4">
        <p ref={sentRef} tabIndex={-1} role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-900">
          {t('login.forgotSent', { email: sentTo })}
        </p>
        <p className="text-sm">
          <a href={loginHref} className="font-medium text-brand-700 underline">
            {t('login.backToLogin')}
          </a>
        </p>
      </div>
    );
  }

  return (
    <form method="post" noValidate onSubmit={form.submit} className="space-y-5">
      <FormNotice message={texts.notice(form.notice)} />
      <Field id="forgot-email" label={t('login.email')} error={texts.field(errors.Email?.message)}>
        {(control) => (
          <input
            {...control}
            type="email"
            autoComplete="username"
            inputMode="email"
            className={controlClass(Boolean(errors.Email), 'h-11')}
            {...register('Email')}
          />
        )}
      </Field>
      <SubmitButton busy={isSubmitting}>{isSubmitting ? t('login.forgotSubmitting') : t('login.forgotSubmit')}</SubmitButton>
    </form>
  );
}
