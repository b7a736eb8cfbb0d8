/** The words for a refused or failed buyproduct, in the user's language. */
import type { TFunction } from 'i18next';
import { ApiError, HttpError, fieldErrorsOf } from '#lib/api/errors.ts';

const REFUSALS = ['advertNotActive', 'productRetired', 'methodUnavailable', 'alreadyOpen'];

export function buyFailureText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError || error instanceof HttpError) {
    const code = fieldErrorsOf(error)[0]?.message;
    if (error.status === 409 && code && REFUSALS.includes(code)) return t(`commerce.refused.${code}`);
    if (error.status === 503) return t('commerce.unavailable');
    if (error.status === 429) return t('commerce.tooMany');
    if (error.status === 403) return t('commerce.forbidden');
    return t('common:errors.generic');
  }
  return t(error instanceof TypeError ? 'common:errors.network' : 'common:errors.generic');
}
