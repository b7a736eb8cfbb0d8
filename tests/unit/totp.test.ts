import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  generateTotpSecret,
  totpCode,
  totpStep,
  totpUri,
  verifyTotp,
} from '#server/domain/support-users/totp.ts';

/** RFC 6238 appendix B, SHA-1: the secret is the ASCII string "12345678901234567890", 8 digits. */
const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');
const RFC_VECTORS: [seconds: number, code: string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238, SHA-1)', () => {
  it('gives the RFC test vectors', () => {
    for (const [seconds, code] of RFC_VECTORS) {
      expect(totpCode(RFC_SECRET, totpStep(new Date(seconds * 1000)), 8)).toBe(code);
    }
  });

  it('verifies a code within one step either side and answers the step it matched', () => {
    const secret = base32Encode(RFC_SECRET);
    const at = new Date(1111111111 * 1000);
    const step = totpStep(at);
    expect(verifyTotp(secret, '14050471', at, { digits: 8 })).toBe(step);
    const previous = totpCode(RFC_SECRET, step - 1);
    const next = totpCode(RFC_SECRET, step + 1);
    expect(verifyTotp(secret, previous, at)).toBe(step - 1);
    expect(verifyTotp(secret, next, at)).toBe(step + 1);
    expect(verifyTotp(secret, totpCode(RFC_SECRET, step + 2), at)).toBeNull();
    expect(verifyTotp(secret, totpCode(RFC_SECRET, step - 2), at)).toBeNull();
  });

  it('refuses a step already used, malformed codes and wrong codes', () => {
    const secret = generateTotpSecret();
    const at = new Date('2026-11-22T12:00:10Z');
    const step = totpStep(at);
    const code = totpCode(base32Decode(secret), step);
    expect(verifyTotp(secret, code, at, { lastUsedStep: step - 1 })).toBe(step);
    expect(verifyTotp(secret, code, at, { lastUsedStep: step })).toBeNull();
    expect(verifyTotp(secret, `${code.slice(0, 3)} ${code.slice(3)}`, at)).toBe(step);
    expect(verifyTotp(secret, '12345', at)).toBeNull();
    expect(verifyTotp(secret, 'abcdef', at)).toBeNull();
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(verifyTotp(secret, wrong, at)).not.toBe(step);
  });

  it('encodes base32 as RFC 4648 does and decodes it back', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Encode(RFC_SECRET)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('mzxw6ytboi======').toString()).toBe('foobar');
    expect(() => base32Decode('not base32!')).toThrow();
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
  });

  it('writes the otpauth URI authenticator apps read', () => {
    expect(totpUri({ issuer: 'Annoncekatalog', account: 'anna@example.test', secret: 'ABC' })).toBe(
      'otpauth://totp/Annoncekatalog:anna%40example.test?secret=ABC&issuer=Annoncekatalog&digits=6&period=30&algorithm=SHA1',
    );
  });
});
