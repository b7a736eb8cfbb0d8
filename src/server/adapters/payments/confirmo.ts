import { createHash, timingSafeEqual } from 'node:crypto';
import { PaymentProviderUnavailableError, type PaymentEvent, type PaymentProvider, type RawPostback, type RefusedPostback } from '../types.ts';

/**
 * The crypto provider, Confirmo (docs/payments/confirmo.md), as its published API v3 describes it
 * (https://docs.confirmo.net/reference/invoice-creation, /reference/notifications, /docs/invoice-lifecycle,
 * /docs/processing-webhooks). The one adapter: PAYMENT_CRYPTO=confirmo runs it against CONFIRMO_URL, and
 * PAYMENT_CRYPTO=test runs the same code against the built-in TEST stand-in of Confirmo on this server
 * (./test-crypto-provider.ts), with `test: true` (its references start 'TEST-PAY-').
 *
 * - start: `POST {url}/api/v3/invoices` (Bearer the API key) with the amount to charge in the merchant's
 *   currency (`invoice.amount`, a JSON number as in Confirmo's examples, `invoice.currencyFrom` DKK) and no
 *   `currencyTo` (the buyer picks the coin: the invoice starts `prepared`), `settlement`, `product`, our
 *   `reference`, `returnUrl` (our callback screen, with `type=crypto&referenceID=`) and `notifyUrl`; the
 *   answer is the invoice: its `url` is the page the buyer goes to, its `id` the invoice.
 * - notification: a POST of the whole invoice as JSON to `notifyUrl` at its creation and on every status
 *   change, with the header `BP-Signature` = sha256(body + callback password), hex. Confirmo tries up to 20
 *   times until it gets a 200.
 * - **the notification alone is never trusted**: after the signature, `GET {url}/api/v3/invoices/{id}`
 *   reads the invoice back, and ITS status, amount, currency and reference are what count. A notification
 *   whose invoice names another reference, another amount or currency, or claims a status the invoice has
 *   not reached, is refused (stored, nothing changes). A notification of an earlier status than the invoice
 *   now has is read as the invoice's status (its event key is the invoice's, so the later one is a copy).
 * - amounts: Confirmo's examples write `invoice.amount` as a number (`100`) and the invoice model's
 *   `merchantAmount.amount` as a decimal string (`"100"`); either is read here, from its decimal text
 *   (a JSON number's own text as sent, never through a float), to exact øre; more than two decimals
 *   (other than zeros) are refused.
 *
 * Statuses: prepared, active, confirming and pending_verification → pending (the buyer has the invoice or
 * the payment is on its way), paid → paid, expired → expired, error → failed. The event key is
 * `{invoiceId}:{status}`. Refunds at Confirmo are made in its dashboard and sent to the buyer's address:
 * here support's refund is the path (decision 025).
 */

export const CONFIRMO_STATUSES = ['prepared', 'active', 'confirming', 'pending_verification', 'paid', 'expired', 'error'] as const;
export type ConfirmoStatus = (typeof CONFIRMO_STATUSES)[number];

/** The part of Confirmo's invoice model we read (the rest is kept raw in payment_events). */
export type ConfirmoInvoice = {
  id: string;
  status: ConfirmoStatus;
  reference: string | null;
  /** `merchantAmount`: what the invoice charges in the merchant's currency; `ore` null when it is no exact amount. */
  merchantAmount: { ore: number | null; currency: string } | null;
  /** The invoice page (in the answer to a new invoice). */
  url: string | null;
};

const KIND_OF: Record<ConfirmoStatus, PaymentEvent['kind']> = {
  prepared: 'pending',
  active: 'pending',
  confirming: 'pending',
  pending_verification: 'pending',
  paid: 'paid',
  expired: 'expired',
  error: 'failed',
};

/**
 * How far along an invoice is (https://docs.confirmo.net/docs/invoice-lifecycle): prepared → active →
 * confirming → pending_verification; expired and error end it unless a payment is accepted after all
 * (→ paid). A notification may not claim more than the invoice read back says.
 */
const RANK: Record<ConfirmoStatus, number> = { prepared: 0, active: 1, confirming: 2, pending_verification: 3, expired: 4, error: 4, paid: 5 };

/** Confirmo's BP-Signature: sha256(body + callback password), lowercase hex. */
export function confirmoSignature(body: string, password: string): string {
  return createHash('sha256').update(body + password, 'utf8').digest('hex');
}

const DECIMAL = /^(\d{1,9})(?:\.(\d{1,20}))?$/;

/**
 * An amount as Confirmo writes it (a JSON number or a decimal string) → øre, read from its decimal text:
 * `1199` and `"1199"` → 119900, `19.99` → 1999, `0.1` → 10. Null when it is not an exact amount in øre:
 * a negative, an exponent, more than two decimals (other than trailing zeros: `"499.000"` is 49900), or no
 * amount at all. A number is read from the text JavaScript writes for it (the shortest that reads back as
 * the same number, i.e. the text sent for any amount with up to 15 digits); `parseConfirmoJson` keeps the
 * text as sent.
 */
export function oreOfConfirmoAmount(value: unknown): number | null {
  const text = typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : null;
  if (text === null) return null;
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const decimals = (match[2] ?? '').replace(/0+$/, '');
  if (decimals.length > 2) return null;
  return Number(match[1]) * 100 + Number(decimals.padEnd(2, '0'));
}

/** Øre → the amount as Confirmo's examples write a new invoice's `invoice.amount`: a JSON number (49900 → 499, 1999 → 19.99). */
export function confirmoAmount(ore: number): number {
  if (!Number.isSafeInteger(ore) || ore < 0) throw new RangeError(`not an amount in øre: ${ore}`);
  return ore / 100;
}

/** Øre → a decimal string as Confirmo's invoice model writes `merchantAmount.amount` (49900 → "499", 1990 → "19.9"). */
export function confirmoDecimal(ore: number): string {
  const cents = String(ore % 100).padStart(2, '0').replace(/0+$/, '');
  return cents ? `${Math.floor(ore / 100)}.${cents}` : String(Math.floor(ore / 100));
}

/**
 * JSON.parse for Confirmo's bodies that keeps each `amount` number's text as it was sent (JSON.parse source
 * text access, Node 24), so `oreOfConfirmoAmount` reads exactly what Confirmo wrote.
 */
export function parseConfirmoJson(text: string): unknown {
  return JSON.parse(text, (key: string, value: unknown, context?: { source?: string }) =>
    key === 'amount' && typeof value === 'number' ? (context?.source ?? String(value)) : value,
  );
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

export const isConfirmoStatus = (value: unknown): value is ConfirmoStatus => typeof value === 'string' && (CONFIRMO_STATUSES as readonly string[]).includes(value);

/** Reads an invoice from JSON as Confirmo writes it; null when it is not one. */
export function readConfirmoInvoice(value: unknown): ConfirmoInvoice | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  if (typeof record['id'] !== 'string' || !/^[\w-]{1,64}$/.test(record['id']) || !isConfirmoStatus(record['status'])) return null;
  const amount = record['merchantAmount'] as { amount?: unknown; currency?: unknown } | null | undefined;
  return {
    id: record['id'],
    status: record['status'],
    reference: typeof record['reference'] === 'string' ? record['reference'] : null,
    merchantAmount:
      amount && typeof amount === 'object' && amount.amount !== undefined && amount.amount !== null && typeof amount.currency === 'string'
        ? { ore: oreOfConfirmoAmount(amount.amount), currency: amount.currency }
        : null,
    url: typeof record['url'] === 'string' ? record['url'] : null,
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
    told = readConfirmoInvoice(parseConfirmoJson(postback.body));
  } catch {
    told = null;
  }
  if (!told) return { refused: 'not an invoice' };
  if (told.merchantAmount && told.merchantAmount.ore === null) return { refused: 'unreadable amount' };
  let invoice: ConfirmoInvoice | null;
  try {
    invoice = await options.readInvoice(told.id);
  } catch (error) {
    // Not refused for good: Confirmo sends it again when it is not answered 200.
    return { refused: `the invoice could not be read back (${error instanceof Error ? error.message : 'error'})` };
  }
  if (!invoice || invoice.id !== told.id) return { refused: 'the provider knows no such invoice' };
  if ((invoice.reference ?? '') !== (told.reference ?? '')) return { refused: 'the invoice read back names another reference' };
  if (invoice.merchantAmount && invoice.merchantAmount.ore === null) return { refused: 'unreadable amount' };
  if (told.merchantAmount && (told.merchantAmount.ore !== invoice.merchantAmount?.ore || told.merchantAmount.currency !== invoice.merchantAmount.currency)) {
    return { refused: 'the invoice read back has another amount' };
  }
  if (RANK[told.status] > RANK[invoice.status] || (RANK[told.status] === RANK[invoice.status] && told.status !== invoice.status)) {
    return { refused: `the notification says ${told.status}, the invoice read back ${invoice.status}` };
  }
  const event: PaymentEvent = { eventKey: `${invoice.id}:${invoice.status}`, reference: invoice.reference ?? '', kind: KIND_OF[invoice.status], transactionId: invoice.id };
  if (invoice.merchantAmount) {
    event.amountOre = invoice.merchantAmount.ore!;
    event.currency = invoice.merchantAmount.currency;
  }
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
  return readConfirmoInvoice(parseConfirmoJson(await response.text()));
}

/** The callback screen's address with the query it finds the order by (Confirmo sends the buyer to `returnUrl` as given). */
function returnUrlOf(returnUrl: string, reference: string): string {
  const query = new URLSearchParams({ type: 'crypto', referenceID: reference });
  return `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}${query.toString()}`;
}

export function createConfirmoProvider(options: {
  apiKey: string;
  callbackPassword: string;
  /**
   * CONFIRMO_URL, e.g. https://confirmo.net; for the TEST stand-in, this server's own listening address
   * (known once it listens, hence a function) and /test-payments/crypto.
   */
  url: string | (() => string);
  /** The currency Confirmo settles in (what we are paid out); the invoice's currency by default. */
  settlementCurrency?: string;
  /** The built-in TEST stand-in answers: no money moves, references are 'TEST-PAY-' (decision 019). */
  test?: boolean;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): PaymentProvider {
  const base = () => (typeof options.url === 'function' ? options.url() : options.url).replace(/\/$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    name: 'confirmo',
    method: 'crypto',
    test: options.test ?? false,
    start: async (request) => {
      let response: Response;
      try {
        response = await doFetch(`${base()}/api/v3/invoices`, {
          method: 'POST',
          headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            settlement: { currency: options.settlementCurrency ?? request.currency },
            invoice: { currencyFrom: request.currency, amount: confirmoAmount(request.amountOre) },
            product: { name: request.description },
            reference: request.reference,
            returnUrl: returnUrlOf(request.returnUrl, request.reference),
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
      let created: ConfirmoInvoice | null;
      try {
        created = readConfirmoInvoice(parseConfirmoJson(await response.text()));
      } catch {
        created = null;
      }
      if (!created?.url || !/^https?:\/\//.test(created.url)) {
        throw new PaymentProviderUnavailableError('the crypto provider answered without an invoice id and url');
      }
      return { kind: 'redirect', url: created.url, providerSessionId: created.id };
    },
    parsePostback: async (postback) =>
      parseConfirmoPostback(postback, {
        callbackPassword: options.callbackPassword,
        readInvoice: (id) => fetchConfirmoInvoice(base(), options.apiKey, id, { timeoutMs, fetch: doFetch }),
      }),
    postbackAnswer: CONFIRMO_POSTBACK_ANSWER,
  };
}
