/**
 * A question asked inside a form before it is sent (support's order status change, a product taken out of
 * sale): the form's onValid asks `mayProceed(values)` and stops when it answers false; the question
 * (`SendConfirmation`, an inline alertdialog in place of the submit button) shows what will happen, its
 * confirm button submits the form again, which then proceeds; Cancel, or any change to the form, closes it.
 */
import { useRef, useState } from 'react';
import { primaryButton, secondaryButton } from './form-text.ts';

export function useSendConfirmation<T>() {
  const [asking, setAsking] = useState<T | null>(null);
  const confirmed = useRef(false);
  const cancel = () => {
    confirmed.current = false;
    setAsking(null);
  };
  return {
    /** The values the question is about, while it is open. */
    asking,
    /** In onValid: true when these values were confirmed (send them); else the question opens. */
    mayProceed(values: T): boolean {
      if (confirmed.current) {
        cancel();
        return true;
      }
      setAsking(values);
      return false;
    },
    cancel,
    /** The confirm button: submit the form again, this time to be sent. */
    confirm(submit: () => Promise<void>) {
      confirmed.current = true;
      void submit();
    },
  };
}

type Props = {
  /** The id of the question's text (the alertdialog's name). */
  id: string;
  text: string;
  confirmLabel: string;
  busyLabel: string;
  cancelLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

export function SendConfirmation({ id, text, confirmLabel, busyLabel, cancelLabel, busy, onConfirm, onCancel }: Props) {
  return (
    <div role="alertdialog" aria-labelledby={id} className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4">
      <p id={id} className="text-sm text-ink">
        {text}
      </p>
      <div className="flex flex-wrap gap-3">
        <button type="button" className={primaryButton} disabled={busy} onClick={onConfirm}>
          {busy ? busyLabel : confirmLabel}
        </button>
        <button type="button" className={secondaryButton} onClick={onCancel}>
          {cancelLabel}
        </button>
      </div>
    </div>
  );
}
