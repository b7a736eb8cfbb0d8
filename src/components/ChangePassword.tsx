/**
 * /login/change/?token=…&id=…: the reset link from the email. Without token or id the link is refused at
 * once; otherwise the new password (twice) goes to changepassword, which ends every session of the account
 * (it does not sign in): the island then says so and links to the sign-in page. An expired or used link
 * (`linkInvalid`) links to /login/forgot/ for a new one.
 */
import { useEffect, useRef, useState } from 'react';
import type { Messages } from '#lib/i18n/messages.ts';
import { frontendApi } from '#lib/api/frontend.ts';
import { newPassword, passwordTwiceSchema } from '#lib/schemas/account.ts';
import { readChangePasswordQuery } from './change-password-query.ts';
import { Field, FormNotice, SubmitButton, controlClass } from './form/Field.tsx';
import { useApiForm } from './form/use-api-form.ts';
import { accountTexts } from './account/texts.ts';

type Props = { messages: Messages; forgotHref: string; loginHref: string };

/** The new password, typed twice alike. */
const NewPasswordSchema = passwordTwiceSchema(newPassword);

export default function ChangePassword({ messages, forgotHref, loginHref }: Props) {
  const texts = accountTexts(messages);
  const { t } = texts;
  const [link, setLink] = useState<{ token: string; id: string } | null | undefined>(undefined);
  const [done, setDone] = useState(false);
  const doneRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    setLink(readChangePasswordQuery(location.search));
  }, []);
  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);

  const form = useApiForm({
    schema: NewPasswordSchema,
    defaultValues: { Password: '', Repeat: '' },
    onValid: async (values) => {
      if (!link) return;
      await frontendApi.changePassword({ Token: link.token, Id: link.id, Password: values.Password });
      setDone(true);
    },
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;

  if (link === undefined) return null;
  const requestNew = (
    <p className="mt-2">
      <a href={forgotHref} className="font-semibold underline">
        {t('login.requestNew')}
      </a>
    </p>
  );
  if (link === null) {
    return (
      <div role="alert" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
        <p>{t('login.changeMissing')}</p>
        {requestNew}
      </div>
    );
  }
  if (done) {
    return (
      <div className="mt-4 space-y-4">
        <p ref={doneRef} tabIndex={-1} role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-900">
          {t('login.changeDone')}
        </p>
        <a
          href={loginHref}
          className="inline-flex h-11 w-full items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800"
        >
          {t('login.signIn')}
        </a>
      </div>
    );
  }

  const linkInvalid = form.notice === 'linkInvalid';
  return (
    <div data-change-ready className="mt-2">
      <p className="mb-6 text-slate-700">{t('login.changeIntro')}</p>
      <form method="post" noValidate onSubmit={form.submit} className="space-y-5">
        {linkInvalid ? (
          <div role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
            <p>{texts.notice('linkInvalid')}</p>
            {requestNew}
          </div>
        ) : (
          <FormNotice message={texts.notice(form.notice)} />
        )}
        <Field id="change-password" label={t('login.newPassword')} hint={t('login.passwordRule')} error={texts.field(errors.Password?.message)}>
          {(control) => (
            <input {...control} type="password" autoComplete="new-password" className={controlClass(Boolean(errors.Password), 'h-11')} {...register('Password')} />
          )}
        </Field>
        <Field id="change-repeat" label={t('login.repeatPassword')} error={texts.field(errors.Repeat?.message)}>
          {(control) => (
            <input {...control} type="password" autoComplete="new-password" className={controlClass(Boolean(errors.Repeat), 'h-11')} {...register('Repeat')} />
          )}
        </Field>
        <SubmitButton busy={isSubmitting}>{isSubmitting ? t('login.changeSubmitting') : t('login.changeSubmit')}</SubmitButton>
      </form>
    </div>
  );
}
