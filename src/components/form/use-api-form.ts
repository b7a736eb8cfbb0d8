/**
 * react-hook-form with a valibot schema (the same schema the API validates with) and the behaviour every
 * form of the product shares:
 * - an incomplete form shows 'Some required fields are missed' above it and a message at each field, and
 *   keeps everything typed;
 * - a refusal of the server (problem+json) lands at the same fields;
 * - network and other failures become the notice, never a lost form.
 * `notice` is a message key (see ./form-errors.ts); the caller translates it.
 */
import { useState } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import type { GenericSchema } from 'valibot';
import { describeFailure } from './form-errors.ts';

type Options<TInput extends FieldValues, TOutput> = {
  schema: GenericSchema<TInput, TOutput>;
  defaultValues: DefaultValues<TInput>;
  /** Called with the validated values; throw (ApiError) to show the refusal. */
  onValid: (values: TOutput) => Promise<void>;
  /** The session ended (401): e.g. send the user to sign in. */
  onUnauthorized?: () => void;
};

export type ApiForm<TInput extends FieldValues, TOutput> = UseFormReturn<TInput, unknown, TOutput> & {
  /** The submit handler for <form onSubmit>. */
  submit: (event?: React.BaseSyntheticEvent) => Promise<void>;
  notice: string | null;
  setNotice: (key: string | null) => void;
};

export function useApiForm<TInput extends FieldValues, TOutput>({
  schema,
  defaultValues,
  onValid,
  onUnauthorized,
}: Options<TInput, TOutput>): ApiForm<TInput, TOutput> {
  const [notice, setNotice] = useState<string | null>(null);
  const form = useForm<TInput, unknown, TOutput>({
    resolver: valibotResolver<TInput, unknown, TOutput>(schema),
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  const submit = form.handleSubmit(
    async (values) => {
      setNotice(null);
      try {
        await onValid(values);
      } catch (error) {
        const failure = describeFailure(error, Object.keys(form.getValues()));
        if (failure.notice === 'unauthorized' && onUnauthorized) {
          onUnauthorized();
          return;
        }
        for (const [name, message] of Object.entries(failure.fields)) {
          form.setError(name as Path<TInput>, { type: 'server', message });
        }
        setNotice(failure.notice === 'unauthorized' ? 'errors.generic' : failure.notice);
      }
    },
    () => setNotice('validation.requiredFields'),
  );

  return { ...form, submit, notice, setNotice };
}
