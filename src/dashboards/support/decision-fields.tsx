/**
 * The fields every support decision form shares (a report, an appeal, a verification, a lock): the
 * decision as radio buttons with a word of help each, the rule of the terms it rests on, and the reason
 * the advertiser or reporter is told. Registered with react-hook-form by the form that owns them, or
 * controlled (`value` and `onChange`) by a screen that keeps its own state.
 */

/** A control's binding: react-hook-form's `register(name)`, or a value the screen keeps. */
type Binding<E extends HTMLSelectElement | HTMLTextAreaElement> = UseFormRegisterReturn | { value: string; onChange: (event: ChangeEvent<E>) => void };
import type { ChangeEvent } from 'react';
import type { TFunction } from 'i18next';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { TERMS_RULES } from '#lib/schemas/moderation.ts';
import { Field, controlClass } from '../../components/form/Field.tsx';

type DecisionRadiosProps = {
  /** Prefix of the inputs' ids (`{id}-{value}`) and of the error's (`{id}-error`). */
  id: string;
  legend: string;
  choices: readonly string[];
  label: (value: string) => string;
  help: (value: string) => string;
  field: UseFormRegisterReturn;
  error: string | undefined;
};

export function DecisionRadios({ id, legend, choices, label, help, field, error }: DecisionRadiosProps) {
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-semibold text-ink">
        {legend}
        <span aria-hidden="true"> *</span>
      </legend>
      <div className="mt-2 space-y-2">
        {choices.map((value) => (
          <div key={value} className="flex items-start gap-3">
            <input {...field} id={`${id}-${value}`} type="radio" value={value} aria-invalid={error ? 'true' : 'false'} className="mt-0.5 h-5 w-5 border-slate-400" />
            <label htmlFor={`${id}-${value}`} className="text-sm text-ink">
              <span className="font-medium">{label(value)}</span>
              <span className="text-slate-600"> – {help(value)}</span>
            </label>
          </div>
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

type RuleSelectProps = { t: TFunction; id: string; label: string; chooseLabel: string; required: boolean; field: Binding<HTMLSelectElement>; error: string | undefined };

/** The rule of the terms a decision rests on (TERMS_RULES, named in the reader's language). */
export function RuleSelect({ t, id, label, chooseLabel, required, field, error }: RuleSelectProps) {
  return (
    <Field id={id} label={label} required={required} error={error}>
      {(c) => (
        <select {...c} {...field} className={controlClass(Boolean(error), 'h-11')}>
          <option value="">{chooseLabel}</option>
          {TERMS_RULES.map((rule) => (
            <option key={rule} value={rule}>
              {t(`moderation.rules.${rule}`)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

type ReasonFieldProps = { id: string; label: string; hint: string; rows?: number; field: Binding<HTMLTextAreaElement>; error: string | undefined };

/** The reason in the decider's words (up to 2,000 characters), always required. */
export function ReasonField({ id, label, hint, rows = 5, field, error }: ReasonFieldProps) {
  return (
    <Field id={id} label={label} required hint={hint} error={error}>
      {(c) => <textarea {...c} {...field} rows={rows} maxLength={2000} className={controlClass(Boolean(error), 'py-2')} />}
    </Field>
  );
}
