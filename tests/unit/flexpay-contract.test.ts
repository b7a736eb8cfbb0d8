/**
 * The card adapter against Verotel's own FlexPay client (issue 29; decision 038): every URL and signature
 * in the vectors that client produced (tests/contracts/verotel-flexpay/vectors.json, a copy of
 * ../shared/contracts/verotel-flexpay/vectors.json, commit 476011c run under PHP) is reproduced byte for
 * byte for both brands by the live adapter's own code, each listed postback validates, and a start URL
 * sent back as a postback (the free-payment forgery) is refused.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCardBillingProvider, flexPayStatusUrl } from '#server/adapters/payments/cardbilling.ts';
import { FLEXPAY_BRANDS, flexPaySignature, flexPayUrl, parseFlexPayPostback, readSignedFlexPayUrl } from '#server/adapters/payments/flexpay.ts';
import type { PaymentEvent, RefusedPostback } from '#server/adapters/types.ts';

type Vectors = {
  shopID: string;
  signatureKey: string;
  cases: { brand: 'CardBilling' | 'Verotel'; call: string; params: Record<string, string>; url: string }[];
  postbacks: { params: Record<string, string>; signature_sha256: string; signature_sha1: string; validate_signature: boolean }[];
};

const here = path.dirname(new URL(import.meta.url).pathname);
const ours = path.resolve(here, '../contracts/verotel-flexpay/vectors.json');
const vectors = JSON.parse(readFileSync(ours, 'utf8')) as Vectors;
const brandOf = (brand: string) => (brand === 'CardBilling' ? FLEXPAY_BRANDS.cardbilling : FLEXPAY_BRANDS.verotel);
const live = (brand: string) => createCardBillingProvider({ shopId: vectors.shopID, signatureKey: vectors.signatureKey, url: brandOf(brand) });
const sign = { shopId: vectors.shopID, key: vectors.signatureKey };
const parse = (query: string): PaymentEvent | RefusedPostback => parseFlexPayPostback({ method: 'GET', query, headers: {}, body: '' }, sign);
const queryOf = (params: Record<string, string>, signature: string) => new URLSearchParams({ ...params, signature }).toString();

describe('the vectors', () => {
  it('are the shared contract, unchanged', () => {
    const shared = path.resolve(here, '../../../shared/contracts/verotel-flexpay/vectors.json');
    if (existsSync(shared)) expect(readFileSync(ours, 'utf8')).toBe(readFileSync(shared, 'utf8'));
    expect(vectors.cases).toHaveLength(10);
    expect(vectors.postbacks).toHaveLength(6);
  });
});

describe("the live adapter's URLs equal Verotel's client's", () => {
  for (const vector of vectors.cases) {
    it(`${vector.brand}: ${vector.call}(${Object.keys(vector.params).join(', ')})`, async () => {
      const p = vector.params;
      if (vector.call === 'get_purchase_URL' || vector.call === 'get_subscription_URL') {
        const subscription = vector.call === 'get_subscription_URL';
        const start = await live(vector.brand).start({
          reference: p['referenceID']!,
          amountOre: Number(p['priceAmount']!.replace('.', '')),
          currency: 'DKK',
          description: p['description']!,
          ...(subscription ? { recurringDays: Number(/^P(\d+)D$/.exec(p['period']!)![1]) } : {}),
          returnUrl: p['successURL']!,
          // The client leaves an absent declineURL out, as the adapter leaves out an empty one.
          declineUrl: p['declineURL'] ?? '',
          postbackUrl: 'https://example.dk/api/backend/cardbillingpostback',
          locale: 'da',
          ...(p['email'] ? { email: p['email'] } : {}),
        });
        expect(start).toEqual({ kind: 'redirect', url: vector.url });
      } else if (vector.call === 'get_cancel_subscription_URL') {
        expect(live(vector.brand).cancelSubscriptionUrl!(p['saleID']!)).toBe(vector.url);
      } else {
        expect(vector.call).toBe('get_status_URL');
        expect(flexPayStatusUrl(brandOf(vector.brand), { shopId: vectors.shopID, signatureKey: vectors.signatureKey }, p as { saleID: string })).toBe(vector.url);
      }
    });
  }

  it('signs successURL and declineURL, never email (the signature changes with the first, not the second)', () => {
    const base = { priceAmount: '1.00', priceCurrency: 'DKK', description: 'x', successURL: 'https://a.dk/' };
    const url = (params: Record<string, string>) => new URL(flexPayUrl('https://h/startorder', { ...sign, type: 'purchase' }, params)).searchParams.get('signature');
    expect(url({ ...base, successURL: 'https://b.dk/' })).not.toBe(url(base));
    expect(url({ ...base, declineURL: 'https://b.dk/' })).not.toBe(url(base));
    expect(url({ ...base, email: 'a@b.dk' })).toBe(url(base));
  });

  it('writes the query as PHP does (space as +, only - _ . unescaped)', () => {
    const url = flexPayUrl('https://h/startorder', { ...sign, type: 'purchase' }, { description: "a*b~c'(d)! e", priceAmount: '1.00', priceCurrency: 'DKK' });
    expect(url).toContain('description=a%2Ab%7Ec%27%28d%29%21+e&');
    // What the provider reads back is what was signed.
    expect(readSignedFlexPayUrl(url.slice(url.indexOf('?') + 1), sign)).toMatchObject({ params: { description: "a*b~c'(d)! e" } });
  });
});

describe("Verotel's postbacks", () => {
  for (const [index, vector] of vectors.postbacks.entries()) {
    it(`#${index + 1} ${vector.params['type']} ${vector.params['event'] ?? '(first sale)'}${vector.params['shopID'] ? '' : ' without shopID'}: our signature is the client's, and it is read`, () => {
      const withShop = { shopID: vectors.shopID, ...vector.params };
      expect(flexPaySignature(vectors.signatureKey, Object.entries(withShop))).toBe(vector.signature_sha256);
      expect(flexPaySignature(vectors.signatureKey, Object.entries(withShop), 'sha1')).toBe(vector.signature_sha1);
      expect(vector.validate_signature).toBe(true);
      const event = parse(queryOf(vector.params, vector.signature_sha256));
      expect(event, JSON.stringify(event)).not.toHaveProperty('refused');
      expect((event as PaymentEvent).saleId).toBe(vector.params['saleID']);
    });
  }

  it('reads each event in our words', () => {
    const [sale, initial, rebill, cancel, credit] = vectors.postbacks.map((vector) => parse(queryOf(vector.params, vector.signature_sha256)) as PaymentEvent);
    expect(sale).toEqual({ eventKey: 'initial:88800001', reference: 'PAY-EXAMPLE0001', kind: 'paid', saleId: '55501234', amountOre: 119_900, currency: 'DKK', transactionId: '88800001', truncatedPan: 'XXXXXXXXXXXX1111' });
    expect(initial).toMatchObject({ kind: 'paid', eventKey: 'initial:88800002', saleId: '55501299', nextChargeOn: new Date('2027-01-01T00:00:00Z') });
    expect(rebill).toMatchObject({ kind: 'rebill', eventKey: 'rebill:88800003', amountOre: 24_900 });
    expect(cancel).toEqual({ eventKey: 'cancel:55501299', reference: '', kind: 'cancel', saleId: '55501299' });
    expect(credit).toMatchObject({ kind: 'refund', transactionId: '88800009', reversesTransactionId: '88800001', amountOre: 119_900 });
  });

  it("refuses the old SHA-1 signature the client still accepts (decision 038)", () => {
    const vector = vectors.postbacks[0]!;
    expect(parse(queryOf(vector.params, vector.signature_sha1))).toEqual({ refused: 'an old SHA-1 signature' });
  });

  it('refuses a changed postback, another shop, and a wrong key', () => {
    const vector = vectors.postbacks[0]!;
    expect(parse(queryOf({ ...vector.params, priceAmount: '1.00' }, vector.signature_sha256))).toEqual({ refused: 'bad signature' });
    const other = { ...vector.params, shopID: '654321' };
    expect(parse(queryOf(other, flexPaySignature(vectors.signatureKey, Object.entries(other))))).toEqual({ refused: 'another shop' });
    expect(parse(queryOf(vector.params, flexPaySignature('another-key', Object.entries(vector.params))))).toEqual({ refused: 'bad signature' });
  });
});

describe('what only a postback carries (the start URL replayed as a postback credits nothing)', () => {
  const signedPostback = (params: Record<string, string>) => parse(new URLSearchParams({ ...params, signature: flexPaySignature(vectors.signatureKey, Object.entries({ shopID: vectors.shopID, ...params })) }).toString());

  it("refuses the purchase and subscription start URLs of both brands, sent back as they are", () => {
    for (const vector of vectors.cases.filter((c) => c.call === 'get_purchase_URL' || c.call === 'get_subscription_URL')) {
      const query = vector.url.slice(vector.url.indexOf('?') + 1);
      const event = parse(query);
      expect(event, vector.url).toHaveProperty('refused');
    }
  });

  it('refuses the start parameters re-signed over all of them (as a leaked key would), without saleID or transactionID, and the cancel URL', () => {
    const start = { version: '4', shopID: vectors.shopID, priceAmount: '1199.00', priceCurrency: 'DKK', description: 'Annonce i 90 dage', referenceID: 'PAY-EXAMPLE0001', type: 'purchase' };
    expect(signedPostback(start)).toEqual({ refused: "a start URL's parameter (version), not a postback" });
    const { version: _v, description: _d, ...bare } = start;
    expect(signedPostback(bare)).toEqual({ refused: 'no saleID' });
    expect(signedPostback({ ...bare, saleID: '1' })).toEqual({ refused: 'no transactionID' });
    expect(signedPostback({ ...bare, transactionID: '1' })).toEqual({ refused: 'no saleID' });
    expect(signedPostback({ ...bare, saleID: '1', transactionID: '2', successURL: 'https://example.dk/' })).toEqual({ refused: "a start URL's parameter (successURL), not a postback" });
    const cancel = vectors.cases.find((c) => c.call === 'get_cancel_subscription_URL')!.url;
    expect(parse(cancel.slice(cancel.indexOf('?') + 1))).toHaveProperty('refused');
    const status = vectors.cases.find((c) => c.call === 'get_status_URL')!.url;
    expect(parse(status.slice(status.indexOf('?') + 1))).toHaveProperty('refused');
  });

  it('a rebill, credit and chargeback need their transaction; a cancel and expiry only the sale', () => {
    for (const event of ['rebill', 'credit', 'chargeback']) expect(signedPostback({ saleID: '1', type: 'subscription', event })).toEqual({ refused: 'no transactionID' });
    expect(signedPostback({ saleID: '1', type: 'subscription', event: 'expiry' })).toMatchObject({ kind: 'subscription-expired' });
    expect(signedPostback({ saleID: '1', type: 'subscription', event: 'decline' })).toEqual({ refused: 'unsupported event decline' });
  });
});
