/**
 * Email + password form used by the advertiser login island and the support login screen.
 * react-hook-form with the valibot schema of src/lib/schemas/sign-in.ts (shared with the API); the API's problem+json field errors
 * are shown at their fields, a 401 above the form; what the user typed is kept.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import { SignInSchema, type SignInInput } from '#lib/schemas/sign-in.ts';
import { ApiError } from '#lib/api/errors.ts';

export type CredentialsFormText = {
  email: string;
  password: string;
  submit: string;
  submitting: string;
  wrongCredentials: string;
  generic: string;
  network: string;
};

type Props = {
  text: CredentialsFormText;
  /** Translates a validation message key of the schema or the API ('required', 'email', ...). */
  translate: (message: string) => string;
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
      if (error instanceof ApiError && error.status === 400 && error.fieldErrors.length > 0) {
        for (const fieldError of error.fieldErrors) {
          const name = fields.find((f) => f === fieldError.field.toLowerCase());
          if (name) setError(name, { type: 'server', message: fieldError.message });
          else setFormError(translate(fieldError.message));
        }
      } else if (error instanceof ApiError && (error.status === 401 || error.status === 400)) {
        setFormError(text.wrongCredentials);
      } else if (error instanceof TypeError) {
        setFormError(text.network);
      } else {
        setFormError(text.generic);
      }
    }
  });

  const input =
    'mt-1 block h-11 w-full rounded-lg border bg-white px-3 text-base text-ink focus-visible:border-blue-700';

  return (
    // method="post": a submit before hydration must never put the password in the URL.
    <form method="post" noValidate onSubmit={submit} className="space-y-5">
      {formError ? (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
          {formError}
        </p>
      ) : null}
      <div>
        <label htmlFor={`${idPrefix}-email`} className="block text-sm font-semibold text-ink">
          {text.email}
        </label>
        <input
          id={`${idPrefix}-email`}
          type="email"
          autoComplete="username"
          inputMode="email"
          aria-invalid={errors.email ? 'true' : 'false'}
          aria-describedby={errors.email ? `${idPrefix}-email-error` : undefined}
          className={`${input} ${errors.email ? 'border-red-600' : 'border-slate-300'}`}
          {...register('email')}
        />
        {errors.email?.message ? (
          <p id={`${idPrefix}-email-error`} className="mt-1 text-sm text-red-700">
            {translate(errors.email.message)}
          </p>
        ) : null}
      </div>
      <div>
        <label htmlFor={`${idPrefix}-password`} className="block text-sm font-semibold text-ink">
          {text.password}
        </label>
        <input
          id={`${idPrefix}-password`}
          type="password"
          autoComplete="current-password"
          aria-invalid={errors.password ? 'true' : 'false'}
          aria-describedby={errors.password ? `${idPrefix}-password-error` : undefined}
          className={`${input} ${errors.password ? 'border-red-600' : 'border-slate-300'}`}
          {...register('password')}
        />
        {errors.password?.message ? (
          <p id={`${idPrefix}-password-error`} className="mt-1 text-sm text-red-700">
            {translate(errors.password.message)}
          </p>
        ) : null}
      </div>
      <button
        type="submit"
        disabled={isSubmitting}
        className="inline-flex h-11 w-full items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
      >
        {isSubmitting ? text.submitting : text.submit}
      </button>
    </form>
  );
}
