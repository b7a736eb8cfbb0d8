/**
 * /support/login/change/?token=…&id=…: the reset link from the email. Without token or id the link is
 * refused at once; otherwise the new password (twice) goes to changepassword, which ends every session of
 * the user; then the login screen says the password was changed. An expired or used link (`linkInvalid`)
 * links to forgot/ for a new one.
 */
import { useEffect, useState } from 'react';
import { supportApi } from '#lib/api/support.ts';
import { SupportChangePasswordSchema } from '#lib/schemas/support-user.ts';
import { passwordTwiceSchema } from '#lib/schemas/account.ts';
import { readChangePasswordQuery } from '../../../components/change-password-query.ts';
import { Field, FormNotice, controlClass } from '../../../components/form/Field.tsx';
import { useApiForm } from '../../../components/form/use-api-form.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { fieldText, noticeText } from '../../shared/form-text.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';

/** The new password (as support passwords go), typed twice alike. */
const NewPasswordSchema = passwordTwiceSchema(SupportChangePasswordSchema.entries.Password);

export default function ChangeScreen() {
  const t = useAppT(supportI18n);
  const [link, setLink] = useState<{ token: string; id: string } | null | undefined>(undefined);

  useEffect(() => {
    setLink(readChangePasswordQuery(location.search));
  }, []);

  const form = useApiForm({
    schema: NewPasswordSchema,
    defaultValues: { Password: '', Repeat: '' },
    onValid: async (values) => {
      if (!link) return;
      await supportApi.changePassword({ Token: link.token, Id: link.id, Password: values.Password });
      supportRouter.open(`${supportPath('login')}?changed=1`, true);
    },
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;

  const requestNew = (
    <p className="mt-2">
      <AppLink router={supportRouter} href={supportPath('forgot')} className="font-semibold underline">
        {t('change.requestNew')}
      </AppLink>
    </p>
  );

  let body;
  if (link === undefined) body = null;
  else if (link === null) {
    body = (
      <div role="alert" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
        <p>{t('change.missing')}</p>
        {requestNew}
      </div>
    );
  } else {
    body = (
      <>
        <p className="mt-2 text-slate-700">{t('change.intro')}</p>
        <form method="post" noValidate onSubmit={form.submit} className="mt-6 space-y-5" data-change-ready>
          {form.notice === 'linkInvalid' ? (
            <div role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
              <p>{noticeText(t, 'linkInvalid')}</p>
              {requestNew}
            </div>
          ) : (
            <FormNotice message={noticeText(t, form.notice)} />
          )}
          <Field id="support-change-password" label={t('change.password')} hint={t('change.passwordRule')} error={fieldText(t, errors.Password?.message)}>
            {(control) => (
              <input {...control} type="password" autoComplete="new-password" className={controlClass(Boolean(errors.Password), 'h-11')} {...register('Password')} />
            )}
          </Field>
          <Field id="support-change-repeat" label={t('change.repeat')} error={fieldText(t, errors.Repeat?.message)}>
            {(control) => (
              <input {...control} type="password" autoComplete="new-password" className={controlClass(Boolean(errors.Repeat), 'h-11')} {...register('Repeat')} />
            )}
          </Field>
          <button
            type="submit"
            disabled={isSubmitting}
            className="inline-flex h-11 w-full items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
          >
            {isSubmitting ? t('change.submitting') : t('change.submit')}
          </button>
        </form>
      </>
    );
  }

  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight text-ink">{t('screens.change')}</h1>
      {body}
    </div>
  );
}
