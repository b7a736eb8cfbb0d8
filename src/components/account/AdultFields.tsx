/**
 * What every new advertiser gives, at /create and when taking over an advert of the old site: a new
 * password (`NewPasswordField`), the date of birth (dd-MM-yyyy; 18 or older, checked by the shared schema
 * and the server) and the terms (18+ and the anti-trafficking rules), each with its message at the field.
 */
import type { UseFormRegisterReturn } from 'react-hook-form';
import { CheckboxField, Field, controlClass } from '../form/Field.tsx';
import type { AccountTexts } from './texts.ts';

type FieldName = 'Password' | 'DateOfBirth' | 'AcceptTerms';

type FormProps = {
  /** The fields' id prefix ('create' → create-password, create-birth, create-terms; their errors are `{id}-error`). */
  idPrefix: string;
  texts: AccountTexts;
  /** The form's `register` and `formState.errors` (react-hook-form). */
  register: (name: FieldName) => UseFormRegisterReturn;
  errors: Partial<Record<FieldName, { message?: string | undefined }>>;
};

/** The new account's password, with the rule it must follow. */
export function NewPasswordField({ idPrefix, texts, register, errors }: FormProps) {
  const { t, field } = texts;
  return (
    <Field id={`${idPrefix}-password`} label={t('create.password')} hint={t('login.passwordRule')} required error={field(errors.Password?.message)}>
      {(control) => <input {...control} type="password" autoComplete="new-password" className={controlClass(Boolean(errors.Password), 'h-11')} {...register('Password')} />}
    </Field>
  );
}

export function AdultFields({ idPrefix, texts, termsHref, register, errors }: FormProps & { termsHref: string }) {
  const { t, field } = texts;
  return (
    <>
      <Field id={`${idPrefix}-birth`} label={t('create.dateOfBirth')} hint={t('create.dateOfBirthHint')} required error={field(errors.DateOfBirth?.message)}>
        {(control) => (
          <input
            {...control}
            type="text"
            inputMode="numeric"
            autoComplete="bday"
            maxLength={10}
            className={controlClass(Boolean(errors.DateOfBirth), 'h-11 sm:max-w-48')}
            {...register('DateOfBirth')}
          />
        )}
      </Field>
      <CheckboxField
        id={`${idPrefix}-terms`}
        label={
          <>
            {t('create.termsBefore')}
            <a href={termsHref} target="_blank" rel="noopener" className="font-medium text-brand-700 underline">
              {t('create.termsLink')}
            </a>
            {t('create.termsAfter')}
          </>
        }
        error={field(errors.AcceptTerms?.message)}
      >
        {(control) => <input {...control} type="checkbox" className="mt-0.5 h-5 w-5 shrink-0" {...register('AcceptTerms')} />}
      </CheckboxField>
    </>
  );
}
