/** Translating the message keys the account forms show (notices and field errors) with an island's messages. */
import { messagesT, type Messages } from '#lib/i18n/messages.ts';
import { validationKey } from '#lib/i18n/validation.ts';

export type AccountTexts = {
  t: ReturnType<typeof messagesT>;
  /** A validation message key of a schema or the API ('required', 'validation.underAge', …) → its text. */
  field: (message: string | undefined) => string | undefined;
  /** A notice key of `useApiForm` ('validation.requiredFields', 'errors.network', or a validation key) → its text. */
  notice: (key: string | null) => string | null;
};

export function accountTexts(messages: Messages): AccountTexts {
  const t = messagesT(messages);
  const has = (key: string) => key in messages;
  const field = (message: string | undefined) => (message ? t(validationKey(message, has)) : undefined);
  return {
    t,
    field,
    notice: (key) => (key === null ? null : has(key) ? t(key) : t(validationKey(key, has))),
  };
}
