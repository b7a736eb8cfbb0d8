/**
 * Codes of an authenticator app for tests (RFC 6238: SHA-1, 6 digits, 30-second steps), computed with the
 * server's own TOTP functions (tests/unit/totp.test.ts checks those against the RFC's test vectors).
 * A code works once: after a step was used (to confirm the setup or to sign in) the next sign-in takes
 * a later step; the server accepts one step either side of its clock.
 */
import { base32Decode, totpCode, totpStep } from '../../src/server/domain/support-users/totp.ts';

/** The step the clock is in now. */
export function currentStep(at = new Date()): number {
  return totpStep(at);
}

/** The code of a step of a base32 secret (spaces allowed, as the screen groups it). */
export function codeAt(secret: string, step: number): string {
  return totpCode(base32Decode(secret), step);
}

/** A 6-digit code the server refuses now (none of the steps it accepts gives it). */
export function wrongCode(secret: string, at = new Date()): string {
  const accepted = new Set([-1, 0, 1, 2].map((offset) => codeAt(secret, currentStep(at) + offset)));
  for (let n = 0; ; n += 1) {
    const candidate = String((123456 + n * 111111) % 1_000_000).padStart(6, '0');
    if (!accepted.has(candidate)) return candidate;
  }
}
