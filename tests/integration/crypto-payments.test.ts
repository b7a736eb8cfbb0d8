/**
 * Crypto payments (issue 16, issue 29; spec §7 confirmopayment, confirmopostback; docs/payments/confirmo.md):
 * the LIVE Confirmo adapter against the built-in stand-in of Confirmo (PAYMENT_CRYPTO=test), over real HTTP:
 * the invoice created through Confirmo's API, the hosted TEST page, Confirmo's signed notifications and the
 * invoice read back. A notification is trusted only once the invoice read back agrees with it; a tampered
 * one is refused and credits nothing. Then the same adapter configured live (PAYMENT_CRYPTO=confirmo) with
 * that stand-in as CONFIRMO_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { BuyProductAnswer } from '#lib/schemas/commerce.ts';
import { orders, paymentEvents, refusedPostbacks } from '#server/db/schema.ts';
import { ORDER_STATUS } from '#server/domain/commerce/order-status.ts';
import { confirmoSignature } from '#server/adapters/payments/confirmo.ts';
import { testConfirmoCredentials } from '#server/adapters/payments/test-crypto-provider.ts';
import { loggableUrl } from '#server/logger.ts';
import type { TestServer } from '#tests/support/test-server.ts';
import {
  TEST_PAYMENT_SECRET,
  backendApi,
  buy,
  commerceAdvertiser,
  documentsOfOrder,
  orderRow,
  pageOf,
  pay,
  productIdOf,
  providerEvent,
  paymentEventsOf,
  refusedWith,
  startCommerceServer,
} from './orders-helpers.ts';

let server: TestServer;
let membership30: number;
const { apiKey, callbackPassword } = testConfirmoCredentials(TEST_PAYMENT_SECRET);
/** What the server's own notifyUrl names (SITE_URL in the tests). */
const NOTIFY_URL = 'http://localhost:3000/api/backend/confirmopostback';

beforeAll(async () => {
  server = await startCommerceServer();
  membership30 = await productIdOf(server, 'membership-30');
});
afterAll(async () => {
  await server?.close();
});

const standIn = (target: TestServer = server) => `${target.url}/test-payments/crypto`;
const invoiceIdOf = (bought: BuyProductAnswer) => pageOf(bought).split('/').at(-1)!;

/** `GET /api/v3/invoices/{id}` at the stand-in, as Confirmo answers it: the status and the body's exact text. */
async function readInvoice(id: string, key = apiKey) {
  const response = await fetch(`${standIn()}/api/v3/invoices/${id}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, text: await response.text() };
}

/** `POST /api/v3/invoices` at the stand-in with a raw JSON body. */
async function createInvoice(body: string, key = apiKey) {
  const response = await fetch(`${standIn()}/api/v3/invoices`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** Posts a notification body to a server's confirmopostback, signed as Confirmo signs it (or with `signature`). */
async function notification(target: TestServer, body: string, signature = confirmoSignature(body, callbackPassword)) {
  const response = await fetch(`${target.url}/api/backend/confirmopostback`, { method: 'POST', headers: { 'content-type': 'application/json', 'bp-signature': signature }, body });
  return { status: response.status, text: await response.text() };
}

/** The stand-in's page for an invoice made without buying: the decision, then a later status. */
async function decideInvoice(id: string, outcome: string) {
  const response = await fetch(`${standIn()}/${id}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `outcome=${outcome}`, redirect: 'manual' });
  expect(response.status).toBe(303);
}
const invoiceEvent = (id: string, status: string) => providerEvent(server, { next: { kind: 'redirect', url: `${standIn()}/${id}` } } as BuyProductAnswer, 'invoice', { status });

/**
 * How many notifications were refused for `reason` (each test counts its own): those the provider did not
 * vouch for in the bounded refused_postbacks log, the others in payment_events.
 */
async function refusals(target: TestServer, reason: string) {
  const unvouched = await target.db.select({ id: refusedPostbacks.id }).from(refusedPostbacks).where(eq(refusedPostbacks.reason, reason));
  const stored = await target.db.select({ id: paymentEvents.id }).from(paymentEvents).where(and(eq(paymentEvents.outcome, 'refused'), eq(paymentEvents.reason, reason)));
  return unvouched.length + stored.length;
}

/** Sends a notification and expects it refused for `reason`, stored as such. */
async function expectRefused(target: TestServer, body: string, reason: string, signature?: string) {
  const before = await refusals(target, reason);
  expect(await notification(target, body, signature)).toEqual({ status: 400, text: 'Refused' });
  expect(await refusals(target, reason), reason).toBe(before + 1);
}

const statusesOf = async (orderId: number) => (await paymentEventsOf(server, orderId)).map((row) => [row.eventKey.split(':')[1], row.outcome]);

describe('the live Confirmo adapter against the TEST stand-in (PAYMENT_CRYPTO=test)', () => {
  it('creates the invoice through Confirmo`s API; its creation is notified and read back: the order is Pending', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30, 'crypto');
    expect(bought.referenceId).toMatch(/^TEST-PAY-/);
    // The buyer's invoice page is on SITE_URL; the adapter talked to the stand-in at the server's own address.
    expect(bought.next).toMatchObject({ kind: 'redirect', url: expect.stringMatching(/^http:\/\/localhost:3000\/test-payments\/crypto\/testinv[0-9a-f]{32}$/) });
    const id = invoiceIdOf(bought);
    expect((await orderRow(server, bought.orderId)).providerSessionId).toBe(id);
    const read = await readInvoice(id);
    expect(read.status).toBe(200);
    expect(JSON.parse(read.text)).toMatchObject({
      id,
      status: 'prepared',
      reference: bought.referenceId,
      merchantAmount: { amount: '499', currency: 'DKK' },
      product: { name: 'Annonce i 30 dage' },
      returnUrl: `http://localhost:3000/backend/callback-payment/?type=crypto&referenceID=${bought.referenceId}`,
      notifyUrl: NOTIFY_URL,
      url: `http://localhost:3000/test-payments/crypto/${id}`,
    });
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Pending);
    expect(await statusesOf(bought.orderId)).toEqual([['prepared', 'applied']]);
    // Confirmo's API needs the key.
    expect((await readInvoice(id, 'not-the-key')).status).toBe(401);
    expect((await fetch(`${standIn()}/api/v3/invoices/${id}`)).status).toBe(401);
    expect((await readInvoice('testinvnosuchinvoice')).status).toBe(404);
    const page = await (await fetch(new URL(pageOf(bought), server.url))).text();
    expect(page).toContain('TEST payment provider: no money moves here.');
    expect(page).toContain('499,00');
  });

  it('a first sale: Pay sends active, confirming, paid; the order is fulfilled once with one receipt, and the buyer returns to returnUrl', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30, 'crypto');
    const returned = await pay(server, bought, 'approve');
    expect(returned.status).toBe(303);
    expect(returned.headers.get('location')).toBe(`http://localhost:3000/backend/callback-payment/?type=crypto&referenceID=${bought.referenceId}`);
    const order = await orderRow(server, bought.orderId);
    expect(order.status).toBe(ORDER_STATUS.Paid);
    expect(order.paymentProvider).toBe('confirmo');
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);
    expect(await statusesOf(bought.orderId)).toEqual([
      ['prepared', 'applied'],
      ['active', 'ignored'],
      ['confirming', 'ignored'],
      ['paid', 'applied'],
    ]);
    expect(JSON.parse((await readInvoice(invoiceIdOf(bought))).text)).toMatchObject({ status: 'paid', paidSince: expect.any(Number) });
  });

  it('a notification sent twice, and twenty copies at once: one fulfilment and one receipt', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30, 'crypto');
    await pay(server, bought, 'approve', { twice: true });
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);
    // Confirmo sends a notification again until it is answered 200: the same body, the same signature.
    const { text } = await readInvoice(invoiceIdOf(bought));
    const answers = await Promise.all(Array.from({ length: 20 }, () => notification(server, text)));
    expect(answers.every((answer) => answer.status === 200 && answer.text === '{"received":true}')).toBe(true);
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);
    expect((await paymentEventsOf(server, bought.orderId)).filter((row) => row.outcome === 'applied')).toHaveLength(2);
  });

  it('fail → Failed (error after confirming); expire → Expired, and a paid after expiry is flagged for refund, never credited', async () => {
    const who = await commerceAdvertiser(server);
    const failed = await buy(server, who, membership30, 'crypto');
    await pay(server, failed, 'decline');
    expect((await orderRow(server, failed.orderId)).status).toBe(ORDER_STATUS.Failed);
    expect((await statusesOf(failed.orderId)).at(-1)).toEqual(['error', 'applied']);
    const expired = await buy(server, who, membership30, 'crypto');
    await pay(server, expired, 'expire');
    expect((await orderRow(server, expired.orderId)).status).toBe(ORDER_STATUS.Expired);
    expect(await providerEvent(server, expired, 'invoice', { status: 'paid' })).toEqual([200]);
    const order = await orderRow(server, expired.orderId);
    expect(order.status).toBe(ORDER_STATUS.Expired);
    expect(order.refundFlaggedAt).not.toBeNull();
    expect(await documentsOfOrder(server, expired.orderId)).toEqual([]);
  });

  it('out of order: paid before confirming; the late confirming changes nothing', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30, 'crypto');
    await pay(server, bought, 'abandon');
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Pending);
    expect(await providerEvent(server, bought, 'invoice', { status: 'paid' })).toEqual([200]);
    expect(await providerEvent(server, bought, 'invoice', { status: 'confirming' })).toEqual([200]);
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);
  });

  it('each tampered notification is refused and credits nothing', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30, 'crypto');
    const id = invoiceIdOf(bought);
    const genuine = (await readInvoice(id)).text;
    const claim = (patch: Record<string, unknown>) => JSON.stringify({ ...(JSON.parse(genuine) as Record<string, unknown>), ...patch });
    // Signed with another password; changed after it was signed; not signed.
    await expectRefused(server, genuine, 'bad signature', confirmoSignature(genuine, 'not-the-callback-password'));
    await expectRefused(server, claim({ status: 'paid' }), 'bad signature', confirmoSignature(genuine, callbackPassword));
    await expectRefused(server, genuine, 'bad signature', '');
    // Signed right, but the invoice read back is still prepared: a notification claiming paid is not borne out.
    await expectRefused(server, claim({ status: 'paid' }), 'the notification says paid, the invoice read back prepared');
    await expectRefused(server, claim({ merchantAmount: { amount: '1', currency: 'DKK' } }), 'the invoice read back has another amount');
    await expectRefused(server, claim({ merchantAmount: { amount: 499, currency: 'EUR' } }), 'the invoice read back has another amount');
    await expectRefused(server, claim({ merchantAmount: { amount: '499.001', currency: 'DKK' } }), 'unreadable amount');
    await expectRefused(server, claim({ reference: 'TEST-PAY-SOMETHINGELSE' }), 'the invoice read back names another reference');
    await expectRefused(server, claim({ id: 'testinvnosuchinvoice' }), 'the provider knows no such invoice');
    await expectRefused(server, claim({ status: 'refunded' }), 'not an invoice');
    const order = await orderRow(server, bought.orderId);
    expect(order.status).toBe(ORDER_STATUS.Pending);
    expect(order.paidAt).toBeNull();
    expect(await documentsOfOrder(server, bought.orderId)).toEqual([]);
    // The genuine notification of the paid invoice still counts.
    await pay(server, bought, 'approve');
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
  });

  it('an invoice at the provider for another amount, another currency or an unknown reference credits nothing', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30, 'crypto');
    const invoiceFor = async (invoice: Record<string, unknown>, reference = bought.referenceId) => {
      const created = await createInvoice(JSON.stringify({ invoice, settlement: { currency: 'DKK' }, reference, notifyUrl: NOTIFY_URL }));
      expect(created.status, JSON.stringify(created.json)).toBe(200);
      const id = created.json['id'] as string;
      await decideInvoice(id, 'abandon');
      return id;
    };
    const cheap = await invoiceFor({ amount: 1, currencyFrom: 'DKK' });
    expect(await invoiceEvent(cheap, 'paid')).toEqual([400]);
    await refusedWith(server, 'wrong amount');
    const euros = await invoiceFor({ amount: 499, currencyFrom: 'EUR' });
    expect(await invoiceEvent(euros, 'paid')).toEqual([400]);
    await refusedWith(server, 'wrong currency');
    const before = await refusals(server, 'unknown reference');
    const nobody = await invoiceFor({ amount: '499.00', currencyFrom: 'DKK' }, 'TEST-PAY-NOSUCHORDER');
    expect(await invoiceEvent(nobody, 'paid')).toEqual([400]);
    // Its creation and its payment.
    expect(await refusals(server, 'unknown reference')).toBe(before + 2);
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Pending);
    expect(await documentsOfOrder(server, bought.orderId)).toEqual([]);
  });

  it('the stand-in takes Confirmo`s request as Confirmo documents it: an amount as a number or a decimal string; refuses what Confirmo would', async () => {
    const request = (invoice: Record<string, unknown>, extra: Record<string, unknown> = {}) => JSON.stringify({ invoice, settlement: { currency: 'DKK' }, product: { name: 'x' }, ...extra });
    for (const body of [request({ amount: 19.99, currencyFrom: 'DKK' }), request({ amount: '19.99', currencyFrom: 'DKK' }), '{"invoice":{"amount":19.990,"currencyFrom":"DKK"},"settlement":{}}']) {
      const created = await createInvoice(body);
      expect(created.status, body).toBe(200);
      expect(created.json).toMatchObject({ status: 'prepared', merchantAmount: { amount: '19.99', currency: 'DKK' }, reference: null, notifyUrl: null });
    }
    expect((await createInvoice(request({ amount: 1199.5, currencyFrom: 'DKK' }))).json).toMatchObject({ merchantAmount: { amount: '1199.5' } });
    for (const [body, status] of [
      [request({ amount: 19.999, currencyFrom: 'DKK' }), 400],
      [request({ amount: '0.001', currencyFrom: 'DKK' }), 400],
      [request({ amount: -5, currencyFrom: 'DKK' }), 400],
      [request({ amount: 5 }), 400],
      [JSON.stringify({ invoice: { amount: 5, currencyFrom: 'DKK' } }), 400],
      [request({ amount: 5, currencyFrom: 'DKK' }, { notifyUrl: 'https://elsewhere.example/notify' }), 400],
      ['not json', 400],
    ] as const) {
      expect((await createInvoice(body)).status, body).toBe(status);
    }
    expect((await createInvoice(request({ amount: 5, currencyFrom: 'DKK' }), 'not-the-key')).status).toBe(401);
  });

  it("confirmopayment starts the crypto payment of one's own open order again; never another's, nor anonymously", async () => {
    const who = await commerceAdvertiser(server);
    const other = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30, 'crypto');
    const again = await backendApi(server, 'confirmopayment', who.cookie, { body: { Id: bought.orderId } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ orderId: bought.orderId, referenceId: bought.referenceId, next: { kind: 'redirect' } });
    expect(pageOf(again.body as never)).not.toBe(pageOf(bought));
    expect((await backendApi(server, 'confirmopayment', other.cookie, { body: { Id: bought.orderId } })).status).toBe(404);
    expect((await backendApi(server, 'confirmopayment', undefined, { body: { Id: bought.orderId } })).status).toBe(401);
    const card = await buy(server, who, membership30, 'card');
    expect((await backendApi(server, 'confirmopayment', who.cookie, { body: { Id: card.orderId } })).status).toBe(409);
    await pay(server, again.body as never, 'approve');
    const paid = await backendApi(server, 'confirmopayment', who.cookie, { body: { Id: bought.orderId } });
    expect(paid.status).toBe(409);
    expect(JSON.stringify(paid.body)).toContain('orderNotOpen');
  });

  it('the invoice id is redacted in logged paths', () => {
    expect(loggableUrl('/test-payments/crypto/testinvabc123/invoice')).not.toContain('testinvabc123');
    expect(loggableUrl('/test-payments/crypto/api/v3/invoices/testinvabc123')).not.toContain('testinvabc123');
  });
});

describe('the same adapter configured live (PAYMENT_CRYPTO=confirmo), with the stand-in as CONFIRMO_URL', () => {
  let live: TestServer;
  beforeAll(async () => {
    live = await startCommerceServer({ app: { paymentCrypto: { kind: 'confirmo', apiKey, callbackPassword, url: standIn() } } });
  });
  afterAll(async () => {
    await live?.close();
  });

  /** A buy at the live server: its invoice at the stand-in (whose own notifications go to the TEST server, which refuses a live reference). */
  const buyLive = async () => {
    const who = await commerceAdvertiser(live);
    const bought = await buy(live, who, await productIdOf(live, 'membership-30'), 'crypto');
    return { bought, id: invoiceIdOf(bought) };
  };

  it('a live reference; the notification of the paid invoice, read back, fulfils it once', async () => {
    const { bought, id } = await buyLive();
    expect(bought.referenceId).toMatch(/^PAY-/);
    expect((await orderRow(live, bought.orderId)).providerSessionId).toBe(id);
    await decideInvoice(id, 'abandon');
    await invoiceEvent(id, 'paid');
    const { text } = await readInvoice(id);
    expect(await notification(live, text)).toEqual({ status: 200, text: '{"received":true}' });
    expect(await notification(live, text)).toEqual({ status: 200, text: '{"received":true}' });
    expect((await orderRow(live, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
    expect(await documentsOfOrder(live, bought.orderId)).toHaveLength(1);
    await expectRefused(live, text.replace('"status":"paid"', '"status":"expired"'), 'bad signature', confirmoSignature(text, callbackPassword));
  });

  it('a TEST-PAY- reference never credits anything while the live provider is configured', async () => {
    const { bought } = await buyLive();
    const testReference = `TEST-PAY-${bought.referenceId.slice(4)}`;
    await live.db.update(orders).set({ referenceId: testReference }).where(eq(orders.id, bought.orderId));
    const created = await createInvoice(JSON.stringify({ invoice: { amount: 499, currencyFrom: 'DKK' }, settlement: { currency: 'DKK' }, reference: testReference }));
    const id = created.json['id'] as string;
    await decideInvoice(id, 'abandon');
    await invoiceEvent(id, 'paid');
    await expectRefused(live, (await readInvoice(id)).text, 'a TEST-PAY- reference while a live provider is configured');
    expect((await orderRow(live, bought.orderId)).status).toBe(ORDER_STATUS.Created);
  });

  it('a provider that cannot be reached is a 503 at the start, and the order stays unpaid', async () => {
    const down = await startCommerceServer({ app: { paymentCrypto: { kind: 'confirmo', apiKey: 'k', callbackPassword: 'p', url: 'http://127.0.0.1:9' } } });
    try {
      const who = await commerceAdvertiser(down);
      const answer = await backendApi(down, 'buyproduct', who.cookie, { body: { ProductId: await productIdOf(down, 'membership-30'), PaymentMethod: 'crypto' } });
      expect(answer.status).toBe(503);
    } finally {
      await down.close();
    }
  });
});
