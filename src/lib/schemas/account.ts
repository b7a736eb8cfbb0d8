import * as v from 'valibot';
import { wholeNumber } from './query-values.ts';
import { formatDate, parseDay } from '#lib/format.ts';
import { normaliseDanishPhone } from './advert-edit.ts';

/**
 * Advertiser accounts: the inputs of createprofile, confirmsignup, sendsms, codeverification, sendemail,
 * emailverification, resetpassword, changepassword and updatepassword (spec §7), with the spec's
 * parameter names. Messages are i18n keys under `validation.` (src/lib/i18n/{da,en}/common.json); a
 * missing parameter is `required` (the object schemas' message).
 */

/** Passwords: at least this long (and not a common password, which only the server can check). */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;
/** A sign-up's confirmation link works this long (the server's rule; /create says it). */
export const SIGN_UP_LINK_HOURS = 24;
/** A new sign-up link is sent at most this often (the server's rule; /create's "send again" waits as long). */
export const SIGN_UP_RESEND_SECONDS = 60;
/** Advertisers must be adults (spec §1); older than this is taken for a typing error. */
export const MIN_AGE = 18;
export const MAX_AGE = 99;
/** Advert type (spec §3): 0 IndependentEscort, 1 ThaiMassage. */
export const ADVERT_KIND_VALUES = [0, 1] as const;
/** Gender (spec §3): advert forms offer 1 Woman and 5 Transgender. */
export const ADVERT_GENDER_VALUES = [1, 5] as const;

/** An email address as accounts keep it: trimmed, lower-case, at most 254 characters. */
export const email = v.pipe(
  v.string('required'),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty('required'),
  v.maxLength(254, 'tooLong'),
  v.email('email'),
);

const currentPassword = v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(MAX_PASSWORD_LENGTH, 'tooLong'));

/** A new password: long enough; the server also refuses common ones (`passwordCommon`). */
export const newPassword = v.pipe(
  v.string('required'),
  v.nonEmpty('required'),
  v.minLength(MIN_PASSWORD_LENGTH, 'passwordLength'),
  v.maxLength(MAX_PASSWORD_LENGTH, 'tooLong'),
);

/** A form's new password typed twice alike (the change-password screens); `password` is the area's rule. */
export function passwordTwiceSchema(password: v.GenericSchema<string, string>) {
  return v.pipe(
    v.object({ Password: password, Repeat: v.string('required') }),
    v.forward(
      v.check((input) => input.Password === input.Repeat, 'passwordMismatch'),
      ['Repeat'],
    ),
  );
}

/** A whole number given as a number or as digits in a string (query parameters are strings). */

/** One of a few numbers, given as a number or a string. */
const oneOf = <const T extends readonly number[]>(values: T, message: string) =>
  v.pipe(
    wholeNumber(message),
    v.check((value) => values.includes(value), message),
    v.transform((value) => value as T[number]),
  );

/** A yes given as true, "true", "1" or "on" (checkbox); anything else is no. */
const yes = (message: string) =>
  v.pipe(
    v.union([v.boolean(message), v.string(message)], message),
    v.transform((value) => value === true || value === 'true' || value === '1' || value === 'on'),
    v.check((value) => value, message),
  );

/** A Danish phone number (8 digits, +45 optional), stored as its 8 digits. */
export const danishPhone = v.pipe(
  v.string('required'),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(30, 'phone'),
  v.check((value) => normaliseDanishPhone(value) !== null, 'phone'),
  v.transform((value) => normaliseDanishPhone(value)!),
);

/** Whole years between a "yyyy-MM-dd" birth date and `today` as a date in Copenhagen. */
export function ageOn(dateOfBirth: string, today: Date): number {
  const [birthYear, birthMonth, birthDay] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [day, month, year] = formatDate(today).split('-').map(Number) as [number, number, number];
  const hadBirthday = month > birthMonth || (month === birthMonth && day >= birthDay);
  return year - birthYear - (hadBirthday ? 0 : 1);
}

/** The date of birth: a real date, at least MIN_AGE (`underAge`) and at most MAX_AGE years ago. */
export const dateOfBirth = v.pipe(
  v.string('required'),
  v.trim(),
  v.nonEmpty('required'),
  v.transform(parseDay),
  v.string('date'),
  v.check((date) => ageOn(date, new Date()) <= MAX_AGE, 'dateOfBirthRange'),
  v.check((date) => ageOn(date, new Date()) >= MIN_AGE, 'underAge'),
);

const locale = v.optional(v.picklist(['da', 'en'], 'locale'), 'da');

/** createprofile: the account and its advert draft in one call (the /create screen). */
export const CreateProfileSchema = v.object({
  Email: email,
  Password: newPassword,
  /** 0 escort, 1 Thai massage. */
  Kind: oneOf(ADVERT_KIND_VALUES, 'kind'),
  /** 1 Woman, 5 Transgender (an escort with gender 5 is listed as trans escort). */
  Gender: oneOf(ADVERT_GENDER_VALUES, 'gender'),
  Name: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(60, 'tooLong')),
  Phone: danishPhone,
  RegionId: wholeNumber('region'),
  CityId: wholeNumber('city'),
  DateOfBirth: dateOfBirth,
  /** The advertiser confirms being 18 or older and accepts the terms, including the anti-trafficking rules. */
  AcceptTerms: yes('acceptTerms'),
  Locale: locale,
}, 'required');
export type CreateProfileInput = v.InferOutput<typeof CreateProfileSchema>;

/** sendsms: a new code to the account's phone; `Phone` first corrects the number (verified again). */
export const SendSmsSchema = v.object({ Phone: v.optional(danishPhone) }, 'required');
export type SendSmsInput = v.InferOutput<typeof SendSmsSchema>;

/** codeverification: the 6-digit code and the id sendsms (or confirmsignup) answered. */
export const CodeVerificationSchema = v.object({
  Code: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.regex(/^\d{6}$/, 'code')),
  Id: wholeNumber('required'),
}, 'required');
export type CodeVerificationInput = v.InferOutput<typeof CodeVerificationSchema>;

/** sendemail: a new verification link; a different `Email` becomes the account's email once verified. */
export const SendEmailSchema = v.object({ Email: v.optional(email) }, 'required');
export type SendEmailInput = v.InferOutput<typeof SendEmailSchema>;

/** The token of a link, also when the whole link or its `?url=` query was passed. */
function tokenOfLink(value: string): string {
  if (!value.includes('?') && !value.includes('=')) return value;
  const query = value.slice(value.indexOf('?') + 1);
  return new URLSearchParams(query).get('url') ?? value;
}

const token = v.pipe(
  v.string('required'),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(500, 'linkInvalid'),
);

/** emailverification: `Url` is the token of the emailed link (/backend/basic/?url=…). */
export const EmailVerificationSchema = v.object({
  Url: v.pipe(token, v.transform(tokenOfLink), v.regex(/^[\w-]{20,100}$/, 'linkInvalid')),
}, 'required');
export type EmailVerificationInput = v.InferOutput<typeof EmailVerificationSchema>;

/**
 * confirmsignup: the token of the emailed sign-up link (/create/?confirm=…) and the password chosen at
 * sign-up (checked as a sign-in is). JSON body only.
 */
export const ConfirmSignUpSchema = v.object({
  Token: v.pipe(token, v.regex(/^[\w-]{20,100}$/, 'linkInvalid')),
  Password: currentPassword,
}, 'required');
export type ConfirmSignUpInput = v.InferOutput<typeof ConfirmSignUpSchema>;

/**
 * claimmigratedadvert (the /create/?claim=… screen, issue 18): the emailed link's token, and what /create
 * asks of every new advertiser: a new password, the date of birth (18 or older) and the terms.
 */
export const ClaimMigratedAdvertSchema = v.object(
  {
    Token: v.pipe(token, v.regex(/^[\w-]{20,100}$/, 'linkInvalid')),
    Password: newPassword,
    DateOfBirth: dateOfBirth,
    AcceptTerms: yes('acceptTerms'),
    Locale: locale,
  },
  'required',
);
export type ClaimMigratedAdvertInput = v.InferOutput<typeof ClaimMigratedAdvertSchema>;

/** claimpreview (GET): whose advert a claim link is for, before anything is typed. */
export const ClaimPreviewSchema = v.object({ Token: v.pipe(token, v.regex(/^[\w-]{20,100}$/, 'linkInvalid')) }, 'required');

/** resetpassword: the email to send a reset link to (the answer is the same whether it exists). */
export const ResetPasswordSchema = v.object({ Email: email }, 'required');
export type ResetPasswordInput = v.InferOutput<typeof ResetPasswordSchema>;

/** changepassword: from the reset link (/login/change/?token=…&id=…); spaces in the token are turned back into `+`. */
export const ChangePasswordSchema = v.object({
  Token: v.pipe(token, v.transform((value) => value.replace(/ /g, '+'))),
  Id: wholeNumber('linkInvalid'),
  Password: newPassword,
}, 'required');
export type ChangePasswordInput = v.InferOutput<typeof ChangePasswordSchema>;

/** updatepassword: the current password and a new, different one (backend). */
export const UpdatePasswordSchema = v.pipe(
  v.object({ Password: currentPassword, NewPassword: newPassword }, 'required'),
  v.forward(
    v.check((input) => input.NewPassword !== input.Password, 'samePassword'),
    ['NewPassword'],
  ),
);
export type UpdatePasswordInput = v.InferOutput<typeof UpdatePasswordSchema>;

/**
 * The outbox (support, and the tests): messages newest first, optionally only those to one recipient
 * (`To`: an email address, or a phone number in any way people type a Danish one).
 */
export const OutboxQuerySchema = v.object({
  To: v.optional(
    v.pipe(
      v.string('required'),
      v.trim(),
      v.maxLength(254, 'tooLong'),
      v.transform((value) => {
        const phone = normaliseDanishPhone(value);
        return phone ? `+45${phone}` : value.toLowerCase();
      }),
    ),
  ),
  Skip: v.optional(v.pipe(wholeNumber('number'), v.minValue(0, 'range')), 0),
  Take: v.optional(v.pipe(wholeNumber('number'), v.minValue(1, 'range'), v.maxValue(100, 'range')), 20),
}, 'required');
export type OutboxQueryInput = v.InferOutput<typeof OutboxQuerySchema>;
