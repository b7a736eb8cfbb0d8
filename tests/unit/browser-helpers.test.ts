import { describe, expect, it } from 'vitest';
import { safeRedirect } from '../../src/components/safe-redirect.ts';
import { readChangePasswordQuery } from '../../src/components/change-password-query.ts';
import { searchTextFrom } from '../../src/components/search-text.ts';
import { ageConsentCookie, hasAgeConsent } from '../../src/components/age-consent.ts';
import { landingSlug } from '#lib/api/build-data.ts';
import * as v from 'valibot';
import { SignInSchema } from '#lib/schemas/sign-in.ts';
import { validationKey } from '#lib/i18n/validation.ts';
import { ApiError, HttpError } from '#lib/api/errors.ts';
import { describeFailure } from '../../src/components/form/form-errors.ts';

describe('redirectTo', () => {
  it('follows only local paths under the allowed prefix', () => {
    expect(safeRedirect('/backend/basic/?x=1', '/backend/', '/d/')).toBe('/backend/basic/?x=1');
    expect(safeRedirect(null, '/backend/', '/d/')).toBe('/d/');
    expect(safeRedirect('https://evil.test/backend/', '/backend/', '/d/')).toBe('/d/');
    expect(safeRedirect('//evil.test/backend/', '/backend/', '/d/')).toBe('/d/');
    expect(safeRedirect('/\\evil.test', '/backend/', '/d/')).toBe('/d/');
    expect(safeRedirect('/support/', '/backend/', '/d/')).toBe('/d/');
  });
});

describe('change-password link', () => {
  it('needs token and id, and turns spaces in the token back into plus signs', () => {
    expect(readChangePasswordQuery('?token=ab cd ef&id=12')).toEqual({ token: 'ab+cd+ef', id: '12' });
    expect(readChangePasswordQuery('?token=ab+cd&id=12')).toEqual({ token: 'ab+cd', id: '12' });
    expect(readChangePasswordQuery('?token=abc')).toBeNull();
    expect(readChangePasswordQuery('?id=1')).toBeNull();
    expect(readChangePasswordQuery('')).toBeNull();
  });
});

describe('search text', () => {
  it('comes from the path, or from ?text= without JS', () => {
    expect(searchTextFrom('/search/S%C3%B8de%20Anna/', '')).toBe('Søde Anna');
    expect(searchTextFrom('/en/search/massage/', '')).toBe('massage');
    expect(searchTextFrom('/search/', '?text=hej')).toBe('hej');
    expect(searchTextFrom('/search/', '')).toBe('');
  });
});

describe('age consent cookie', () => {
  it('lasts 365 days on the whole site', () => {
    expect(ageConsentCookie(false)).toBe('age_consent=1; Max-Age=31536000; Path=/; SameSite=Lax');
    expect(ageConsentCookie(true)).toMatch(/; Secure$/);
    expect(hasAgeConsent('x=1; age_consent=1')).toBe(true);
    expect(hasAgeConsent('age_consent=0')).toBe(false);
  });
});

describe('landing page slugs', () => {
  it('accepts a slug or a path', () => {
    expect(landingSlug('sikker-dating')).toBe('sikker-dating');
    expect(landingSlug('/artikler/sikker-dating/')).toBe('sikker-dating');
  });
});

describe('validation messages', () => {
  it('map the schema and API keys to catalog keys, with a generic fallback', () => {
    const empty = v.safeParse(SignInSchema, { email: '', password: '' });
    expect(empty.issues?.[0]?.message).toBe('required');
    const has = (key: string) => ['validation.required', 'validation.invalid'].includes(key);
    expect(validationKey('required', has)).toBe('validation.required');
    expect(validationKey('validation.required', has)).toBe('validation.required');
    expect(validationKey('somethingNew', has)).toBe('validation.invalid');
  });
});

describe('a failed form submit', () => {
  const problem = (status: number, errors: { field: string; message: string }[]) => {
    const init = { url: '/api/backend/x', status, statusText: '', body: { title: 'Refused', status, errors } };
    return status === 409 ? new HttpError(init) : new ApiError(init);
  };
  const fields = ['Phone', 'Note', 'IncallPrice'];

  it('puts the fields of an incomplete form at their fields, with "Some required fields are missed" above', () => {
    expect(describeFailure(problem(400, [{ field: 'phone', message: 'phone' }]), fields)).toEqual({
      fields: { Phone: 'phone' },
      notice: 'validation.requiredFields',
      status: 400,
    });
    // A list item's path lands at the form's field of that name.
    expect(describeFailure(problem(400, [{ field: 'PriceItems.0.IncallPrice', message: 'number' }]), fields).fields).toEqual({ IncallPrice: 'number' });
  });

  it('puts a refusal such as a duplicate (409) at its field only, without a second notice', () => {
    expect(describeFailure(problem(409, [{ field: 'Phone', message: 'duplicate' }]), fields)).toEqual({
      fields: { Phone: 'duplicate' },
      notice: null,
      status: 409,
    });
  });

  it('says what else went wrong above the form', () => {
    expect(describeFailure(problem(409, [{ field: 'Email', message: 'emailTaken' }]), fields).notice).toBe('emailTaken');
    expect(describeFailure(new TypeError('Failed to fetch'), fields).notice).toBe('errors.network');
    expect(describeFailure(problem(401, []), fields).notice).toBe('unauthorized');
    expect(describeFailure(new Error('boom'), fields).notice).toBe('errors.generic');
    // A rate limit says so (the review form's submit showed the generic error).
    const limited = new HttpError({ url: '/api/frontend/addprofilereview', status: 429, statusText: 'Too Many Requests', body: { title: 'Too Many Requests', status: 429 } });
    expect(describeFailure(limited, fields)).toEqual({ fields: {}, notice: 'errors.tooMany', status: 429 });
  });
});
