/**
 * Two-step sign-in turned on over HTTP, as a signed-in support user does it (decision 014): the setup with
 * their password answers the secret, and a code of the clock's step confirms it. No assertions (no vitest):
 * the integration tests assert on the answers (`enableTwoFactor`, tests/integration/support-helpers.ts),
 * the bench throws on them (scripts/bench-statistics.ts).
 */
import { codeAt, currentStep } from './totp.ts';

/** One call's answer: its status and its body as text. */
export type TwoFactorAnswer = { status: number; ok: boolean; text: string };

export type TwoFactorTurnedOn = {
  setup: TwoFactorAnswer;
  /** null when the setup was refused (nothing to confirm). */
  confirm: TwoFactorAnswer | null;
  /** The base32 secret the setup answered; null when it was refused. */
  secret: string | null;
};

/**
 * POSTs /api/support/twofactorsetup with the password, then /api/support/twofactorconfirm with the code of
 * the step `clock` says (asked after the setup), for the session `cookie` on the server at `url`.
 */
export async function turnOnTwoFactor(
  url: string,
  cookie: string,
  password: string,
  clock: () => Date = () => new Date(),
): Promise<TwoFactorTurnedOn> {
  const post = async (call: string, body: unknown): Promise<TwoFactorAnswer> => {
    const response = await fetch(`${url}/api/support/${call}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(body),
    });
    return { status: response.status, ok: response.ok, text: await response.text() };
  };
  const setup = await post('twofactorsetup', { Password: password });
  if (!setup.ok) return { setup, confirm: null, secret: null };
  const { secret } = JSON.parse(setup.text) as { secret: string };
  const confirm = await post('twofactorconfirm', { Code: codeAt(secret, currentStep(clock())) });
  return { setup, confirm, secret };
}
