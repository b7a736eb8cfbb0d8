/**
 * A group of radio buttons as one form field: a fieldset whose legend names it, an optional hint and the
 * field's error (translated), tied to the radios with aria-describedby.
 */
import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

type Props = {
  id: string;
  legend: ReactNode;
  options: { value: string; label: ReactNode }[];
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  hint?: ReactNode;
};

export function RadioGroup({ id, legend, options, registration, error, hint }: Props) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset aria-describedby={describedBy}>
      <legend className="block text-sm font-semibold text-ink">
        {legend}
        <span aria-hidden="true"> *</span>
      </legend>
      {hint ? (
        <p id={`${id}-hint`} className="mt-0.5 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      <div className="mt-2 flex flex-wrap gap-3">
        {options.map((option) => (
          <label
            key={option.value}
            className={`flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border bg-white px-4 py-2 text-base text-ink has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 ${
              error ? 'border-red-600' : 'border-slate-300'
            }`}
          >
            <input type="radio" value={option.value} aria-invalid={error ? 'true' : 'false'} className="h-4 w-4" {...registration} />
            {option.label}
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
