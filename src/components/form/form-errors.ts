/**
 * What a failed submit means for a form: the API's problem+json field errors land at the form's fields
 * (names matched case-insensitively, as the API matches parameter names; a list item's path such as
 * `PriceItems.0.IncallPrice` matches the form's `IncallPrice`), everything else becomes the notice above
 * the form. Returns message keys; the form translates them (validation keys go through `validationKey`).
 */
import { ApiError, HttpError, fieldErrorsOf } from '#lib/api/errors.ts';

export type FormFailure = {
  /** Field name (as the form names it) → validation message key. */
  fields: Record<string, string>;
  /**
   * The notice key: 'validation.requiredFields' for an incomplete or invalid form (400) with fields marked,
   * none for a refusal of another kind whose message is at its field (409 duplicate, already replied, ...),
   * 'errors.network', 'errors.generic', 'errors.tooMany' (a rate limit: try again later), 'unauthorized' (the session ended: the caller sends the user to
   * sign in), or a validation key of a field the form does not show.
   */
  notice: string | null;
  status?: number;
};

export function describeFailure(error: unknown, fieldNames: readonly string[]): FormFailure {
  if (error instanceof ApiError || error instanceof HttpError) {
    if (error.status === 401) return { fields: {}, notice: 'unauthorized', status: 401 };
    const fields: Record<string, string> = {};
    let unmatched: string | null = null;
    for (const fieldError of fieldErrorsOf(error)) {
      const path = fieldError.field.toLowerCase();
      const last = path.split('.').at(-1) ?? path;
      const name = fieldNames.find((f) => f.toLowerCase() === path) ?? fieldNames.find((f) => f.toLowerCase() === last);
      if (name) fields[name] ??= fieldError.message;
      else unmatched ??= fieldError.message;
    }
    if (Object.keys(fields).length > 0) {
      return { fields, notice: unmatched ?? (error.status === 400 ? 'validation.requiredFields' : null), status: error.status };
    }
    if (unmatched) return { fields, notice: unmatched, status: error.status };
    // The API's rate limits (429): say so, rather than that something went wrong.
    if (error.status === 429) return { fields, notice: 'errors.tooMany', status: 429 };
    return { fields, notice: 'errors.generic', status: error.status };
  }
  if (error instanceof TypeError) return { fields: {}, notice: 'errors.network' };
  return { fields: {}, notice: 'errors.generic' };
}
