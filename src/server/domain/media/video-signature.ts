import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The video encoder's postbacks are signed like a webhook (docs/decisions/013): the header
 * `X-Encoder-Signature: sha256=<hex HMAC-SHA256 of the raw body>` with ENCODER_SECRET as the key.
 */
export const ENCODER_SIGNATURE_HEADER = 'x-encoder-signature';

export function signEncoderBody(body: string | Uint8Array, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Whether the header carries the body's signature; compared in constant time. */
export function isValidEncoderSignature(body: Uint8Array, header: string | undefined, secret: string): boolean {
  if (typeof header !== 'string' || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
  const given = Buffer.from(header.slice('sha256='.length).toLowerCase(), 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}
