import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Our own HMAC-SHA256 signatures, made and checked in one place: a signed string (the TEST age provider's
 * session ids, base64url), and the `sha256=<hex>` header of a signed body (the video encoder's postbacks,
 * the TEST age provider's callbacks). A signature is compared in constant time. Here, beside the domain
 * rather than in it, as adapters sign too. The payment providers' signatures follow each provider's
 * specification (adapters/payments/) and are made there.
 */

export type SignatureEncoding = 'base64url' | 'hex';

/** The HMAC-SHA256 of `data` keyed with `secret`, base64url (or hex). */
export function signHmac(data: string | Uint8Array, secret: string, encoding: SignatureEncoding = 'base64url'): string {
  return createHmac('sha256', secret).update(data).digest(encoding);
}

/**
 * Whether `signature` (base64url, or hex) is the HMAC-SHA256 of `data` keyed with `secret`; compared in
 * constant time. The caller checks the signature's form first (its length, its alphabet).
 */
export function isValidHmac(data: string | Uint8Array, signature: string, secret: string, encoding: SignatureEncoding = 'base64url'): boolean {
  const given = Buffer.from(signature, encoding);
  const expected = createHmac('sha256', secret).update(data).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The signature header of a signed body, as webhooks have it: `sha256=<hex HMAC-SHA256 of the raw body>`. */
export function signBodyHeader(body: string | Uint8Array, secret: string): string {
  return `sha256=${signHmac(body, secret, 'hex')}`;
}

/** Whether a `sha256=<hex>` header carries the raw body's signature (`signBodyHeader`). */
export function isValidBodyHeader(body: Uint8Array, header: string | undefined, secret: string): boolean {
  if (typeof header !== 'string' || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
  return isValidHmac(body, header.slice('sha256='.length), secret, 'hex');
}
