import * as v from 'valibot';

/** Sign-in for advertisers and for support staff. Messages are i18n keys under `validation.`. */
export const SignInSchema = v.object({
  email: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.email('email'), v.maxLength(254, 'tooLong')),
  password: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(200, 'tooLong')),
});

export type SignInInput = v.InferOutput<typeof SignInSchema>;
