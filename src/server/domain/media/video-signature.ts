import { isValidBodyHeader, signBodyHeader } from '../../signing.ts';

/**
 * The video encoder's postbacks are signed like a webhook (docs/decisions/013): the header
 * `X-Encoder-Signature: sha256=<hex HMAC-SHA256 of the raw body>` with ENCODER_SECRET as the key
 * (made and checked by src/server/signing.ts).
 */
export const ENCODER_SIGNATURE_HEADER = 'x-encoder-signature';

export function signEncoderBody(body: string | Uint8Array, secret: string): string {
  return signBodyHeader(body, secret);
}

/** Whether the header carries the body's signature; compared in constant time. */
export function isValidEncoderSignature(body: Uint8Array, header: string | undefined, secret: string): boolean {
  return isValidBodyHeader(body, header, secret);
}
