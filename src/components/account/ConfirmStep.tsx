/**
 * Step 2 of /create, opened from the emailed link (/create/?confirm=…): the password chosen at sign-up
 * confirms that the one who opened the link is the one who signed up (confirmsignup), which signs in and
 * sends the SMS code. A wrong password is said at the field, focused, and what was typed is kept; too many
 * lock this address out for a while (said at the field too). A used, expired or broken link says so, with
 * the ways on: sign in, or fill in the form again (a fresh link), or reset the password.
 */
import { useState } from 'react';
import * as v from 'valibot';
import { frontendApi, type ConfirmedSignUp } from '#lib/api/frontend.ts';
import { fieldErrorsOf, statusOf } from '#lib/api/errors.ts';
import { ConfirmSignUpSchema } from '#lib/schemas/account.ts';
import { Field, FormNotice, SubmitButton, controlClass } from '../form/Field.tsx';
import { useApiForm } from '../form/use-api-form.ts';
import type { AccountTexts } from './texts.ts';

const PasswordSchema = v.object({ Password: ConfirmSignUpSchema.entries.Password }, 'required');

type Props = {
  texts: AccountTexts;
  token: string;
  hrefs: { login: string; forgot: string; create: string };
  onConfirmed: (confirmed: ConfirmedSignUp) => void;
};

const linkClass = 'font-medium text-brand-700 underline';

export function ConfirmStep({ texts, token, hrefs, onConfirmed }: Props) {
  const { t, field } = texts;
  const [linkInvalid, setLinkInvalid] = useState(false);

  const form = useApiForm({
    schema: PasswordSchema,
    defaultValues: { Password: '' },
    onValid: async ({ Password }) => {
      try {
        onConfirmed(await frontendApi.confirmSignUp({ Token: token, Password }));
      } catch (error) {
        if (fieldErrorsOf(error).some((e) => e.message === 'linkInvalid')) {
          setLinkInvalid(true);
          return;
        }
        // The password is not the one chosen at sign-up (the API answers as a sign-in would: 401).
        if (statusOf(error) === 401) {
          form.setError('Password', { type: 'server', message: 'wrongPassword' }, { shouldFocus: true });
          return;
        }
        throw error;
      }
    },
  });

  if (linkInvalid) {
    return (
      <div className="space-y-4">
        <FormNotice message={t('create.linkInvalidHeading')} />
        <p className="text-slate-700">{t('create.linkInvalidText')}</p>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          <a href={hrefs.login} className={linkClass}>
            {t('create.loginLink')}
          </a>
          <a href={hrefs.create} className={linkClass}>
            {t('create.linkInvalidCreate')}
          </a>
          <a href={hrefs.forgot} className={linkClass}>
            {t('create.confirmForgotLink')}
          </a>
        </div>
      </div>
    );
  }

  const errors = form.formState.errors;
  return (
    <form method="post" noValidate onSubmit={form.submit} className="space-y-5">
      <p className="text-slate-700">{t('create.confirmText')}</p>
      <FormNotice message={texts.notice(form.notice)} />
      <Field id="create-confirm-password" label={t('create.confirmPassword')} required error={field(errors.Password?.message)}>
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="current-password"
            className={controlClass(Boolean(errors.Password), 'h-11')}
            {...form.register('Password')}
          />
        )}
      </Field>
      <SubmitButton busy={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? t('create.confirmSubmitting') : t('create.confirmSubmit')}
      </SubmitButton>
      <p className="text-sm text-slate-700">
        {t('create.confirmForgot')}{' '}
        <a href={hrefs.forgot} className={linkClass}>
          {t('create.confirmForgotLink')}
        </a>
      </p>
    </form>
  );
}
