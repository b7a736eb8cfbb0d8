import { createHash, timingSafeEqual } from 'node:crypto';
import type { PaymentEvent, RawPostback, RefusedPostback } from '../types.ts';

/**
 * What the card provider (in the manner of Verotel FlexPay, "CardBilling") and its built-in TEST twin share:
 * the signature, the amounts and the reading of a postback (docs/decisions/025-commerce.md).
 *
 * FlexPay signs with SHA-256 (lowercase hex) over the shop's signature key followed by the parameters as
 * `key=value`, sorted by key and joined with colons: sha256("KEY:a=1:b=2"). A start URL signs the
 * parameters FlexPay lists for signing; a postback signs every parameter it carries except the signature.
 *
 * Postbacks are GET requests (`shopID`, `saleID`, `referenceID`, `transactionID`, `priceAmount`,
 * `priceCurrency`, `type` purchase|subscription, `event` initial|rebill|cancel|expiry|credit|chargeback,
 * `nextChargeOn`, `truncatedPAN`, `signature`), answered with the plain text `OK` once handled (a copy of
 * one already handled is answered `OK` too, so the provider stops sending it). Our TEST provider also sends
 * `event=decline` for a declined first payment (the real one sends none: an unpaid order expires).
 */

/** The start parameters FlexPay includes in its signature (others, such as URLs, are not signed). */
export const FLEXPAY_SIGNED_START_KEYS: ReadonlySet<string> = new Set([
  'version', 'shopID', 'saleID', 'referenceID', 'priceAmount', 'priceCurrency', 'description', 'name',
  'custom1', 'custom2', 'custom3', 'subscriptionType', 'period', 'trialAmount', 'trialPeriod', 'cancelDiscountPercentage', 'type',
]);

/** sha256(key ":" k1=v1 ":" k2=v2 …) over the given parameters sorted by name, lowercase hex. */
export function flexPaySignature(key: string, params: Iterable<[string, string]>): string {
  const pairs = [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, value]) => `${name}=${value}`);
  return createHash('sha256').update([key, ...pairs].join(':'), 'utf8').digest('hex');
}

/** A start URL: the parameters, and the signature over those FlexPay signs. */
export function signedStartUrl(base: string, key: string, params: Record<string, string>): string {
  const signed = Object.entries(params).filter(([name]) => FLEXPAY_SIGNED_START_KEYS.has(name));
  const query = new URLSearchParams({ ...params, signature: flexPaySignature(key, signed) });
  return `${base}?${query.toString()}`;
}

/** A postback's query string, signed over every parameter. */
export function signedPostbackQuery(key: string, params: Record<string, string>): string {
  return new URLSearchParams({ ...params, signature: flexPaySignature(key, Object.entries(params)) }).toString();
}

/** øre → FlexPay's decimal amount ("499.00"). */
export function decimalAmount(ore: number): string {
  const sign = ore < 0 ? '-' : '';
  const abs = Math.abs(ore);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** FlexPay's decimal amount → øre, read as text (never through a float); null when it is not an amount. */
export function oreOfDecimal(text: string): number | null {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** A period of days as FlexPay writes it (ISO 8601 duration). */
export const flexPayPeriod = (days: number) => `P${days}D`;

const EVENT_KINDS: Record<string, PaymentEvent['kind']> = {
  initial: 'paid',
  rebill: 'rebill',
  cancel: 'cancel',
  expiry: 'subscription-expired',
  credit: 'refund',
  chargeback: 'chargeback',
  decline: 'failed',
};

function isValidSignature(given: string, expected: string): boolean {
  const a = Buffer.from(given.toLowerCase(), 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `yyyy-MM-dd` (FlexPay's nextChargeOn) → that day's start in UTC; undefined when absent or unreadable. */
function dayOf(text: string | undefined): Date | undefined {
  if (!text || !/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
  const date = new Date(`${text.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Reads a FlexPay postback: the shop must be ours and the signature right (else refused, with a reason for
 * our log and store only); the event becomes a PaymentEvent in our words.
 */
export function parseFlexPayPostback(postback: RawPostback, options: { shopId: string; key: string }): PaymentEvent | RefusedPostback {
  if (postback.method !== 'GET') return { refused: 'not a GET postback' };
  const params = new URLSearchParams(postback.query);
  const signature = params.get('signature');
  if (!signature) return { refused: 'no signature' };
  const unsigned = [...params.entries()].filter(([name]) => name !== 'signature');
  if (new Set(unsigned.map(([name]) => name)).size !== unsigned.length) return { refused: 'a parameter given twice' };
  if (!isValidSignature(signature, flexPaySignature(options.key, unsigned))) return { refused: 'bad signature' };
  const get = (name: string) => params.get(name) ?? undefined;
  if (get('shopID') !== options.shopId) return { refused: 'another shop' };
  const type = get('type');
  const eventName = get('event') ?? (type === 'purchase' ? 'initial' : undefined);
  const kind = eventName === undefined ? undefined : EVENT_KINDS[eventName];
  if (!kind) return { refused: `unsupported event ${eventName ?? '(none)'}` };
  const reference = get('referenceID') ?? '';
  const saleId = get('saleID');
  const transactionId = get('transactionID');
  const id = transactionId ?? saleId ?? reference;
  if (!id) return { refused: 'no saleID, transactionID or referenceID' };
  const amountText = get('priceAmount');
  const amountOre = amountText === undefined ? undefined : oreOfDecimal(amountText);
  if (amountOre === null) return { refused: 'unreadable priceAmount' };
  const event: PaymentEvent = { eventKey: `${eventName}:${id}`, reference, kind };
  if (amountOre !== undefined) event.amountOre = amountOre;
  const currency = get('priceCurrency');
  if (currency !== undefined) event.currency = currency;
  if (transactionId !== undefined) event.transactionId = transactionId;
  if (saleId !== undefined) event.saleId = saleId;
  const nextChargeOn = dayOf(get('nextChargeOn'));
  if (nextChargeOn) event.nextChargeOn = nextChargeOn;
  const pan = get('truncatedPAN');
  if (pan !== undefined && /^[\dX*]{8,19}$/i.test(pan)) event.truncatedPan = pan;
  return event;
}

/** The answer FlexPay expects to every postback it may stop sending. */
export const FLEXPAY_POSTBACK_ANSWER = { status: 200, contentType: 'text/plain; charset=utf-8', body: 'OK' } as const;
