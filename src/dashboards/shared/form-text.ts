/**
 * Texts and helpers the dashboard screens share: a validation message key (valibot schema or the API's
 * problem+json) or a notice key of useApiForm ('validation.requiredFields', 'errors.network', ...) → the
 * user's language; the message of a failed call outside a form; the button classes.
 * A key is looked up in the app's own catalog first (`validation.*` of the support app: its own refusals
 * such as `notYourself`), then in common (the i18n instances fall back to it); an unknown key is
 * `validation.invalid`.
 */
import type { TFunction } from 'i18next';
import { ApiError, HttpError, fieldErrorsOf } from '#lib/api/errors.ts';
import { toast } from '#lib/stores/toasts.ts';
import { goToLogin } from './session-ended.ts';

const validationKeyOf = (message: string) => (message.startsWith('validation.') ? message : `validation.${message}`);

/** A field's error message (a validation key such as 'required'), translated; undefined without one. */
export function fieldText(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  return t([validationKeyOf(message), 'validation.invalid']);
}

/** The notice above a form, translated; null without one. */
export function noticeText(t: TFunction, key: string | null): string | null {
  if (!key) return null;
  if (key.startsWith('errors.')) return t(`common:${key}`);
  return t([validationKeyOf(key), 'validation.invalid']);
}

/**
 * The message key of a failed call outside a form: the first problem+json field message (also of a 409 or
 * 429 answer), 'tooSoon' for a bare 429, else 'errors.network' or 'errors.generic' (see noticeText).
 */
export function failureKey(error: unknown): string {
  if (error instanceof ApiError || error instanceof HttpError) {
    const first = fieldErrorsOf(error)[0]?.message;
    if (first) return first;
    return error.status === 429 ? 'tooSoon' : 'errors.generic';
  }
  return error instanceof TypeError ? 'errors.network' : 'errors.generic';
}

/** A failed action outside a form (delete, reorder): sign in again on 401, else an error toast. */
export function reportFailure(t: TFunction, error: unknown): void {
  if (error instanceof ApiError && error.status === 401) {
    goToLogin();
    return;
  }
  console.warn('Dashboard call failed', error);
  toast({ title: t(error instanceof TypeError ? 'common:errors.network' : 'common:errors.generic'), variant: 'error' });
}

/** Classes of the buttons. */
export const primaryButton =
  'inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 disabled:opacity-60';
export const secondaryButton =
  'inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 bg-white px-4 font-medium text-ink hover:bg-slate-50 disabled:opacity-60';
export const smallButton =
  'inline-flex min-h-10 items-center justify-center rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-ink hover:bg-slate-50 disabled:opacity-50';
