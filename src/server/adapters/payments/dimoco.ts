import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PaymentEvent, PaymentProvider, PaymentRequest, PaymentStart, RawPostback, RefusedPostback } from '../types.ts';
import { decimalAmount, oreOfDecimal } from './flexpay.ts';

/**
 * The carrier-billing provider (PAYMENT_CARRIER=dimoco), shaped by DIMOCO's form interface as far as it is
 * published (check the field names and status values against the merchant contract before going live,
 * docs/decisions/025-commerce.md):
 *
 * - start: the browser POSTs a form to DIMOCO_URL with `action=payment`, `merchant`, `order` (our
 *   reference), `amount` (decimal text), `currency`, `service_name`, `request_id` (unique per attempt),
 *   `url_callback`, `url_return` and `digest` = HMAC-SHA256(password, the values of every other field sorted
 *   by field name, concatenated), lowercase hex.
 * - callback: a form POST (`application/x-www-form-urlencoded`) to `url_callback` with `data` (the result)
 *   and `digest` = HMAC-SHA256(password, data). We read `data` as JSON: `action` (payment | refund),
 *   `merchant`, `order`, `request_id`, `status` (success | pending | failure | expired), `amount`,
 *   `currency`, `transaction_id`. Answered 200 `OK` (DIMOCO retries otherwise). DIMOCO can also send XML;
 *   that form is not read here (refused and stored: support sees it).
 *
 * success → paid, pending → pending, failure → failed, expired → expired; a `refund` action → refund. The
 * event key is `{action}:{transaction_id or request_id}:{status}`.
 */

/** HMAC-SHA256(password, text), lowercase hex. */
export const dimocoHmac = (password: string, text: string) => createHmac('sha256', password).update(text, 'utf8').digest('hex');

/** The start form's digest: the values of the fields sorted by name, concatenated. */
export function dimocoFormDigest(password: string, fields: Record<string, string>): string {
  const names = Object.keys(fields).filter((name) => name !== 'digest').sort();
  return dimocoHmac(password, names.map((name) => fields[name]).join(''));
}

export function dimocoStartForm(
  request: PaymentRequest,
  options: { merchant: string; password: string; action: string; requestId?: string },
): PaymentStart & { kind: 'form' } {
  const requestId = options.requestId ?? randomBytes(12).toString('hex');
  const fields: Record<string, string> = {
    action: 'payment',
    merchant: options.merchant,
    order: request.reference,
    amount: decimalAmount(request.amountOre),
    currency: request.currency,
    service_name: request.description,
    request_id: requestId,
    url_callback: request.postbackUrl,
    url_return: request.returnUrl,
    language: request.locale,
  };
  return { kind: 'form', action: options.action, fields: { ...fields, digest: dimocoFormDigest(options.password, fields) }, providerSessionId: requestId };
}

/** A callback's form body: `data` and its digest. */
export function signedDimocoCallback(password: string, data: Record<string, unknown>): string {
  const text = JSON.stringify(data);
  return new URLSearchParams({ data: text, digest: dimocoHmac(password, text) }).toString();
}

const KIND_OF: Record<string, PaymentEvent['kind']> = { success: 'paid', pending: 'pending', failure: 'failed', expired: 'expired' };

function sameDigest(given: string, expected: string): boolean {
  const a = Buffer.from(given.toLowerCase(), 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export function parseDimocoCallback(postback: RawPostback, options: { merchant: string; password: string }): PaymentEvent | RefusedPostback {
  if (postback.method !== 'POST') return { refused: 'not a POST callback' };
  const form = new URLSearchParams(postback.body);
  const data = form.get('data');
  const digest = form.get('digest');
  if (data === null || digest === null || form.getAll('data').length !== 1) return { refused: 'no data or digest' };
  if (!sameDigest(digest, dimocoHmac(options.password, data))) return { refused: 'bad digest' };
  let result: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed !== 'object' || parsed === null) return { refused: 'data is not a JSON object' };
    result = parsed as Record<string, unknown>;
  } catch {
    return { refused: 'data is not JSON (XML results are not read)' };
  }
  const text = (name: string) => (typeof result[name] === 'string' ? (result[name] as string) : undefined);
  if (text('merchant') !== options.merchant) return { refused: 'another merchant' };
  const action = text('action');
  const status = text('status') ?? '';
  const kind = action === 'refund' ? (status === 'success' ? 'refund' : undefined) : action === 'payment' ? KIND_OF[status] : undefined;
  if (!kind) return { refused: `unsupported ${action ?? '(no action)'} status ${status || '(none)'}` };
  const id = text('transaction_id') ?? text('request_id');
  if (!id) return { refused: 'no transaction_id or request_id' };
  const amountText = text('amount');
  const amountOre = amountText === undefined ? undefined : oreOfDecimal(amountText);
  if (amountOre === null) return { refused: 'unreadable amount' };
  const event: PaymentEvent = { eventKey: `${action}:${id}:${status}`, reference: text('order') ?? '', kind };
  if (amountOre !== undefined) event.amountOre = amountOre;
  const currency = text('currency');
  if (currency !== undefined) event.currency = currency;
  const transactionId = text('transaction_id');
  if (transactionId !== undefined) event.transactionId = transactionId;
  return event;
}

/** What DIMOCO expects to a callback it may stop sending. */
export const DIMOCO_POSTBACK_ANSWER = { status: 200, contentType: 'text/plain; charset=utf-8', body: 'OK' } as const;

export function createDimocoProvider(options: { merchant: string; password: string; /** DIMOCO_URL: where the start form is posted */ url: string }): PaymentProvider {
  return {
    name: 'dimoco',
    method: 'carrier',
    test: false,
    start: async (request) => dimocoStartForm(request, { merchant: options.merchant, password: options.password, action: options.url }),
    parsePostback: async (postback) => parseDimocoCallback(postback, options),
    postbackAnswer: DIMOCO_POSTBACK_ANSWER,
  };
}
