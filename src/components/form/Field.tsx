/**
 * One form field: label, the control (given by the caller, with the ids and ARIA attributes it needs),
 * an optional hint and the field's error, translated. Shared by the public islands (sign-up, passwords,
 * report) and the dashboards, so every form says the same things in the same places.
 */
import type { ReactNode } from 'react';
import { useHydrated } from './use-hydrated.ts';

export type ControlProps = {
  id: string;
  'aria-invalid': 'true' | 'false';
  'aria-describedby'?: string;
  'aria-required'?: 'true';
};

type Props = {
  id: string;
  label: ReactNode;
  /** The translated error text, or nothing. */
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean;
  className?: string;
  children: (control: ControlProps) => ReactNode;
};

export function Field({ id, label, error, hint, required, className, children }: Props) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="mt-0.5 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {children({
        id,
        'aria-invalid': error ? 'true' : 'false',
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(required ? { 'aria-required': 'true' as const } : {}),
      })}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Classes of a text input, select or textarea, red when the field has an error. */
export function controlClass(hasError: boolean, extra = ''): string {
  return `mt-1 block w-full rounded-lg border bg-white px-3 text-base text-ink focus-visible:border-blue-700 ${
    hasError ? 'border-red-600' : 'border-slate-300'
  } ${extra}`.trim();
}

/** A checkbox with its label to the right and the error below. */
export function CheckboxField({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string | undefined;
  children: (control: ControlProps) => ReactNode;
}) {
  return (
    <div>
      <div className="flex items-start gap-3">
        {children({ id, 'aria-invalid': error ? 'true' : 'false', ...(error ? { 'aria-describedby': `${id}-error` } : {}) })}
        <label htmlFor={id} className="text-sm text-ink">
          {label}
        </label>
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The notice above a form (role alert): 'Some required fields are missed', a refusal, a network error. */
export function FormNotice({ message, tone = 'error' }: { message: string | null; tone?: 'error' | 'success' }) {
  if (!message) return null;
  const colours = tone === 'error' ? 'border-red-300 bg-red-50 text-red-900' : 'border-emerald-300 bg-emerald-50 text-emerald-900';
  return (
    <p role={tone === 'error' ? 'alert' : 'status'} className={`rounded-lg border px-4 py-3 text-sm ${colours}`}>
      {message}
    </p>
  );
}

const SUBMIT_CLASS =
  'inline-flex h-11 w-full items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 disabled:opacity-70';

/**
 * A form's submit button: disabled while the form is sent, and until the island is hydrated. A click
 * (or Enter) before hydration would post the form natively, passwords included, to a static page that
 * answers 404 (use-hydrated.ts).
 */
export function SubmitButton({ busy, children, className = SUBMIT_CLASS }: { busy: boolean; children: ReactNode; className?: string }) {
  const hydrated = useHydrated();
  return (
    <button type="submit" disabled={!hydrated || busy} className={className}>
      {children}
    </button>
  );
}
