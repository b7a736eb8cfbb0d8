/**
 * Carrier billing (issue 16; spec §7 dimocopayment, dimocopostback; docs/decisions/025-commerce.md): the
 * built-in TEST carrier provider's signed form, page and callbacks over real HTTP, and the real DIMOCO
 * provider (PAYMENT_CARRIER=dimoco) with callbacks signed as DIMOCO signs them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { BuyProductAnswer } from '#lib/schemas/commerce.ts';
import { orders } from '#server/db/schema.ts';
import { ORDER_STATUS } from '#server/domain/commerce/order-status.ts';
import { dimocoFormDigest, signedDimocoCallback } from '#server/adapters/payments/dimoco.ts';
import { TEST_CARRIER_MERCHANT } from '#server/adapters/payments/test-carrier-provider.ts';
import { loggableUrl } from '#server/logger.ts';
import type { TestServer } from '#tests/support/test-server.ts';
import type { Advertiser } from './verification-helpers.ts';
import { TEST_PAYMENT_SECRET, backendApi, buy, commerceAdvertiser, documentsOfOrder, orderRow, productIdOf, refusedWith, startCommerceServer } from './orders-helpers.ts';

let server: TestServer;
let membership30: number;

beforeAll(async () => {
  server = await startCommerceServer();
  membership30 = await productIdOf(server, 'membership-30');
});
afterAll(async () => {
  await server?.close();
});


type Form = { kind: 'form'; action: string; fields: Record<string, string> };
const formOf = (bought: BuyProductAnswer) => bought.next as Form;

/** Posts the start form as the browser does; answers the TEST page's path. */
async function startPage(target: TestServer, bought: BuyProductAnswer): Promise<string> {
  const form = formOf(bought);
  const response = await fetch(new URL(new URL(form.action).pathname, target.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form.fields).toString(),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  return response.headers.get('location')!;
}

async function press(target: TestServer, page: string, fields: Record<string, string>): Promise<Response> {
  return fetch(new URL(page, target.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

/** A callback as DIMOCO sends it, signed with `password`. */
async function callback(target: TestServer, data: Record<string, unknown>, password = TEST_PAYMENT_SECRET) {
  const response = await fetch(`${target.url}/api/backend/dimocopostback`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: signedDimocoCallback(password, data),
  });
  return { status: response.status, text: await response.text() };
}

const result = (bought: BuyProductAnswer, extra: Record<string, unknown> = {}) => ({
  action: 'payment',
  merchant: TEST_CARRIER_MERCHANT,
  order: bought.referenceId,
  request_id: formOf(bought).fields['request_id'],
  status: 'success',
  amount: '499.00',
  currency: 'DKK',
  transaction_id: `tx-${bought.orderId}`,
  ...extra,
});

describe('the TEST carrier provider (PAYMENT_CARRIER=test)', () => {
  let who: Advertiser;
  beforeAll(async () => {
    who = await commerceAdvertiser(server);
  });

  it('answers a signed form; its page says it is a test; approve → Paid with one receipt; a refund makes a credit note', async () => {
    const bought = await buy(server, who, membership30, 'carrier');
    const form = formOf(bought);
    expect(form.kind).toBe('form');
    expect(form.fields).toMatchObject({ merchant: TEST_CARRIER_MERCHANT, order: bought.referenceId, amount: '499.00' });
    expect(form.fields['digest']).toBe(dimocoFormDigest(TEST_PAYMENT_SECRET, form.fields));
    const tampered = await press(server, new URL(form.action).pathname, { ...form.fields, amount: '1.00' });
    expect(tampered.status).toBe(400);
    const page = await startPage(server, bought);
    expect(await (await fetch(new URL(page, server.url))).text()).toContain('TEST payment provider: no money moves here.');
    const returned = await press(server, page, { outcome: 'approve', twice: '1' });
    expect(returned.status).toBe(303);
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);
    const refund = await press(server, `${page}/callback`, { status: 'refund' });
    expect(refund.status).toBe(200);
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Refunded);
    expect((await documentsOfOrder(server, bought.orderId)).map((row) => row.kind)).toEqual(['receipt', 'credit_note']);
  });

  it('decline → Failed; expire → Expired and a late success is flagged, never credited', async () => {
    const declined = await buy(server, who, membership30, 'carrier');
    await press(server, await startPage(server, declined), { outcome: 'decline' });
    expect((await orderRow(server, declined.orderId)).status).toBe(ORDER_STATUS.Failed);
    const expired = await buy(server, who, membership30, 'carrier');
    const page = await startPage(server, expired);
    await press(server, page, { outcome: 'expire' });
    expect((await orderRow(server, expired.orderId)).status).toBe(ORDER_STATUS.Expired);
    expect((await callback(server, result(expired))).status).toBe(200);
    const order = await orderRow(server, expired.orderId);
    expect(order.status).toBe(ORDER_STATUS.Expired);
    expect(order.refundFlaggedAt).not.toBeNull();
    expect(await documentsOfOrder(server, expired.orderId)).toEqual([]);
  });

  it('refused: a bad digest, another merchant, a wrong amount or currency, an unknown reference, XML data', async () => {
    const bought = await buy(server, who, membership30, 'carrier');
    expect(await callback(server, result(bought), 'not-the-test-secret')).toEqual({ status: 400, text: 'Refused' });
    await refusedWith(server, 'bad digest');
    expect((await callback(server, result(bought, { merchant: 'someone' }))).status).toBe(400);
    await refusedWith(server, 'another merchant');
    expect((await callback(server, result(bought, { amount: '1.00' }))).status).toBe(400);
    await refusedWith(server, 'wrong amount');
    expect((await callback(server, result(bought, { currency: 'EUR' }))).status).toBe(400);
    await refusedWith(server, 'wrong currency');
    expect((await callback(server, result(bought, { order: 'TEST-PAY-NOSUCHORDER' }))).status).toBe(400);
    await refusedWith(server, 'unknown reference');
    const xml = '<result><status>success</status></result>';
    const { createHmac } = await import('node:crypto');
    const body = new URLSearchParams({ data: xml, digest: createHmac('sha256', TEST_PAYMENT_SECRET).update(xml).digest('hex') }).toString();
    const answer = await fetch(`${server.url}/api/backend/dimocopostback`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect(answer.status).toBe(400);
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Created);
  });

  it('twenty copies at once: one fulfilment and one receipt; out of order (success before pending) stays Paid', async () => {
    const bought = await buy(server, who, membership30, 'carrier');
    const answers = await Promise.all(Array.from({ length: 20 }, () => callback(server, result(bought))));
    expect(answers.every((answer) => answer.status === 200 && answer.text === 'OK')).toBe(true);
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);
    expect((await callback(server, result(bought, { status: 'pending' }))).status).toBe(200);
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
  });

  it("dimocopayment answers a new form for one's own open order; never another's, nor anonymously", async () => {
    const other = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30, 'carrier');
    const again = await backendApi(server, 'dimocopayment', who.cookie, { body: { Id: bought.orderId } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const form = (again.body as BuyProductAnswer).next as Form;
    expect(form.fields['order']).toBe(bought.referenceId);
    expect(form.fields['request_id']).not.toBe(formOf(bought).fields['request_id']);
    expect((await backendApi(server, 'dimocopayment', other.cookie, { body: { Id: bought.orderId } })).status).toBe(404);
    expect((await backendApi(server, 'dimocopayment', undefined, { body: { Id: bought.orderId } })).status).toBe(401);
    const crypto = await buy(server, who, membership30, 'crypto');
    expect((await backendApi(server, 'dimocopayment', who.cookie, { body: { Id: crypto.orderId } })).status).toBe(409);
  });

  it('only the carrier callback takes a urlencoded body: the crypto one (also a signed callback) answers 415', async () => {
    const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'data=x&digest=y' };
    expect((await fetch(`${server.url}/api/backend/confirmopostback`, form)).status).toBe(415);
    expect((await fetch(`${server.url}/api/backend/dimocopostback`, form)).status).toBe(400);
  });

  it('the session is redacted in logged paths, the start address is not', () => {
    expect(loggableUrl('/test-payments/carrier/testcarrier-abc/callback')).not.toContain('testcarrier-abc');
    expect(loggableUrl('/test-payments/carrier/start')).toBe('/test-payments/carrier/start');
  });
});

describe('the live carrier provider (PAYMENT_CARRIER=dimoco)', () => {
  const LIVE = { merchant: 'live-merchant-7', password: 'live-dimoco-password' };
  let live: TestServer;
  beforeAll(async () => {
    live = await startCommerceServer({ app: { paymentCarrier: { kind: 'dimoco', ...LIVE, url: 'https://services.dimoco.example/smart/payment' }, paymentCrypto: { kind: 'off' } } });
  });
  afterAll(async () => {
    await live?.close();
  });

  it("signs the start form with the merchant's password; its callback credits once; a TEST-PAY- reference never does", async () => {
    const who = await commerceAdvertiser(live);
    const bought = await buy(live, who, await productIdOf(live, 'membership-30'), 'carrier');
    const form = formOf(bought);
    expect(form.action).toBe('https://services.dimoco.example/smart/payment');
    expect(bought.referenceId).toMatch(/^PAY-/);
    expect(form.fields['digest']).toBe(dimocoFormDigest(LIVE.password, form.fields));
    const data = result(bought, { merchant: LIVE.merchant });
    expect((await callback(live, data))).toEqual({ status: 400, text: 'Refused' });
    expect(await callback(live, data, LIVE.password)).toEqual({ status: 200, text: 'OK' });
    expect((await orderRow(live, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
    const second = await buy(live, who, await productIdOf(live, 'membership-30'), 'carrier');
    const testReference = `TEST-PAY-${second.referenceId.slice(4)}`;
    await live.db.update(orders).set({ referenceId: testReference }).where(eq(orders.id, second.orderId));
    expect((await callback(live, result(second, { merchant: LIVE.merchant, order: testReference }), LIVE.password)).status).toBe(400);
    await refusedWith(live, 'a TEST-PAY- reference while a live provider is configured');
  });

  it("the pages' CSP lets the browser post the start form to DIMOCO_URL's origin (form-action), where the TEST provider's server admits only its own", async () => {
    const formAction = async (target: TestServer) => {
      const response = await fetch(`${target.url}/api/frontend/websiteconfig`);
      await response.arrayBuffer();
      return /(?:^|;)\s*form-action ([^;]+)/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
    };
    // form-action 'self' alone made the browser refuse to send the form to DIMOCO: nobody could pay by phone bill.
    expect(await formAction(live)).toBe("'self' https://services.dimoco.example");
    expect(await formAction(server)).toBe("'self'");
  });

  it('a method not offered (PAYMENT_CRYPTO=off) is refused: 409 methodUnavailable', async () => {
    const who = await commerceAdvertiser(live);
    const answer = await backendApi(live, 'buyproduct', who.cookie, { body: { ProductId: await productIdOf(live, 'membership-30'), PaymentMethod: 'crypto' } });
    expect(answer.status).toBe(409);
    expect(answer.body.errors).toEqual([{ field: 'ProductId', message: 'methodUnavailable' }]);
  });
});
