import * as v from 'valibot';

/** A support user as Administration creates it (used by the support app's form and the API). */
export const SupportUserSchema = v.object({
  email: v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.email('email')),
  name: v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.maxLength(120, 'tooLong')),
  password: v.pipe(v.string(), v.minLength(12, 'passwordTooShort'), v.maxLength(200, 'tooLong')),
  permissions: v.pipe(
    v.array(v.picklist(['Support', 'SEO', 'Administration'], 'permission')),
    v.minLength(1, 'required'),
  ),
});

export type SupportUserInput = v.InferOutput<typeof SupportUserSchema>;
