/**
 * What a failed submit means for a form: the API's problem+json field errors land at the form's fields
 * (names matched case-insensitively, as the API matches parameter names), everything else becomes the
 * notice above the form. Returns message keys; the form translates them (validation keys go through
 * `validationKey`).
 */
import { ApiError } from '#lib/api/errors.ts';

export type FormFailure = {
  /** Field name (as the form names it) → validation message key. */
  fields: Record<string, string>;
  /**
   * The notice key: 'validation.requiredFields' when fields are marked, 'errors.network', 'errors.generic',
   * 'unauthorized' (the session ended: the caller sends the user to sign in), or a validation key of a
   * field the form does not show.
   */
  notice: string;
  status?: number;
};

export function describeFailure(error: unknown, fieldNames: readonly string[]): FormFailure {
  if (error instanceof ApiError) {
    if (error.status === 401) return { fields: {}, notice: 'unauthorized', status: 401 };
    const fields: Record<string, string> = {};
    let unmatched: string | null = null;
    for (const fieldError of error.fieldErrors) {
      const name = fieldNames.find((f) => f.toLowerCase() === fieldError.field.toLowerCase());
      if (name) fields[name] ??= fieldError.message;
      else unmatched ??= fieldError.message;
    }
    if (Object.keys(fields).length > 0) return { fields, notice: unmatched ?? 'validation.requiredFields', status: error.status };
    if (unmatched) return { fields, notice: unmatched, status: error.status };
    return { fields, notice: 'errors.generic', status: error.status };
  }
  if (error instanceof TypeError) return { fields: {}, notice: 'errors.network' };
  return { fields: {}, notice: 'errors.generic' };
}
