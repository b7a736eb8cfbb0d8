/**
 * /create/?claim=… (issue 18): the emailed invitation to take over an advert from the old site. The
 * screen says whose advert it is (claimpreview), then asks what /create asks of every new advertiser: a
 * new password, the date of birth (18 or older) and the terms (claimmigratedadvert: the account is made
 * with the email confirmed by the link, the advert arrives with its texts, prices and pictures, signed in,
 * and the SMS code goes to the imported phone). A bad form keeps what was typed; a used or expired link
 * says so, with the way on (support sends a new invitation); an address that has an account meanwhile is
 * told to sign in.
 */
import { useEffect, useState } from 'react';
import type * as v from 'valibot';
import type { Locale } from '#lib/i18n/locales.ts';
import { frontendApi, type ConfirmedSignUp } from '#lib/api/frontend.ts';
import { fieldErrorsOf } from '#lib/api/errors.ts';
import { ClaimMigratedAdvertSchema } from '#lib/schemas/account.ts';
import { FormNotice, SubmitButton } from '../form/Field.tsx';
import { AdultFields, NewPasswordField } from './AdultFields.tsx';
import { useApiForm } from '../form/use-api-form.ts';
import type { AccountTexts } from './texts.ts';

type Props = {
  texts: AccountTexts;
  token: string;
  locale: Locale;
  termsHref: string;
  hrefs: { login: string; forgot: string };
  onClaimed: (claimed: ConfirmedSignUp) => void;
};

type FormInput = v.InferInput<typeof ClaimMigratedAdvertSchema>;
const linkClass = 'font-medium text-brand-700 underline';

export function ClaimStep({ texts, token, locale, termsHref, hrefs, onClaimed }: Props) {
  const { t } = texts;
  const [preview, setPreview] = useState<{ name: string; email: string } | null>(null);
  const [refusal, setRefusal] = useState<'linkInvalid' | 'emailHasAccount' | null>(null);

  /** The API's refusal of the link itself (not of a field the visitor can mend), or null. */
  const refusalOf = (error: unknown) => {
    const messages = fieldErrorsOf(error).filter((e) => e.field === 'Token').map((e) => e.message);
    return messages.includes('emailHasAccount') ? 'emailHasAccount' : messages.includes('linkInvalid') ? 'linkInvalid' : null;
  };

  useEffect(() => {
    frontendApi.claimPreview(token).then(setPreview, (error: unknown) => setRefusal(refusalOf(error) ?? 'linkInvalid'));
  }, [token]);

  const form = useApiForm({
    schema: ClaimMigratedAdvertSchema,
    defaultValues: { Token: token, Password: '', DateOfBirth: '', AcceptTerms: false, Locale: locale } satisfies FormInput,
    onValid: async (values) => {
      try {
        onClaimed(await frontendApi.claimMigratedAdvert(values));
      } catch (error) {
        const refused = refusalOf(error);
        if (refused) {
          setRefusal(refused);
          return;
        }
        throw error;
      }
    },
  });

  if (refusal) {
    return (
      <div className="space-y-4">
        <FormNotice message={t(refusal === 'emailHasAccount' ? 'claim.hasAccountHeading' : 'create.linkInvalidHeading')} />
        <p className="text-slate-700">{t(refusal === 'emailHasAccount' ? 'claim.hasAccountText' : 'claim.linkInvalidText')}</p>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          <a href={hrefs.login} className={linkClass}>
            {t('create.loginLink')}
          </a>
          {refusal === 'emailHasAccount' ? (
            <a href={hrefs.forgot} className={linkClass}>
              {t('create.confirmForgotLink')}
            </a>
          ) : null}
        </div>
      </div>
    );
  }

  const { register, formState } = form;
  const errors = formState.errors;
  return (
    <form method="post" noValidate onSubmit={form.submit} className="space-y-5">
      <p className="text-slate-700">{preview ? t('claim.text', { name: preview.name, email: preview.email }) : t('claim.loading')}</p>
      <p className="text-slate-700">{t('claim.afterwards')}</p>
      <FormNotice message={texts.notice(form.notice)} />
      <NewPasswordField idPrefix="claim" texts={texts} register={register} errors={errors} />
      <AdultFields idPrefix="claim" texts={texts} termsHref={termsHref} register={register} errors={errors} />
      <SubmitButton busy={formState.isSubmitting}>{formState.isSubmitting ? t('claim.submitting') : t('claim.submit')}</SubmitButton>
    </form>
  );
}
