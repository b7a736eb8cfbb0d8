import { createHash, timingSafeEqual } from 'node:crypto';
import type { PaymentEvent, RawPostback, RefusedPostback } from '../types.ts';

/**
 * Verotel FlexPay (the card provider, PAYMENT_CARD=cardbilling, and its TEST stand-in) as Verotel's own
 * client writes it (github verotel/flexpay-php-client, commit 476011c; docs/payments/cardbilling.md):
 * every URL, signature and postback rule here is checked byte for byte against the vectors that client
 * produced (../shared/contracts/verotel-flexpay/vectors.json, tests/unit/flexpay-contract.test.ts).
 *
 * - Signature: sha256(signatureKey ":" k1=v1 ":" k2=v2 …) over the parameters sorted by name, lowercase
 *   hex. A URL we make signs the parameters the client signs (FLEXPAY_SIGNED_KEYS: `successURL` and
 *   `declineURL` included, `email` not); a postback is signed over every parameter it carries but the
 *   signature, with our `shopID` added when it has none (as the client's `validate_signature` does).
 * - URLs: `{brand}/startorder` for a purchase (type=purchase) and a subscription (type=subscription),
 *   `{brand}/salestatus` and `{brand}/cancel-subscription` (the buyer's page) with `version=4` and `shopID`;
 *   empty values left out; the query as PHP's http_build_query writes it, sorted, `signature` last.
 * - Postbacks are GETs answered with the plain text `OK` once handled (a copy too, so the provider stops).
 *   What only a postback carries is required before anything is credited (decision 038): `saleID` on every
 *   event, and `transactionID` on every charge and reversal; a query with a start URL's own parameters
 *   (`version`, `description`, `successURL`, `declineURL`, …) is never a postback. The old SHA-1
 *   signature the client still accepts is refused (decision 038). A declined card sends no postback.
 */

/** The brands' hosts, as the client's Brand classes name them (CARDBILLING_BRAND). */
export const FLEXPAY_BRANDS = {
  cardbilling: 'https://secure.billing.creditcard',
  verotel: 'https://secure.verotel.com',
} as const;
export type FlexPayBrand = keyof typeof FLEXPAY_BRANDS;

/** The protocol version the client sends (Client::PROTOCOL_VERSION). */
export const FLEXPAY_VERSION = '4';

/** The parameters the client signs in a URL it makes (Client::_filter_params). */
const FLEXPAY_SIGNED_KEYS =
  /^(?:version|shopID|price(?:Amount|Currency)|paymentMethod|description|referenceID|saleID|custom[123]|subscriptionType|period|name|trialAmount|trialPeriod|cancelDiscountPercentage|type|successURL|declineURL|precedingSaleID|upgradeOption|mcc|subCreditorName|subCreditorId|subCreditorCountry)$/;

/** The parameters of a URL we send that a postback never carries: a query with any of them is not a postback. */
const START_ONLY_KEYS = ['version', 'description', 'successURL', 'declineURL', 'backURL'];

/** PHP's ksort(SORT_REGULAR) of non-numeric names: byte order. */
const byName = (a: [string, string], b: [string, string]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** The client's `_signature`: hash(key ":" k=v ":" …) over the parameters sorted by name, lowercase hex. */
export function flexPaySignature(key: string, params: Iterable<[string, string]>, algorithm: 'sha256' | 'sha1' = 'sha256'): string {
  const pairs = [...params].sort(byName).map(([name, value]) => `${name}=${value}`);
  return createHash(algorithm).update([key, ...pairs].join(':'), 'utf8').digest('hex');
}

/** PHP's urlencode, as http_build_query writes each name and value (RFC 1738: space as '+', only -_. kept). */
function phpUrlencode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/**
 * The client's `_generate_URL`: `type` (when given), `version` and our `shopID` added, empty values left
 * out, sorted by name, the signature over the signed ones appended last.
 */
export function flexPayUrl(base: string, options: { shopId: string; key: string; type?: 'purchase' | 'subscription' }, params: Record<string, string | undefined>): string {
  const all: Record<string, string | undefined> = { ...params, ...(options.type ? { type: options.type } : {}), version: FLEXPAY_VERSION };
  if (all['shopID'] === undefined) all['shopID'] = options.shopId;
  const kept = Object.entries(all)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .sort(byName);
  const signature = flexPaySignature(options.key, kept.filter(([name]) => FLEXPAY_SIGNED_KEYS.test(name)));
  const pairs: [string, string][] = [...kept, ['signature', signature]];
  return `${base}?${pairs.map(([name, value]) => `${phpUrlencode(name)}=${phpUrlencode(value)}`).join('&')}`;
}

/**
 * Checks a signed FlexPay query as the provider checks a URL we made (the stand-in's start and cancel
 * pages): the signature over the signed parameters, our shop. Answers the parameters, or why not.
 */
export function readSignedFlexPayUrl(query: string, options: { shopId: string; key: string }): { params: Record<string, string> } | { refused: string } {
  const given = new URLSearchParams(query);
  const signature = given.get('signature');
  if (!signature) return { refused: 'no signature' };
  const entries = [...given.entries()].filter(([name]) => name !== 'signature');
  if (new Set(entries.map(([name]) => name)).size !== entries.length) return { refused: 'a parameter given twice' };
  if (!sameHex(signature, flexPaySignature(options.key, entries.filter(([name]) => FLEXPAY_SIGNED_KEYS.test(name))))) return { refused: 'bad signature' };
  const params = Object.fromEntries(entries);
  if (params['shopID'] !== options.shopId) return { refused: 'another shop' };
  return { params };
}

/** A postback's query string as the provider sends it: every parameter, signed over all of them. */
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

/** Verotel's events in our words; `initial` is also a purchase's first sale, which carries no `event`. */
const EVENT_KINDS: Record<string, PaymentEvent['kind']> = {
  initial: 'paid',
  rebill: 'rebill',
  cancel: 'cancel',
  expiry: 'subscription-expired',
  credit: 'refund',
  chargeback: 'chargeback',
};

/** Events that move money: each carries the provider's transaction. */
const CHARGES = new Set(['initial', 'rebill', 'credit', 'chargeback']);

function sameHex(given: string, expected: string): boolean {
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

/** The provider's ids of a sale and a transaction (numbers at Verotel): plain, bounded text. */
const PROVIDER_ID = /^[0-9A-Za-z_-]{1,64}$/;

/**
 * Reads a FlexPay postback: signed with our key over what it carries (our shopID added when absent, as
 * the client does), from our shop, and shaped as only the provider's postback is (decision 038); else
 * refused with a reason for our log and store only. The event becomes a PaymentEvent in our words.
 */
export function parseFlexPayPostback(postback: RawPostback, options: { shopId: string; key: string }): PaymentEvent | RefusedPostback {
  if (postback.method !== 'GET') return { refused: 'not a GET postback' };
  const params = new URLSearchParams(postback.query);
  const signature = params.get('signature');
  if (!signature) return { refused: 'no signature' };
  const unsigned = [...params.entries()].filter(([name]) => name !== 'signature');
  if (new Set(unsigned.map(([name]) => name)).size !== unsigned.length) return { refused: 'a parameter given twice' };
  const checked = params.has('shopID') ? unsigned : [...unsigned, ['shopID', options.shopId] as [string, string]];
  if (!sameHex(signature, flexPaySignature(options.key, checked))) {
    const oldSha1 = sameHex(signature, flexPaySignature(options.key, checked, 'sha1'));
    return { refused: oldSha1 ? 'an old SHA-1 signature' : 'bad signature' };
  }
  const get = (name: string) => params.get(name) ?? undefined;
  if ((get('shopID') ?? options.shopId) !== options.shopId) return { refused: 'another shop' };
  const startOnly = START_ONLY_KEYS.find((name) => params.has(name));
  if (startOnly) return { refused: `a start URL's parameter (${startOnly}), not a postback` };
  const type = get('type');
  if (type !== 'purchase' && type !== 'subscription') return { refused: `unsupported type ${type ?? '(none)'}` };
  const eventName = get('event') ?? (type === 'purchase' ? 'initial' : undefined);
  const kind = eventName === undefined ? undefined : EVENT_KINDS[eventName];
  if (!kind || eventName === undefined) return { refused: `unsupported event ${eventName ?? '(none)'}` };
  const saleId = get('saleID');
  if (!saleId || !PROVIDER_ID.test(saleId)) return { refused: 'no saleID' };
  const transactionId = get('transactionID');
  if (CHARGES.has(eventName) && (!transactionId || !PROVIDER_ID.test(transactionId))) return { refused: 'no transactionID' };
  const parentId = get('parentID');
  if (parentId !== undefined && !PROVIDER_ID.test(parentId)) return { refused: 'unreadable parentID' };
  const amountText = get('priceAmount');
  const amountOre = amountText === undefined ? undefined : oreOfDecimal(amountText);
  if (amountOre === null) return { refused: 'unreadable priceAmount' };
  const event: PaymentEvent = { eventKey: `${eventName}:${transactionId ?? saleId}`, reference: get('referenceID') ?? '', kind, saleId };
  if (amountOre !== undefined) event.amountOre = amountOre;
  const currency = get('priceCurrency');
  if (currency !== undefined) event.currency = currency;
  if (transactionId !== undefined) event.transactionId = transactionId;
  // A credit or chargeback names the charge it reverses (parentID): that is the order's transaction.
  if ((kind === 'refund' || kind === 'chargeback') && parentId !== undefined) event.reversesTransactionId = parentId;
  const nextChargeOn = dayOf(get('nextChargeOn'));
  if (nextChargeOn) event.nextChargeOn = nextChargeOn;
  const pan = get('truncatedPAN');
  if (pan !== undefined && /^[\dX*]{8,19}$/i.test(pan)) event.truncatedPan = pan;
  return event;
}

/** The answer FlexPay expects to every postback it may stop sending. */
export const FLEXPAY_POSTBACK_ANSWER = { status: 200, contentType: 'text/plain; charset=utf-8', body: 'OK' } as const;
