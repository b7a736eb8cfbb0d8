import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { PaymentEvent, PaymentProvider, PaymentRequest, PaymentStart, RawPostback, RefusedPostback } from '../types.ts';
import { decimalAmount, oreOfDecimal } from './flexpay.ts';

/**
 * The carrier-billing provider: DIMOCO pay:smart (PAYMENT_CARRIER=dimoco, and, with `test: true`, the
 * built-in TEST stand-in of test-carrier-provider.ts). docs/payments/dimoco.md says what DIMOCO's published
 * specification shows, what independent integrations add, and what the merchant contract must confirm.
 *
 * - start (one-off payment, pay:smart action `start`, end-user transport): the browser POSTs a form to
 *   DIMOCO_URL with `action=start`, `merchant`, `order` (the service DIMOCO set up for the merchant:
 *   DIMOCO_ORDER, not our reference), `amount` (decimal text, in the currency of the order's contract),
 *   `request_id` (ours, new per attempt: `{our reference}.{random}`, so every result names the order),
 *   `service_name`, `url_callback`, `url_return` (our return page with `referenceID`) and `digest`.
 *   Currency and page language are the contract's (set up with the order), so they are not sent.
 * - digest: HMAC-SHA256 with the merchant password as key over the values of every other parameter,
 *   concatenated in the alphabetical order of their names, lowercase hex.
 * - callback: a form POST to `url_callback` of `data` (the XML result) and `digest` (the same rule: over
 *   `data`, the only other parameter). The XML `<result>` has `action`, `action_result/status` (numeric:
 *   0 success, 1 failure, 2 unbilled, 4 validation failed, 5 pending; 3 asks for a redirect and is no
 *   result), `request_id`, `reference` (DIMOCO's), `payment_parameters/order` and
 *   `transactions/transaction` (`id`, `amount`, `billed_amount`, `currency`). Answered 200 `OK`; DIMOCO
 *   sends a callback again until it gets a 200.
 *
 * start: 0 → paid (the billed amount), 5 → pending, 1, 2 and 4 → failed; refund: 0 → refund. Anything else
 * is refused and stored for support. The event key is `{action}:{request_id}:{status}`.
 */

/** The settings the merchant contract gives: merchant id, order (the service) and password. */
export type DimocoContract = { merchant: string; order: string; password: string };

/** HMAC-SHA256(password, text), lowercase hex. */
export const dimocoHmac = (password: string, text: string) => createHmac('sha256', password).update(text, 'utf8').digest('hex');

/** pay:smart's digest of a request's parameters: every value but `digest`'s, in the order of their names, concatenated. */
export function dimocoDigest(password: string, parameters: Record<string, string>): string {
  const names = Object.keys(parameters)
    .filter((name) => name !== 'digest')
    .sort();
  return dimocoHmac(password, names.map((name) => parameters[name]).join(''));
}

/** Our reference travels in `request_id` as `{reference}.{random}`: every result names its order. */
export const dimocoRequestId = (reference: string) => `${reference}.${randomBytes(12).toString('hex')}`;
export const referenceOfRequestId = (requestId: string) => requestId.slice(0, Math.max(0, requestId.lastIndexOf('.')));

const withQuery = (url: string, query: Record<string, string>) => `${url}${url.includes('?') ? '&' : '?'}${new URLSearchParams(query).toString()}`;

/** The signed form of action `start` the browser posts to `url`. */
export function dimocoStartForm(request: PaymentRequest, options: DimocoContract & { url: string }): PaymentStart & { kind: 'form' } {
  const requestId = dimocoRequestId(request.reference);
  const fields: Record<string, string> = {
    action: 'start',
    amount: decimalAmount(request.amountOre),
    merchant: options.merchant,
    order: options.order,
    request_id: requestId,
    service_name: request.description,
    url_callback: request.postbackUrl,
    url_return: withQuery(request.returnUrl, { referenceID: request.reference }),
  };
  return { kind: 'form', action: options.url, fields: { ...fields, digest: dimocoDigest(options.password, fields) }, providerSessionId: requestId };
}

/** A lowercase-or-uppercase hex digest compared in constant time. */
function sameDigest(given: string, expected: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'));
}

/** What we read of a pay:smart XML result. */
export type DimocoResult = {
  action: string;
  status: string;
  requestId: string;
  order: string | undefined;
  transactions: { id: string | undefined; amount: string | undefined; billedAmount: string | undefined; currency: string | undefined }[];
};

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Every value stays text: `0` is a status, `499.00` an amount read by oreOfDecimal, never a float.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  htmlEntities: false,
});

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const listOf = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
/** The text of a child element that occurs at most once; undefined when absent, null when repeated or not text. */
function textOf(node: unknown, name: string): string | undefined | null {
  if (!isNode(node)) return undefined;
  const value = node[name];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : null;
}

/** Reads the XML of a callback's `data` (the XML parser is fast-xml-parser); refused when it is not a pay:smart result. */
export function readDimocoResult(xml: string): DimocoResult | RefusedPostback {
  // A result never declares a DTD; refusing one keeps entity expansion out of the parser entirely.
  if (/<!DOCTYPE/i.test(xml)) return { refused: 'data declares a DTD' };
  if (XMLValidator.validate(xml) !== true) return { refused: 'data is not well-formed XML' };
  const document = parser.parse(xml) as Node;
  const result = document['result'];
  if (!isNode(result)) return { refused: 'data is not a pay:smart result' };
  const action = textOf(result, 'action');
  const status = textOf(result['action_result'], 'status');
  const requestId = textOf(result, 'request_id');
  const order = textOf(result['payment_parameters'], 'order');
  if (!action || !status || !requestId || order === null) return { refused: 'result lacks action, action_result/status or request_id' };
  const transactions: DimocoResult['transactions'] = [];
  for (const list of listOf(result['transactions'])) {
    for (const transaction of listOf(isNode(list) ? list['transaction'] : undefined)) {
      const fields = { id: textOf(transaction, 'id'), amount: textOf(transaction, 'amount'), billedAmount: textOf(transaction, 'billed_amount'), currency: textOf(transaction, 'currency') };
      if (Object.values(fields).includes(null)) return { refused: 'unreadable transaction' };
      transactions.push(fields as DimocoResult['transactions'][number]);
    }
  }
  return { action, status, requestId, order, transactions };
}

/** action → action_result status → our event kind; what is not here is refused. */
const KINDS: Record<string, Record<string, PaymentEvent['kind']>> = {
  start: { '0': 'paid', '1': 'failed', '2': 'failed', '4': 'failed', '5': 'pending' },
  refund: { '0': 'refund' },
};

/** Authenticates a callback by its digest and reads it into our event (or says why it is refused). */
export function parseDimocoCallback(postback: RawPostback, contract: DimocoContract): PaymentEvent | RefusedPostback {
  if (postback.method !== 'POST') return { refused: 'not a POST callback' };
  const form = new URLSearchParams(postback.body);
  const data = form.getAll('data');
  const digest = form.getAll('digest');
  if (data.length !== 1 || digest.length !== 1) return { refused: 'no single data and digest' };
  if (!sameDigest(digest[0]!, dimocoHmac(contract.password, data[0]!))) return { refused: 'bad digest' };
  const result = readDimocoResult(data[0]!);
  if ('refused' in result) return result;
  if (result.order !== undefined && result.order !== contract.order) return { refused: 'another order' };
  const kind = KINDS[result.action]?.[result.status];
  if (!kind) return { refused: `unsupported ${result.action} status ${result.status}` };
  const reference = referenceOfRequestId(result.requestId);
  if (!reference) return { refused: 'request_id names no reference' };
  if (result.transactions.length > 1) return { refused: 'several transactions' };
  const transaction = result.transactions[0];
  const event: PaymentEvent = { eventKey: `${result.action}:${result.requestId}:${result.status}`, reference, kind };
  if (kind === 'paid' || kind === 'refund') {
    const charged = transaction?.billedAmount ?? transaction?.amount;
    if (!transaction?.id || charged === undefined) return { refused: 'no transaction with an id and an amount' };
    const amountOre = oreOfDecimal(charged);
    if (amountOre === null) return { refused: 'unreadable amount' };
    event.amountOre = amountOre;
  }
  if (transaction?.currency) event.currency = transaction.currency;
  if (transaction?.id) event.transactionId = transaction.id;
  return event;
}

/** What DIMOCO expects to a callback it may stop sending: a 200 (the body is not read). */
export const DIMOCO_POSTBACK_ANSWER = { status: 200, contentType: 'text/plain; charset=utf-8', body: 'OK' } as const;

/**
 * The carrier provider. `url` is where the browser posts the start form (DIMOCO_URL; the TEST stand-in's
 * own address with `test`). `test` marks the built-in TEST setup: its references start 'TEST-PAY-'.
 */
export function createDimocoProvider(options: DimocoContract & { url: string; test?: boolean }): PaymentProvider {
  const contract: DimocoContract = { merchant: options.merchant, order: options.order, password: options.password };
  return {
    name: 'dimoco',
    method: 'carrier',
    test: options.test ?? false,
    start: async (request) => dimocoStartForm(request, { ...contract, url: options.url }),
    parsePostback: async (postback) => parseDimocoCallback(postback, contract),
    postbackAnswer: DIMOCO_POSTBACK_ANSWER,
  };
}
