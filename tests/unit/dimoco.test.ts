/**
 * The DIMOCO pay:smart adapter's pure parts (docs/payments/dimoco.md): the start form and its digest, and the
 * reading of callbacks. The expected digests are computed here from the rule itself (HMAC-SHA256 with the
 * merchant password over the values in the order of the parameter names), and the callbacks are written
 * here as pay:smart results, never produced by the code under test.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dimocoDigest, dimocoStartForm, parseDimocoCallback, readDimocoResult, referenceOfRequestId } from '#server/adapters/payments/dimoco.ts';
import type { PaymentRequest } from '#server/adapters/types.ts';

const CONTRACT = { merchant: '7001', order: '115510', password: 'merchant-password' };
const hmac = (text: string, key = CONTRACT.password) => createHmac('sha256', key).update(text, 'utf8').digest('hex');

const REQUEST: PaymentRequest = {
  reference: 'PAY-ABC123',
  amountOre: 49_900,
  currency: 'DKK',
  description: 'Annonce i 30 dage',
  returnUrl: 'https://annoncer.example/backend/callback-payment/',
  declineUrl: 'https://annoncer.example/backend/callback-payment/?declined=1',
  postbackUrl: 'https://annoncer.example/api/backend/dimocopostback',
  locale: 'en',
};

/** A pay:smart result as DIMOCO writes it (the parts we read, and some we do not). */
function resultXml(options: { action?: string; status?: string; requestId?: string; order?: string; transaction?: string | null } = {}): string {
  const transaction =
    options.transaction === null
      ? ''
      : `<transactions><transaction>${options.transaction ?? '<id>tx-77</id><status>4</status><amount>499.00</amount><billed_amount>499.00</billed_amount><currency>DKK</currency>'}</transaction></transactions>`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<result>` +
    `<action>${options.action ?? 'start'}</action>` +
    `<action_result><status>${options.status ?? '0'}</status><code/><detail/></action_result>` +
    `<reference>d1m0c0-ref</reference><request_id>${options.requestId ?? 'PAY-ABC123.00112233445566778899aabb'}</request_id>` +
    `<customer><country>DK</country><operator>DK_TEST</operator></customer>` +
    `<payment_parameters><channel>web</channel><method>pay</method><order>${options.order ?? CONTRACT.order}</order></payment_parameters>` +
    `${transaction}</result>`
  );
}

const callback = (data: string, digest = hmac(data)) => ({ method: 'POST' as const, query: '', headers: {}, body: new URLSearchParams({ data, digest }).toString() });

describe('the start form (pay:smart action start)', () => {
  it('sends action start, the contract merchant and order, the amount, our request_id, service name and URLs; no currency, no language', () => {
    const form = dimocoStartForm(REQUEST, { ...CONTRACT, url: 'https://services.dimoco.at/smart/payment' });
    expect(form.action).toBe('https://services.dimoco.at/smart/payment');
    const { request_id: requestId, digest, ...rest } = form.fields;
    expect(rest).toEqual({
      action: 'start',
      amount: '499.00',
      merchant: '7001',
      order: '115510',
      service_name: 'Annonce i 30 dage',
      url_callback: 'https://annoncer.example/api/backend/dimocopostback',
      url_return: 'https://annoncer.example/backend/callback-payment/?referenceID=PAY-ABC123',
    });
    expect(requestId).toMatch(/^PAY-ABC123\.[0-9a-f]{24}$/);
    expect(referenceOfRequestId(requestId!)).toBe('PAY-ABC123');
    expect(form.providerSessionId).toBe(requestId);
    // The values in the order of the names: action, amount, merchant, order, request_id, service_name, url_callback, url_return.
    const payload = ['start', '499.00', '7001', '115510', requestId, 'Annonce i 30 dage', REQUEST.postbackUrl, `${REQUEST.returnUrl}?referenceID=PAY-ABC123`].join('');
    expect(digest).toBe(hmac(payload));
    expect(dimocoDigest(CONTRACT.password, form.fields)).toBe(digest);
  });

  it('a new request_id for every attempt', () => {
    const first = dimocoStartForm(REQUEST, { ...CONTRACT, url: 'https://x.example/' });
    const second = dimocoStartForm(REQUEST, { ...CONTRACT, url: 'https://x.example/' });
    expect(first.fields['request_id']).not.toBe(second.fields['request_id']);
  });
});

describe('callbacks (data = the XML result, digest = HMAC-SHA256 over data)', () => {
  it('a billed start is paid with the billed amount; the event key is action, request_id and status', () => {
    expect(parseDimocoCallback(callback(resultXml()), CONTRACT)).toEqual({
      eventKey: 'start:PAY-ABC123.00112233445566778899aabb:0',
      reference: 'PAY-ABC123',
      kind: 'paid',
      amountOre: 49_900,
      currency: 'DKK',
      transactionId: 'tx-77',
    });
    // An uppercase digest is the same digest.
    const data = resultXml();
    expect(parseDimocoCallback(callback(data, hmac(data).toUpperCase()), CONTRACT)).toMatchObject({ kind: 'paid' });
  });

  it('pending (5), failure (1), unbilled (2) and validation failed (4); a refund (action refund, 0)', () => {
    expect(parseDimocoCallback(callback(resultXml({ status: '5', transaction: null })), CONTRACT)).toEqual({ eventKey: 'start:PAY-ABC123.00112233445566778899aabb:5', reference: 'PAY-ABC123', kind: 'pending' });
    for (const status of ['1', '2', '4']) expect(parseDimocoCallback(callback(resultXml({ status, transaction: null })), CONTRACT)).toMatchObject({ kind: 'failed' });
    const refund = resultXml({ action: 'refund', requestId: 'PAY-ABC123.ffeeddccbbaa998877665544', transaction: '<id>tx-78</id><amount>499.00</amount><billed_amount>499.00</billed_amount><currency>DKK</currency>' });
    expect(parseDimocoCallback(callback(refund), CONTRACT)).toEqual({
      eventKey: 'refund:PAY-ABC123.ffeeddccbbaa998877665544:0',
      reference: 'PAY-ABC123',
      kind: 'refund',
      amountOre: 49_900,
      currency: 'DKK',
      transactionId: 'tx-78',
    });
  });

  it('refuses a tampered result, another key, another order, an unknown status or action', () => {
    const data = resultXml();
    expect(parseDimocoCallback(callback(data.replace('499.00</billed', '1.00</billed'), hmac(data)), CONTRACT)).toEqual({ refused: 'bad digest' });
    expect(parseDimocoCallback(callback(data, hmac(data, 'another-password')), CONTRACT)).toEqual({ refused: 'bad digest' });
    expect(parseDimocoCallback(callback(data, 'not-hex'), CONTRACT)).toEqual({ refused: 'bad digest' });
    expect(parseDimocoCallback(callback(resultXml({ order: '999999' })), CONTRACT)).toEqual({ refused: 'another order' });
    expect(parseDimocoCallback(callback(resultXml({ status: '7' })), CONTRACT)).toEqual({ refused: 'unsupported start status 7' });
    expect(parseDimocoCallback(callback(resultXml({ status: '3' })), CONTRACT)).toEqual({ refused: 'unsupported start status 3' });
    expect(parseDimocoCallback(callback(resultXml({ action: 'refund', status: '1' })), CONTRACT)).toEqual({ refused: 'unsupported refund status 1' });
    expect(parseDimocoCallback(callback(resultXml({ action: 'start-subscription' })), CONTRACT)).toEqual({ refused: 'unsupported start-subscription status 0' });
  });

  it('refuses what is not one signed pay:smart result', () => {
    const data = resultXml();
    const body = new URLSearchParams({ data, digest: hmac(data) });
    body.append('data', data);
    expect(parseDimocoCallback({ method: 'POST', query: '', headers: {}, body: body.toString() }, CONTRACT)).toEqual({ refused: 'no single data and digest' });
    expect(parseDimocoCallback({ ...callback(data), method: 'GET' }, CONTRACT)).toEqual({ refused: 'not a POST callback' });
    const json = JSON.stringify({ action: 'payment', status: 'success', order: 'PAY-ABC123' });
    expect(parseDimocoCallback(callback(json), CONTRACT)).toEqual({ refused: 'data is not well-formed XML' });
    const dtd = `<?xml version="1.0"?><!DOCTYPE result [<!ENTITY a "aaaaaaaaaa">]><result><action>&a;</action></result>`;
    expect(parseDimocoCallback(callback(dtd), CONTRACT)).toEqual({ refused: 'data declares a DTD' });
    expect(parseDimocoCallback(callback('<result><action>start</action>'), CONTRACT)).toEqual({ refused: 'data is not well-formed XML' });
    expect(parseDimocoCallback(callback('<other/>'), CONTRACT)).toEqual({ refused: 'data is not a pay:smart result' });
    expect(parseDimocoCallback(callback(resultXml({ requestId: 'no-separator' })), CONTRACT)).toEqual({ refused: 'request_id names no reference' });
    expect(parseDimocoCallback(callback(resultXml({ transaction: null })), CONTRACT)).toEqual({ refused: 'no transaction with an id and an amount' });
    expect(parseDimocoCallback(callback(resultXml({ transaction: '<id>a</id><amount>4,99</amount><currency>DKK</currency>' })), CONTRACT)).toEqual({ refused: 'unreadable amount' });
    const two = resultXml().replace('</transactions>', '<transaction><id>b</id></transaction></transactions>');
    expect(parseDimocoCallback(callback(two), CONTRACT)).toEqual({ refused: 'several transactions' });
  });

  it('reads a namespaced result and entities as text', () => {
    const xml = resultXml().replace('<result>', '<result xmlns="https://services.dimoco.at/smart">').replace('<reference>d1m0c0-ref', '<reference>a &amp; b');
    expect(readDimocoResult(xml)).toMatchObject({ action: 'start', status: '0', order: '115510', transactions: [{ id: 'tx-77', billedAmount: '499.00' }] });
  });
});
