/**
 * A day field (issue 31, item 9): typed as dd-mm-yyyy, the order every date is shown in here, never the
 * browser's date picker, whose order follows the browser's language (mm/dd/yyyy in an English Chromium).
 * The schemas read what is typed (`typedDay`); addresses and calls carry yyyy-MM-dd (`dayFieldValue`).
 */
import type { InputHTMLAttributes, Ref } from 'react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode' | 'maxLength'> & {
  /** "dd-mm-åååå" or "dd-mm-yyyy": the catalog's `dayField.placeholder`. */
  placeholder: string;
  ref?: Ref<HTMLInputElement>;
};

export function DayInput(props: Props) {
  return <input type="text" inputMode="numeric" autoComplete="off" maxLength={10} {...props} />;
}
