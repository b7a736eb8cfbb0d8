/**
 * The form above a list that adds one row to it (a city, a blocked number, a risk word): a boxed form
 * with its heading, the notice of `useApiForm` and the submit button, which says it is saving while the
 * form is sent. The fields come as children, registered on the caller's `form`; the texts come from the
 * caller, already in the user's language.
 */
import type { ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { FormNotice, SubmitButton } from './Field.tsx';
import type { ApiForm } from './use-api-form.ts';

type Props<TInput extends FieldValues, TOutput> = {
  /** The heading's id is `${id}-title`; the form is labelled by it. */
  id: string;
  form: ApiForm<TInput, TOutput>;
  title: string;
  /** The form's notice (`form.notice`) translated, or null. */
  notice: string | null;
  submitLabel: string;
  busyLabel: string;
  buttonClassName: string;
  children: ReactNode;
};

export function AddRowForm<TInput extends FieldValues, TOutput>({ id, form, title, notice, submitLabel, busyLabel, buttonClassName, children }: Props<TInput, TOutput>) {
  const busy = form.formState.isSubmitting;
  return (
    <form noValidate onSubmit={form.submit} aria-labelledby={`${id}-title`} className="mt-6 space-y-4 rounded-xl border border-slate-200 bg-slate-50 p-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-ink">
        {title}
      </h2>
      <FormNotice message={notice} />
      {children}
      <SubmitButton busy={busy} className={buttonClassName}>
        {busy ? busyLabel : submitLabel}
      </SubmitButton>
    </form>
  );
}
