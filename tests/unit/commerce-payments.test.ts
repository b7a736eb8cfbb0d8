import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decimalAmount, flexPaySignature, oreOfDecimal, parseFlexPayPostback, signedPostbackQuery } from '#server/adapters/payments/flexpay.ts';
import { periodOf, takenBackOf } from '#server/domain/commerce/fulfilment.ts';

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.UTC(2026, 0, 1) + days * DAY);

describe('FlexPay signatures and amounts', () => {
  it('signs sha256 over the key and the sorted key=value pairs joined by colons, lowercase hex', () => {
    const expected = createHash('sha256').update('aaB:custom1=xyz:custom2=:shopID=123').digest('hex');
    expect(flexPaySignature('aaB', [['shopID', '123'], ['custom1', 'xyz'], ['custom2', '']])).toBe(expected);
  });

  it('reads amounts as text, never through a float', () => {
    expect(decimalAmount(49_900)).toBe('499.00');
    expect(decimalAmount(5)).toBe('0.05');
    expect(oreOfDecimal('499.00')).toBe(49_900);
    expect(oreOfDecimal('0.1')).toBe(10);
    expect(oreOfDecimal('19.99')).toBe(1_999);
    expect(oreOfDecimal('1e3')).toBeNull();
    expect(oreOfDecimal('-5.00')).toBeNull();
  });

  it('reads a signed postback into our words; refuses a changed one', () => {
    const query = signedPostbackQuery('key', { shopID: '7', saleID: '55', transactionID: '66', referenceID: 'PAY-A', type: 'subscription', event: 'rebill', priceAmount: '499.00', priceCurrency: 'DKK', nextChargeOn: '2026-02-01', truncatedPAN: '411111XXXXXX1111' });
    const event = parseFlexPayPostback({ method: 'GET', query, headers: {}, body: '' }, { shopId: '7', key: 'key' });
    expect(event).toEqual({ eventKey: 'rebill:66', reference: 'PAY-A', kind: 'rebill', amountOre: 49_900, currency: 'DKK', transactionId: '66', saleId: '55', nextChargeOn: new Date('2026-02-01T00:00:00Z'), truncatedPan: '411111XXXXXX1111' });
    expect(parseFlexPayPostback({ method: 'GET', query: query.replace('499.00', '1.00'), headers: {}, body: '' }, { shopId: '7', key: 'key' })).toEqual({ refused: 'bad signature' });
    expect(parseFlexPayPostback({ method: 'GET', query: `${query}&saleID=1`, headers: {}, body: '' }, { shopId: '7', key: 'key' })).toEqual({ refused: 'a parameter given twice' });
    const purchase = signedPostbackQuery('key', { shopID: '7', saleID: '1', transactionID: '2', referenceID: 'PAY-B', type: 'purchase', priceAmount: '10.00', priceCurrency: 'DKK' });
    expect(parseFlexPayPostback({ method: 'GET', query: purchase, headers: {}, body: '' }, { shopId: '7', key: 'key' })).toMatchObject({ kind: 'paid', eventKey: 'initial:2' });
  });
});

describe('fulfilment arithmetic', () => {
  it('a period runs from the later of now, the running period and a running holiday', () => {
    expect(periodOf({ days: 30, now: at(0), runningUntil: null, holidayUntil: null })).toEqual({ start: at(0), end: at(30) });
    expect(periodOf({ days: 30, now: at(0), runningUntil: at(10), holidayUntil: null })).toEqual({ start: at(10), end: at(40) });
    expect(periodOf({ days: 30, now: at(0), runningUntil: at(-5), holidayUntil: null })).toEqual({ start: at(0), end: at(30) });
    expect(periodOf({ days: 7, now: at(0), runningUntil: at(3), holidayUntil: at(20) })).toEqual({ start: at(20), end: at(27) });
  });

  it('a refund takes back the unused part of the period, never to before now', () => {
    // Not started yet (queued after a running period): all of it.
    expect(takenBackOf({ periodStart: at(10), periodEnd: at(40), now: at(0), clock: at(40) })).toEqual({ unusedMs: 30 * DAY, clock: at(10) });
    // Half used.
    expect(takenBackOf({ periodStart: at(0), periodEnd: at(30), now: at(15), clock: at(30) })).toEqual({ unusedMs: 15 * DAY, clock: at(15) });
    // A later order follows it: the later one moves up.
    expect(takenBackOf({ periodStart: at(0), periodEnd: at(30), now: at(10), clock: at(60) })).toEqual({ unusedMs: 20 * DAY, clock: at(40) });
    // Over: nothing.
    expect(takenBackOf({ periodStart: at(0), periodEnd: at(30), now: at(31), clock: at(30) })).toEqual({ unusedMs: 0, clock: at(30) });
    // A clock moved earlier by other means never goes before now.
    expect(takenBackOf({ periodStart: at(0), periodEnd: at(30), now: at(10), clock: at(12) })).toEqual({ unusedMs: 20 * DAY, clock: at(10) });
  });
});
