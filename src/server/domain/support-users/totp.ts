import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP) with HMAC-SHA1, as authenticator apps
 * use them: 30-second steps, 6 digits, base32 secrets. Small enough to keep here rather than add a
 * library; tests/unit/totp.test.ts checks it against the RFC's test vectors.
 */

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (what otpauth URIs carry). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32, ignoring case, spaces and padding; throws on any other character. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32_ALPHABET.indexOf(char);
    if (index < 0) throw new Error('Not a base32 string');
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes (160 bits, as RFC 4226 recommends), base32. */
export function generateTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The step a moment falls in (seconds since the epoch / period). */
export function totpStep(at: Date, periodSeconds = TOTP_PERIOD_SECONDS): number {
  return Math.floor(at.getTime() / 1000 / periodSeconds);
}

/** The code of one step (HOTP with the step as counter), `digits` long with leading zeros. */
export function totpCode(secret: Uint8Array, step: number, digits = TOTP_DIGITS): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', secret).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

/**
 * Checks a code against the steps around `at` (±`window`, for clocks that differ a little) and answers
 * the step it matched, or null. A step at or before `lastUsedStep` is refused: a code works once.
 */
export function verifyTotp(
  secretBase32: string,
  code: string,
  at: Date,
  options: { window?: number; digits?: number; lastUsedStep?: number | null } = {},
): number | null {
  const digits = options.digits ?? TOTP_DIGITS;
  const window = options.window ?? 1;
  const given = code.replace(/\s/g, '');
  if (!new RegExp(`^\\d{${digits}}$`).test(given)) return null;
  const secret = base32Decode(secretBase32);
  const current = totpStep(at);
  let matched: number | null = null;
  // Every candidate is compared (no early return) so the time taken says nothing about which matched.
  for (let step = current - window; step <= current + window; step += 1) {
    const expected = totpCode(secret, step, digits);
    if (timingSafeEqual(Buffer.from(expected), Buffer.from(given)) && matched === null) matched = step;
  }
  if (matched === null) return null;
  if (options.lastUsedStep != null && matched <= options.lastUsedStep) return null;
  return matched;
}

/** The otpauth URI an authenticator app reads from the QR code (Key Uri Format). */
export function totpUri(options: { issuer: string; account: string; secret: string }): string {
  const label = `${encodeURIComponent(options.issuer)}:${encodeURIComponent(options.account)}`;
  const query = new URLSearchParams({
    secret: options.secret,
    issuer: options.issuer,
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
    algorithm: 'SHA1',
  });
  return `otpauth://totp/${label}?${query.toString().replace(/\+/g, '%20')}`;
}
