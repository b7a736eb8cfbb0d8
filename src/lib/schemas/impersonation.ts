import * as v from 'valibot';
import { wholeNumber } from './query-values.ts';

/**
 * Impersonation (issue 6): support's `impersonation` (ProfileId: the advert whose backend support
 * enters) and the frontend's `impersonate` (Url: the link's one-time token, spec §7 "impersonate (url)").
 */

/** A whole number given as a number or as digits in a string (query parameters are strings). */

export const ImpersonationLinkSchema = v.object({ ProfileId: wholeNumber('required') }, 'required');

export const ImpersonateSchema = v.object(
  { Url: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(200, 'linkInvalid')) },
  'required',
);

/** The answer of `impersonation`: the link to open (same tab) and until when it works. */
export type ImpersonationLinkAnswer = { url: string; expiresAt: string };
