/**
 * Email + password form of the advertiser login island (the support login has its own form with the code step).
 * react-hook-form with the valibot schema of src/lib/schemas/sign-in.ts (shared with the API) and the shared
 * Field components. A 400's problem+json field errors are shown at their fields; a refused sign-in (401:
 * wrong email or password; 429: locked for a while, with the API's reason) above the form; what the user
 * typed is kept.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import { SignInSchema, type SignInInput } from '#lib/schemas/sign-in.ts';
import { Field, FormNotice, SubmitButton, controlClass } from './form/Field.tsx';
import { fieldErrorsOf, statusOf } from '#lib/api/errors.ts';

export type CredentialsFormText = {
  email: string;
  password: string;
  submit: string;
  submitting: string;
  wrongCredentials: string;
  generic: string;
  network: string;
  /** Too many sign-ins from this address for a while (429 without a reason of the account's). */
  tooMany: string;
};

type Props = {
  text: CredentialsFormText;
  /** Translates a validation message key of the schema or the API ('required', 'email', ...). */
  translate: (message: string) => string;
  /** Signs in; throw the API's error to show the refusal. */
  onSubmit: (values: SignInInput) => Promise<void>;
  idPrefix: string;
};

const fields = ['email', 'password'] as const;

export default function CredentialsForm({ text, translate, onSubmit, idPrefix }: Props) {
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignInInput, unknown, SignInInput>({
    resolver: valibotResolver<SignInInput, unknown, SignInInput>(SignInSchema),
    defaultValues: { email: '', password: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await onSubmit(values);
    } catch (error) {
      const status = statusOf(error);
      const fieldErrors = fieldErrorsOf(error);
      if (status === 400 && fieldErrors.length > 0) {
        for (const fieldError of fieldErrors) {
          const name = fields.find((f) => f === fieldError.field.toLowerCase());
          if (name) setError(name, { type: 'server', message: fieldError.message });
          else setFormError(translate(fieldError.message));
        }
      } else if (status === 401 || status === 400) {
        setFormError(text.wrongCredentials);
      } else if (status === 429 && fieldErrors[0]) {
        // Locked for a while after too many wrong passwords (`accountLocked`).
        setFormError(translate(fieldErrors[0].message));
      } else if (status === 429) {
        setFormError(text.tooMany);
      } else if (error instanceof TypeError) {
        setFormError(text.network);
      } else {
        setFormError(text.generic);
      }
    }
  });

  return (
    // method="post", and the button disabled until hydrated: a submit before hydration must never put the
    // password in the URL, nor post it to the static page.
    <form method="post" noValidate onSubmit={submit} className="space-y-5">
      <FormNotice message={formError} />
      <Field id={`${idPrefix}-email`} label={text.email} error={errors.email?.message ? translate(errors.email.message) : undefined}>
        {(control) => (
          <input
            {...control}
            type="email"
            autoComplete="username"
            inputMode="email"
            className={controlClass(Boolean(errors.email), 'h-11')}
            {...register('email')}
          />
        )}
      </Field>
      <Field
        id={`${idPrefix}-password`}
        label={text.password}
        error={errors.password?.message ? translate(errors.password.message) : undefined}
      >
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="current-password"
            className={controlClass(Boolean(errors.password), 'h-11')}
            {...register('password')}
          />
        )}
      </Field>
      <SubmitButton busy={isSubmitting}>{isSubmitting ? text.submitting : text.submit}</SubmitButton>
    </form>
  );
}
