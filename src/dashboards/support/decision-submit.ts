/**
 * Sending a support decision (a report, an appeal, a verification, a review), the same way on every
 * decision screen: on success the form is clean (nothing unsaved is left to ask about) and `onDecided`
 * gets the answer; when another support user decided first (409 `alreadyDecided`) the form is clean too
 * and `onAlreadyDecided` runs (the screen says so and shows their decision); a refusal the screen words
 * itself goes to `onRefused` (it answers true when it took it); anything else goes on to the form, which
 * shows it above the fields and keeps what was typed.
 */
import { failureKey } from '../shared/form-text.ts';

export type DecisionHandlers<TAnswer> = {
  onDecided: (answer: TAnswer) => void;
  onAlreadyDecided: () => void;
  /** A refusal's key ('sameModerator', 'notSubmitted', …): true when the screen showed it. */
  onRefused?: (key: string) => boolean;
};

export async function sendDecision<TValues, TAnswer>(
  form: { reset: (values: TValues) => void },
  values: TValues,
  send: () => Promise<TAnswer>,
  handlers: DecisionHandlers<TAnswer>,
): Promise<void> {
  let answer: TAnswer;
  try {
    answer = await send();
  } catch (error) {
    // The key is read from the answer's field errors, whatever the error's class: a 409 is an HttpError.
    const key = failureKey(error);
    if (key === 'alreadyDecided') {
      form.reset(values);
      handlers.onAlreadyDecided();
      return;
    }
    if (handlers.onRefused?.(key)) return;
    throw error;
  }
  form.reset(values);
  handlers.onDecided(answer);
}
