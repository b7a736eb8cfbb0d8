/**
 * Carrier billing (issue 16, issue 29; spec §7 dimocopayment, dimocopostback; docs/payments/dimoco.md): the
 * live DIMOCO pay:smart adapter over real HTTP, against the built-in stand-in of pay:smart
 * (PAYMENT_CARRIER=test: a test merchant whose password is PAYMENT_TEST_SECRET) and configured as for
 * DIMOCO itself (PAYMENT_CARRIER=dimoco). The callbacks the tests send themselves are written here as
 * pay:smart results and signed here, by the rule, never by the code under test.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { BuyProductAnswer } from '#lib/schemas/commerce.ts';
import { orders } from '#server/db/schema.ts';
import { ORDER_STATUS } from '#server/domain/commerce/order-status.ts';
import { TEST_CARRIER_MERCHANT, TEST_CARRIER_ORDER } from '#server/adapters/payments/test-carrier-provider.ts';
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
const hmac = (text: string, key: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');
/** pay:smart's digest of a request: HMAC-SHA256 with the password over the values in the order of the names. */
const digestOf = (fields: Record<string, string>, key: string) =>
  hmac(
    Object.keys(fields)
      .filter((name) => name !== 'digest')
      .sort()
      .map((name) => fields[name])
      .join(''),
    key,
  );

const postForm = (target: TestServer, path: string, fields: Record<string, string>) =>
  fetch(new URL(path, target.url), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });

/** Posts the start form to the stand-in as the browser does; answers the TEST page's path. */
async function startPage(target: TestServer, bought: BuyProductAnswer): Promise<string> {
  const form = formOf(bought);
  const response = await postForm(target, new URL(form.action).pathname, form.fields);
  expect(response.status, await response.clone().text()).toBe(303);
  return response.headers.get('location')!;
}

/** A pay:smart result for an order's start form (or a refund of it), as DIMOCO writes one. */
function resultXml(bought: BuyProductAnswer, options: { action?: string; status?: string; order?: string; amount?: string; currency?: string; requestId?: string; transaction?: boolean } = {}): string {
  const status = options.status ?? '0';
  const transaction =
    options.transaction ?? status === '0'
      ? `<transactions><transaction><id>tx-${bought.orderId}</id><amount>${options.amount ?? '499.00'}</amount><billed_amount>${options.amount ?? '499.00'}</billed_amount><currency>${options.currency ?? 'DKK'}</currency></transaction></transactions>`
      : '';
  return (
    `<?xml version="1.0" encoding="UTF-8"?><result><action>${options.action ?? 'start'}</action><action_result><status>${status}</status></action_result>` +
    `<reference>r-${bought.orderId}</reference><request_id>${options.requestId ?? formOf(bought).fields['request_id']}</request_id>` +
    `<payment_parameters><order>${options.order ?? TEST_CARRIER_ORDER}</order></payment_parameters>${transaction}</result>`
  );
}

/** A callback as pay:smart sends it: `data` and `digest` = HMAC-SHA256(password, data). */
async function callback(target: TestServer, data: string, password = TEST_PAYMENT_SECRET, digest = hmac(data, password)) {
  const response = await fetch(`${target.url}/api/backend/dimocopostback`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ data, digest }).toString(),
  });
  return { status: response.status, text: await response.text() };
}

describe('the live adapter against the stand-in of pay:smart (PAYMENT_CARRIER=test)', () => {
  let who: Advertiser;
  beforeAll(async () => {
    who = await commerceAdvertiser(server);
  });

  it('answers the start form of action start, signed by the rule; no currency and no language (the contract decides them)', async () => {
    const bought = await buy(server, who, membership30, 'carrier');
    expect(bought.referenceId).toMatch(/^TEST-PAY-/);
    const form = formOf(bought);
    expect(new URL(form.action).pathname).toBe('/test-payments/carrier/start');
    expect(Object.keys(form.fields).sort()).toEqual(['action', 'amount', 'digest', 'merchant', 'order', 'request_id', 'service_name', 'url_callback', 'url_return']);
    expect(form.fields).toMatchObject({ action: 'start', amount: '499.00', merchant: TEST_CARRIER_MERCHANT, order: TEST_CARRIER_ORDER });
    expect(form.fields['request_id']).toMatch(new RegExp(`^${bought.referenceId}\\.[0-9a-f]{24}$`));
    expect(form.fields['url_callback']).toMatch(/\/api\/backend\/dimocopostback$/);
    expect(form.fields['url_return']).toMatch(new RegExp(`/backend/callback-payment/\\?referenceID=${bought.referenceId}$`));
    expect(form.fields['digest']).toBe(digestOf(form.fields, TEST_PAYMENT_SECRET));
  });

  it('the stand-in refuses a start form pay:smart would refuse: a changed amount, another merchant or order, a missing parameter, another digest key', async () => {
    const form = formOf(await buy(server, who, membership30, 'carrier'));
    const path = new URL(form.action).pathname;
    const resigned = (fields: Record<string, string>, key = TEST_PAYMENT_SECRET) => ({ ...fields, digest: digestOf(fields, key) });
    expect((await postForm(server, path, { ...form.fields, amount: '1.00' })).status).toBe(400);
    expect((await postForm(server, path, resigned({ ...form.fields, merchant: 'someone' }))).status).toBe(400);
    expect((await postForm(server, path, resigned({ ...form.fields, order: 'another-order' }))).status).toBe(400);
    const { service_name: _, ...withoutName } = form.fields;
    expect((await postForm(server, path, resigned(withoutName))).status).toBe(400);
    expect((await postForm(server, path, resigned(form.fields, 'another-key-0123456789'))).status).toBe(400);
    expect((await postForm(server, path, form.fields)).status).toBe(303);
  });

  it('a first sale: approve (the callback sent twice) → Paid with one receipt, the buyer back at url_return; a refund → Refunded with a credit note', async () => {
    const bought = await buy(server, who, membership30, 'carrier');
    const page = await startPage(server, bought);
    expect(await (await fetch(new URL(page, server.url))).text()).toContain('TEST payment provider: no money moves here.');
    const returned = await postForm(server, page, { outcome: 'approve', timing: 'before-return', twice: '1' });
    expect(returned.status).toBe(303);
    expect(returned.headers.get('location')).toBe(formOf(bought).fields['url_return']);
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);
    const refund = await postForm(server, `${page}/callback`, { status: 'refund' });
    expect(refund.status).toBe(200);
    expect(await refund.text()).toContain('data-statuses="200"');
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Refunded);
    expect((await documentsOfOrder(server, bought.orderId)).map((row) => row.kind)).toEqual(['receipt', 'credit_note']);
  });

  it('decline → Failed; abandon sends nothing (the order stays open until it expires); a late success after the expiry is flagged, never credited', async () => {
    const declined = await buy(server, who, membership30, 'carrier');
    await postForm(server, await startPage(server, declined), { outcome: 'decline', timing: 'before-return' });
    expect((await orderRow(server, declined.orderId)).status).toBe(ORDER_STATUS.Failed);
    const abandoned = await buy(server, who, membership30, 'carrier');
    expect((await postForm(server, await startPage(server, abandoned), { outcome: 'abandon', timing: 'before-return' })).status).toBe(303);
    expect((await orderRow(server, abandoned.orderId)).status).toBe(ORDER_STATUS.Created);
    await server.db.update(orders).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(orders.id, abandoned.orderId));
    expect((await callback(server, resultXml(abandoned))).status).toBe(200);
    const order = await orderRow(server, abandoned.orderId);
    expect(order.status).toBe(ORDER_STATUS.Expired);
    expect(order.refundFlaggedAt).not.toBeNull();
    expect(await documentsOfOrder(server, abandoned.orderId)).toEqual([]);
  });

  it('each tampered callback is refused and stored, and nothing is credited', async () => {
    const bought = await buy(server, who, membership30, 'carrier');
    const genuine = resultXml(bought);
    expect(await callback(server, genuine, 'not-the-test-secret-0123')).toEqual({ status: 400, text: 'Refused' });
    await refusedWith(server, 'bad digest');
    expect((await callback(server, genuine.replace('<billed_amount>499.00', '<billed_amount>1.00'), TEST_PAYMENT_SECRET, hmac(genuine, TEST_PAYMENT_SECRET))).status).toBe(400);
    expect((await callback(server, resultXml(bought, { order: 'another-order' }))).status).toBe(400);
    await refusedWith(server, 'another order');
    expect((await callback(server, resultXml(bought, { status: '9' }))).status).toBe(400);
    await refusedWith(server, 'unsupported start status 9');
    expect((await callback(server, resultXml(bought, { amount: '1.00' }))).status).toBe(400);
    await refusedWith(server, 'wrong amount');
    expect((await callback(server, resultXml(bought, { currency: 'EUR' }))).status).toBe(400);
    await refusedWith(server, 'wrong currency');
    expect((await callback(server, resultXml(bought, { requestId: 'TEST-PAY-NOSUCHORDER.0011' }))).status).toBe(400);
    await refusedWith(server, 'unknown reference');
    // The old reading (JSON with word statuses) is no pay:smart result.
    expect((await callback(server, JSON.stringify({ action: 'payment', status: 'success', order: bought.referenceId }))).status).toBe(400);
    await refusedWith(server, 'data is not well-formed XML');
    expect((await callback(server, `<!DOCTYPE result [<!ENTITY x "0">]>${genuine.replace(/^<\?xml[^>]*\?>/, '')}`)).status).toBe(400);
    await refusedWith(server, 'data declares a DTD');
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Created);
    expect(await documentsOfOrder(server, bought.orderId)).toEqual([]);
  });

  it('twenty copies at once: one fulfilment and one receipt; a pending result after the success leaves it Paid', async () => {
    const bought = await buy(server, who, membership30, 'carrier');
    const answers = await Promise.all(Array.from({ length: 20 }, () => callback(server, resultXml(bought))));
    expect(answers.every((answer) => answer.status === 200 && answer.text === 'OK')).toBe(true);
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);
    expect((await callback(server, resultXml(bought, { status: '5' }))).status).toBe(200);
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
  });

  it("dimocopayment answers a new form for one's own open order; never another's, nor anonymously", async () => {
    const other = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30, 'carrier');
    const again = await backendApi(server, 'dimocopayment', who.cookie, { body: { Id: bought.orderId } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const form = (again.body as BuyProductAnswer).next as Form;
    expect(form.fields['request_id']).toMatch(new RegExp(`^${bought.referenceId}\\.`));
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

describe('the live adapter configured for DIMOCO (PAYMENT_CARRIER=dimoco)', () => {
  const LIVE = { merchant: 'live-merchant-7', order: '115510', password: 'live-dimoco-password' };
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
    expect(form.fields).toMatchObject({ action: 'start', merchant: LIVE.merchant, order: LIVE.order });
    expect(form.fields['digest']).toBe(digestOf(form.fields, LIVE.password));
    const data = resultXml(bought, { order: LIVE.order });
    expect(await callback(live, data)).toEqual({ status: 400, text: 'Refused' });
    expect(await callback(live, data, LIVE.password)).toEqual({ status: 200, text: 'OK' });
    expect((await orderRow(live, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
    expect(await documentsOfOrder(live, bought.orderId)).toHaveLength(1);
    const second = await buy(live, who, await productIdOf(live, 'membership-30'), 'carrier');
    const testReference = `TEST-PAY-${second.referenceId.slice(4)}`;
    await live.db.update(orders).set({ referenceId: testReference }).where(eq(orders.id, second.orderId));
    expect((await callback(live, resultXml(second, { order: LIVE.order, requestId: `${testReference}.0011` }), LIVE.password)).status).toBe(400);
    await refusedWith(live, 'a TEST-PAY- reference while a live provider is configured');
  });

  it("the pages' CSP lets the browser post the start form to DIMOCO_URL's origin (form-action), where the TEST setup admits only its own", async () => {
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
