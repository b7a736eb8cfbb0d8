import { describe, expect, it } from 'vitest';
import {
  SecretKeyError,
  keyIdOf,
  needsResealing,
  openSecret,
  parseSecretKey,
  sealSecret,
  sealedKeyId,
  secretKeysFrom,
} from '#server/domain/secret-box.ts';

const keyA = Buffer.alloc(32, 1);
const keyB = Buffer.alloc(32, 2);

describe('secret box (AES-256-GCM with key ids)', () => {
  it('reads keys as base64, base64url or hex, and nothing of another size', () => {
    expect(parseSecretKey(keyA.toString('base64'))).toEqual(keyA);
    expect(parseSecretKey(keyA.toString('base64url'))).toEqual(keyA);
    expect(parseSecretKey(` ${keyA.toString('hex')}\n`)).toEqual(keyA);
    expect(parseSecretKey(Buffer.alloc(16).toString('base64'))).toBeNull();
    expect(parseSecretKey('secret')).toBeNull();
  });

  it('seals with a fresh IV each time, names the key, and opens only in the same place', () => {
    const keys = secretKeysFrom(keyA);
    const first = sealSecret(keys, 'JBSWY3DPEHPK3PXP', 'support_user:1:totp');
    const second = sealSecret(keys, 'JBSWY3DPEHPK3PXP', 'support_user:1:totp');
    expect(first).not.toBe(second);
    expect(first).not.toContain('JBSWY3DPEHPK3PXP');
    expect(sealedKeyId(first)).toBe(keyIdOf(keyA));
    expect(openSecret(keys, first, 'support_user:1:totp')).toBe('JBSWY3DPEHPK3PXP');
    expect(() => openSecret(keys, first, 'support_user:2:totp')).toThrow(SecretKeyError);
    const tampered = first.slice(0, -3) + (first.endsWith('AAA') ? 'BBB' : 'AAA');
    expect(() => openSecret(keys, tampered, 'support_user:1:totp')).toThrow(/does not decrypt/);
  });

  it('opens with a previous key, marks such values for resealing, and names the missing key otherwise', () => {
    const old = sealSecret(secretKeysFrom(keyA), 'SECRET', 'x');
    const rotated = secretKeysFrom(keyB, [keyA]);
    expect(openSecret(rotated, old, 'x')).toBe('SECRET');
    expect(needsResealing(rotated, old)).toBe(true);
    expect(needsResealing(rotated, sealSecret(rotated, 'SECRET', 'x'))).toBe(false);
    expect(needsResealing(rotated, 'SECRET')).toBe(true);
    expect(openSecret(rotated, 'SECRET', 'x')).toBe('SECRET');
    expect(() => openSecret(secretKeysFrom(keyB), old, 'x')).toThrow(new RegExp(`encrypted with key ${keyIdOf(keyA)}`));
  });
});
