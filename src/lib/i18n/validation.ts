/**
 * Validation messages (from the valibot schemas in src/lib/schemas and from the API's problem+json
 * `errors[].message`) are keys such as 'required' or 'email'; their texts live under `validation.` in the
 * common catalog. An unknown key falls back to the generic `validation.invalid`.
 */
export function validationKey(message: string, has: (key: string) => boolean): string {
  const key = message.startsWith('validation.') ? message : `validation.${message}`;
  return has(key) ? key : 'validation.invalid';
}
