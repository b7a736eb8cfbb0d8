import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets kept at rest encrypted (issue 15 item 10): AES-256-GCM with a key from the environment
 * (SECRETS_KEY, one key shared by every instance), so a copy of the database alone (a backup, a dump, a
 * read-only SQL injection) does not hold them. A stored value reads
 *
 *     sealed:v1:{key id}:{iv}:{ciphertext}:{tag}        (iv, ciphertext and tag base64url)
 *
 * The key id is the first 12 hex digits of SHA-256 over the key (says which key sealed a value, never
 * the key). Keys rotate: the current key seals, the current and every previous key
 * (SECRETS_KEY_PREVIOUS) open, and values sealed with an older key are sealed again with the current one
 * at start (`resealSupportSecrets`). Each value is bound to where it belongs (additional authenticated
 * data, e.g. `support_user:7:totp`), so a value copied to another row does not open.
 */

export const SEALED_PREFIX = 'sealed:v1:';

export type SecretKey = { id: string; key: Buffer };
/** The key that seals, and every key that opens (the current one first). */
export type SecretKeys = { current: SecretKey; all: SecretKey[] };

/** A secret that cannot be opened: sealed with a key we do not have, or changed. The message says which. */
export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyError';
  }
}

/** A 32-byte key written as base64 (44 characters, or 43 without padding / base64url) or as 64 hex digits. */
export function parseSecretKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return key.length === 32 ? key : null;
  }
  return null;
}

export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('secret-box key id\0').update(key).digest('hex').slice(0, 12);
}

/** The keys from the current key and the previous ones (each as parseSecretKey reads it). */
export function secretKeysFrom(current: Buffer, previous: Buffer[] = []): SecretKeys {
  const toKey = (key: Buffer): SecretKey => ({ id: keyIdOf(key), key });
  const first = toKey(current);
  const all = [first, ...previous.map(toKey).filter((key) => key.id !== first.id)];
  return { current: first, all };
}

/** A new random key as SECRETS_KEY takes it (base64). */
export function newSecretKeyText(): string {
  return randomBytes(32).toString('base64');
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX);
}

/** The id of the key a stored value was sealed with, or null when it is not sealed (stored in clear). */
export function sealedKeyId(stored: string): string | null {
  return isSealed(stored) ? (stored.slice(SEALED_PREFIX.length).split(':')[0] ?? null) : null;
}

/** Encrypts with the current key, bound to `context` (where the value belongs). */
export function sealSecret(keys: SecretKeys, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return `${SEALED_PREFIX}${keys.current.id}:${iv.toString('base64url')}:${ciphertext.toString('base64url')}:${tag.toString('base64url')}`;
}

/**
 * The secret of a stored value. A value stored in clear (written before encryption was added, not yet
 * sealed at start) is answered as it is. Throws SecretKeyError when the key is not known or the value
 * does not open with it (changed, or bound to another place).
 */
export function openSecret(keys: SecretKeys, stored: string, context: string): string {
  if (!isSealed(stored)) return stored;
  const [keyId, iv, ciphertext, tag] = stored.slice(SEALED_PREFIX.length).split(':');
  const key = keys.all.find((candidate) => candidate.id === keyId);
  if (!key) {
    throw new SecretKeyError(
      `A secret (${context}) is encrypted with key ${keyId}, which is neither SECRETS_KEY (${keys.current.id}) nor in SECRETS_KEY_PREVIOUS` +
        ` (${keys.all.slice(1).map((k) => k.id).join(', ') || 'none'}). Set the key it was encrypted with as SECRETS_KEY_PREVIOUS.`,
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv ?? '', 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext ?? '', 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretKeyError(`A secret (${context}) encrypted with key ${keyId} does not decrypt: it was changed or belongs elsewhere.`);
  }
}

/** Whether a stored value should be sealed again: stored in clear, or sealed with a key other than the current one. */
export function needsResealing(keys: SecretKeys, stored: string): boolean {
  return sealedKeyId(stored) !== keys.current.id;
}
