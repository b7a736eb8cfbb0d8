import * as v from 'valibot';
import { wholeNumber } from './query-values.ts';
import { ChangePasswordSchema } from './account.ts';
import { SignInSchema } from './sign-in.ts';

/** Support users' passwords: at least 12 characters (and, on the server, not a common one). */
export const SUPPORT_MIN_PASSWORD_LENGTH = 12;

const supportPassword = v.pipe(
  v.string('required'),
  v.nonEmpty('required'),
  v.minLength(SUPPORT_MIN_PASSWORD_LENGTH, 'passwordTooShort'),
  v.maxLength(200, 'tooLong'),
);

const email = v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.email('email'), v.maxLength(254, 'tooLong'));
const name = v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(120, 'tooLong'));
const permissions = v.pipe(
  v.array(v.picklist(['Support', 'SEO', 'Administration'], 'permission'), 'permission'),
  v.minLength(1, 'required'),
);

/** A whole number given as a number or as digits in a string (query parameters are strings). */

/** A support user as Administration creates it (used by the support app's form and the API). */
export const SupportUserSchema = v.object({
  email,
  name,
  password: supportPassword,
  permissions,
});

export type SupportUserInput = v.InferOutput<typeof SupportUserSchema>;

/**
 * POST users: without `id` a new user (password required), with `id` an update (an empty or missing
 * password keeps the current one; `resetTwoFactor` clears their two-step sign-in).
 */
export const SaveSupportUserSchema = v.pipe(
  v.object({
    id: v.optional(wholeNumber('number')),
    email,
    name,
    password: v.optional(
      v.pipe(
        v.string('required'),
        v.check((value) => value === '' || value.length >= SUPPORT_MIN_PASSWORD_LENGTH, 'passwordTooShort'),
        v.maxLength(200, 'tooLong'),
      ),
    ),
    permissions,
    disabled: v.optional(v.boolean('flag'), false),
    resetTwoFactor: v.optional(v.boolean('flag'), false),
  }),
  v.forward(
    v.check((input) => input.id !== undefined || (input.password ?? '') !== '', 'required'),
    ['password'],
  ),
);

export type SaveSupportUserInput = v.InferOutput<typeof SaveSupportUserSchema>;

/** users: Administration's list of support users, by name; `Text` searches name and email. */
export const SupportUsersQuerySchema = v.object({
  Skip: v.optional(v.pipe(wholeNumber('number'), v.minValue(0, 'range')), 0),
  Take: v.optional(v.pipe(wholeNumber('number'), v.minValue(1, 'range'), v.maxValue(200, 'range')), 50),
  Text: v.optional(v.pipe(v.string('required'), v.trim(), v.maxLength(254, 'tooLong'))),
});

export type SupportUsersQueryInput = v.InferOutput<typeof SupportUsersQuerySchema>;

/** user, removeuser: one support user by id. */
export const SupportUserIdSchema = v.object({ Id: wholeNumber('required') }, 'required');

/** Support sign-in: email and password, and the code of the authenticator app once two-step sign-in is on. */
export const SupportSignInSchema = v.object({
  ...SignInSchema.entries,
  code: v.optional(v.pipe(v.string('codeWrong'), v.trim(), v.maxLength(20, 'codeWrong'))),
});

export type SupportSignInInput = v.InferOutput<typeof SupportSignInSchema>;

/** twofactorconfirm, twofactordisable: the 6-digit code of the authenticator app. */
export const TwoFactorCodeSchema = v.object(
  { Code: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(20, 'codeWrong')) },
  'required',
);

/**
 * twofactorsetup: proof that the person at the session is the user (issue 15 item 5): the password while
 * two-step sign-in is off, a current code of the authenticator app while it is on (the server says which
 * it misses at its field).
 */
export const TwoFactorSetupSchema = v.object({
  Password: v.optional(v.pipe(v.string('required'), v.maxLength(200, 'tooLong'))),
  Code: v.optional(v.pipe(v.string('codeWrong'), v.trim(), v.maxLength(20, 'codeWrong'))),
});

export type TwoFactorSetupInput = v.InferOutput<typeof TwoFactorSetupSchema>;

/** The support app's form before a first setup: the password (the server checks it). */
export const TwoFactorPasswordSchema = v.object({ Password: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(200, 'tooLong')) }, 'required');

/** changepassword (support): the reset link's token and id and a new password, as support passwords go. */
export const SupportChangePasswordSchema = v.object({ ...ChangePasswordSchema.entries, Password: supportPassword }, 'required');

export type SupportChangePasswordInput = v.InferOutput<typeof SupportChangePasswordSchema>;
