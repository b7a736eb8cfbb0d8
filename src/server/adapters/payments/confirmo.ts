import { createHash, timingSafeEqual } from 'node:crypto';
import { PaymentProviderUnavailableError, type PaymentEvent, type PaymentProvider, type RawPostback, type RefusedPostback } from '../types.ts';
import { decimalAmount, oreOfDecimal } from './flexpay.ts';

/**
 * The crypto provider (PAYMENT_CRYPTO=confirmo), shaped by Confirmo's published API (docs.confirmo.net):
 *
 * - start: `POST {CONFIRMO_URL}/api/v3/invoices` (Bearer CONFIRMO_API_KEY) with the amount to charge in
 *   the merchant's currency (`invoice.amount` decimal text, `invoice.currencyFrom` DKK), `settlement`,
 *   `product`, our `reference`, `returnUrl` and `notifyUrl`; the answer's `url` is the invoice page the
 *   buyer goes to, its `id` the invoice.
 * - notification: a POST of the whole invoice as JSON to `notifyUrl` on every status change, with the
 *   header `BP-Signature` = sha256(body + callback password), lowercase hex. Confirmo retries until it gets
 *   a 200.
 * - **the postback alone is never trusted**: after the signature, `GET /api/v3/invoices/{id}` reads the
 *   invoice back, and ITS status, amount, currency and reference are what count. A postback whose invoice
 *   names another reference, another amount or currency, or claims a status the invoice has not reached,
 *   is refused (stored, nothing changes). A postback of an earlier status than the invoice now has is read
 *   as the invoice's status (its event key is the invoice's, so the later postback is a duplicate).
 *
 * Statuses: prepared and active → pending (the buyer has the invoice), confirming → pending, paid → paid,
 * expired → expired, error → failed. The event key is `{invoiceId}:{status}`. Refunds at Confirmo are made
 * in its dashboard and sent to the buyer's address: here support's refund is the path (decision 025).
 */

export const CONFIRMO_STATUSES = ['prepared', 'active', 'confirming', 'paid', 'expired', 'error'] as const;
export type ConfirmoStatus = (typeof CONFIRMO_STATUSES)[number];

/** The part of Confirmo's invoice model we read (the rest is kept raw in payment_events). */
export type ConfirmoInvoice = {
  id: string;
  status: ConfirmoStatus;
  reference?: string | null;
  merchantAmount?: { amount: string; currency: string } | null;
  url?: string;
  returnUrl?: string | null;
  notifyUrl?: string | null;
};

const KIND_OF: Record<ConfirmoStatus, PaymentEvent['kind']> = {
  prepared: 'pending',
  active: 'pending',
  confirming: 'pending',
  paid: 'paid',
  expired: 'expired',
  error: 'failed',
};

/** How far along an invoice is: a postback may not claim more than the invoice read back says. */
const RANK: Record<ConfirmoStatus, number> = { prepared: 0, active: 1, confirming: 2, paid: 3, expired: 3, error: 3 };

/** Confirmo's BP-Signature: sha256(body + callback password), lowercase hex. */
export function confirmoSignature(body: string, password: string): string {
  return createHash('sha256').update(body + password, 'utf8').digest('hex');
}

const header = (headers: RawPostback['headers'], name: string) => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

function isSigned(body: string, given: string | undefined, password: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given.toLowerCase(), 'utf8');
  const b = Buffer.from(confirmoSignature(body, password), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

const isStatus = (value: unknown): value is ConfirmoStatus => typeof value === 'string' && (CONFIRMO_STATUSES as readonly string[]).includes(value);

/** Reads an invoice from JSON as Confirmo writes it; null when it is not one. */
export function readConfirmoInvoice(value: unknown): ConfirmoInvoice | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  if (typeof record['id'] !== 'string' || !/^[\w-]{1,64}$/.test(record['id']) || !isStatus(record['status'])) return null;
  const amount = record['merchantAmount'] as { amount?: unknown; currency?: unknown } | null | undefined;
  return {
    id: record['id'],
    status: record['status'],
    reference: typeof record['reference'] === 'string' ? record['reference'] : null,
    merchantAmount: amount && typeof amount.amount === 'string' && typeof amount.currency === 'string' ? { amount: amount.amount, currency: amount.currency } : null,
  };
}

/**
 * Reads a Confirmo notification: the signature over the raw body, then the invoice read back from the
 * provider (`readInvoice`), which must agree with the notification; the event is the invoice's.
 */
export async function parseConfirmoPostback(
  postback: RawPostback,
  options: { callbackPassword: string; readInvoice: (id: string) => Promise<ConfirmoInvoice | null> },
): Promise<PaymentEvent | RefusedPostback> {
  if (postback.method !== 'POST') return { refused: 'not a POST notification' };
  if (!isSigned(postback.body, header(postback.headers, 'bp-signature'), options.callbackPassword)) return { refused: 'bad signature' };
  let told: ConfirmoInvoice | null;
  try {
    told = readConfirmoInvoice(JSON.parse(postback.body));
  } catch {
    told = null;
  }
  if (!told) return { refused: 'not an invoice' };
  let invoice: ConfirmoInvoice | null;
  try {
    invoice = await options.readInvoice(told.id);
  } catch (error) {
    // Not refused for good: Confirmo sends it again when it is not answered 200.
    return { refused: `the invoice could not be read back (${error instanceof Error ? error.message : 'error'})` };
  }
  if (!invoice || invoice.id !== told.id) return { refused: 'the provider knows no such invoice' };
  if ((invoice.reference ?? '') !== (told.reference ?? '')) return { refused: 'the invoice read back names another reference' };
  if (told.merchantAmount && (told.merchantAmount.amount !== invoice.merchantAmount?.amount || told.merchantAmount.currency !== invoice.merchantAmount.currency)) {
    return { refused: 'the invoice read back has another amount' };
  }
  if (RANK[told.status] > RANK[invoice.status] || (RANK[told.status] === RANK[invoice.status] && told.status !== invoice.status)) {
    return { refused: `the notification says ${told.status}, the invoice read back ${invoice.status}` };
  }
  const amountOre = invoice.merchantAmount ? oreOfDecimal(invoice.merchantAmount.amount) : undefined;
  if (amountOre === null) return { refused: 'unreadable amount' };
  const event: PaymentEvent = { eventKey: `${invoice.id}:${invoice.status}`, reference: invoice.reference ?? '', kind: KIND_OF[invoice.status], transactionId: invoice.id };
  if (amountOre !== undefined) event.amountOre = amountOre;
  if (invoice.merchantAmount) event.currency = invoice.merchantAmount.currency;
  return event;
}

/** Confirmo retries a notification until it is answered 200. */
export const CONFIRMO_POSTBACK_ANSWER = { status: 200, contentType: 'application/json; charset=utf-8', body: '{"received":true}' } as const;

/** `GET {base}/api/v3/invoices/{id}` with the API key; null when the provider knows no such invoice. */
export async function fetchConfirmoInvoice(
  base: string,
  apiKey: string,
  id: string,
  options: { timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<ConfirmoInvoice | null> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(`${base}/api/v3/invoices/${encodeURIComponent(id)}`, {
      headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
  } catch (error) {
    throw new PaymentProviderUnavailableError('the crypto provider could not be reached', { cause: error });
  }
  if (response.status === 404) {
    await response.arrayBuffer();
    return null;
  }
  if (!response.ok) {
    await response.arrayBuffer();
    throw new PaymentProviderUnavailableError(`the crypto provider answered ${response.status}`);
  }
  return readConfirmoInvoice(await response.json());
}

export function createConfirmoProvider(options: {
  apiKey: string;
  callbackPassword: string;
  /** CONFIRMO_URL, e.g. https://confirmo.net */
  url: string;
  /** The currency Confirmo settles in (what we are paid out); DKK by default. */
  settlementCurrency?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): PaymentProvider {
  const base = options.url.replace(/\/$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    name: 'confirmo',
    method: 'crypto',
    test: false,
    start: async (request) => {
      let response: Response;
      try {
        response = await doFetch(`${base}/api/v3/invoices`, {
          method: 'POST',
          headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            settlement: { currency: options.settlementCurrency ?? request.currency },
            invoice: { currencyFrom: request.currency, amount: decimalAmount(request.amountOre) },
            product: { name: request.description },
            reference: request.reference,
            returnUrl: request.returnUrl,
            notifyUrl: request.postbackUrl,
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new PaymentProviderUnavailableError('the crypto provider could not be reached', { cause: error });
      }
      if (!response.ok) {
        await response.arrayBuffer();
        throw new PaymentProviderUnavailableError(`the crypto provider answered ${response.status} to a new invoice`);
      }
      const created = (await response.json()) as { id?: unknown; url?: unknown };
      if (typeof created.id !== 'string' || typeof created.url !== 'string' || !/^https?:\/\//.test(created.url)) {
        throw new PaymentProviderUnavailableError('the crypto provider answered without an invoice id and url');
      }
      return { kind: 'redirect', url: created.url, providerSessionId: created.id };
    },
    parsePostback: async (postback) =>
      parseConfirmoPostback(postback, {
        callbackPassword: options.callbackPassword,
        readInvoice: (id) => fetchConfirmoInvoice(base, options.apiKey, id, { timeoutMs, fetch: doFetch }),
      }),
    postbackAnswer: CONFIRMO_POSTBACK_ANSWER,
  };
}
