/**
 * Crypto payments (issue 16; spec §7 confirmopayment, confirmopostback; docs/decisions/025-commerce.md):
 * the built-in TEST crypto provider's page and notifications over real HTTP, and the real Confirmo
 * provider against a local stand-in of Confirmo's API (tests/support/confirmo-stand-in.ts). A notification
 * is trusted only once the invoice read back from the provider agrees with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { orders } from '#server/db/schema.ts';
import { ORDER_STATUS } from '#server/domain/commerce/order-status.ts';
import { confirmoSignature } from '#server/adapters/payments/confirmo.ts';
import { loggableUrl } from '#server/logger.ts';
import type { TestServer } from '#tests/support/test-server.ts';
import { startConfirmoStandIn, type ConfirmoStandIn } from '#tests/support/confirmo-stand-in.ts';
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

beforeAll(async () => {
  server = await startCommerceServer();
  membership30 = await productIdOf(server, 'membership-30');
});
afterAll(async () => {
  await server?.close();
});

const invoiceIdOf = (bought: { next: { kind: string; url?: string } }) => pageOf(bought as never).split('/').at(-1)!;

/** Posts a notification signed with the TEST secret (or `password`) to the server's confirmopostback. */
async function notification(target: TestServer, invoice: Record<string, unknown>, password = TEST_PAYMENT_SECRET) {
  const body = JSON.stringify(invoice);
  const response = await fetch(`${target.url}/api/backend/confirmopostback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'bp-signature': confirmoSignature(body, password) },
    body,
  });
  return { status: response.status, text: await response.text() };
}

describe('the TEST crypto provider (PAYMENT_CRYPTO=test)', () => {
  it('says it is a test; paying sends confirming then paid: the order is fulfilled once, with one receipt', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30, 'crypto');
    expect(bought.referenceId).toMatch(/^TEST-PAY-/);
    expect(pageOf(bought)).toMatch(/^\/test-payments\/crypto\/testinv[0-9a-f]{32}$/);
    const page = await (await fetch(new URL(pageOf(bought), server.url))).text();
    expect(page).toContain('TEST payment provider: no money moves here.');
    const returned = await pay(server, bought, 'approve');
    expect(returned.status).toBe(303);
    expect(returned.headers.get('location')).toContain(`referenceID=${bought.referenceId}`);
    const order = await orderRow(server, bought.orderId);
    expect(order.status).toBe(ORDER_STATUS.Paid);
    expect(order.paymentProvider).toBe('confirmo');
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);
    const events = await paymentEventsOf(server, bought.orderId);
    expect(events.map((row) => [row.eventKey.split(':')[1], row.outcome])).toEqual([['confirming', 'applied'], ['paid', 'applied']]);
  });

  it('sent twice: one fulfilment; the invoice read back needs the test secret', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30, 'crypto');
    await pay(server, bought, 'approve', { twice: true });
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);
    const api = `${server.url}/test-payments/crypto/api/v3/invoices/${invoiceIdOf(bought)}`;
    expect((await fetch(api)).status).toBe(401);
    const invoice = await (await fetch(api, { headers: { authorization: `Bearer ${TEST_PAYMENT_SECRET}` } })).json();
    expect(invoice).toMatchObject({ status: 'paid', reference: bought.referenceId, merchantAmount: { amount: '499.00', currency: 'DKK' } });
  });

  it('fail → Failed; expire → Expired, and a paid after expiry is flagged for refund, never credited', async () => {
    const who = await commerceAdvertiser(server);
    const failed = await buy(server, who, membership30, 'crypto');
    await pay(server, failed, 'decline');
    expect((await orderRow(server, failed.orderId)).status).toBe(ORDER_STATUS.Failed);
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
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Created);
    expect(await providerEvent(server, bought, 'invoice', { status: 'paid' })).toEqual([200]);
    expect(await providerEvent(server, bought, 'invoice', { status: 'confirming' })).toEqual([200]);
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);
  });

  it('refused: a bad signature, and a notification the invoice read back does not bear out', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30, 'crypto');
    const claim = { id: invoiceIdOf(bought), status: 'paid', reference: bought.referenceId, merchantAmount: { amount: '499.00', currency: 'DKK' } };
    expect(await notification(server, claim, 'not-the-test-secret-at-all')).toEqual({ status: 400, text: 'Refused' });
    await refusedWith(server, 'bad signature');
    // Signed right, but the invoice is still active at the provider.
    expect((await notification(server, claim)).status).toBe(400);
    await refusedWith(server, 'the notification says paid, the invoice read back active');
    expect((await notification(server, { ...claim, status: 'active', merchantAmount: { amount: '1.00', currency: 'DKK' } })).status).toBe(400);
    await refusedWith(server, 'the invoice read back has another amount');
    expect((await notification(server, { ...claim, id: 'testinvnosuchinvoice' })).status).toBe(400);
    await refusedWith(server, 'the provider knows no such invoice');
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Created);
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

describe('the live crypto provider (PAYMENT_CRYPTO=confirmo) against a stand-in of Confirmo', () => {
  let live: TestServer;
  let confirmo: ConfirmoStandIn;
  let target: string;
  beforeAll(async () => {
    confirmo = await startConfirmoStandIn();
    live = await startCommerceServer({
      app: { paymentCrypto: { kind: 'confirmo', apiKey: confirmo.apiKey, callbackPassword: confirmo.callbackPassword, url: confirmo.url } },
    });
    target = `${live.url}/api/backend/confirmopostback`;
  });
  afterAll(async () => {
    await live?.close();
    await confirmo?.close();
  });

  const buyLive = async () => {
    const who = await commerceAdvertiser(live);
    const bought = await buy(live, who, await productIdOf(live, 'membership-30'), 'crypto');
    const id = new URL((bought.next as { url: string }).url).pathname.split('/').at(-1)!;
    return { who, bought, id };
  };

  it('creates the invoice with our reference, amount and URLs, and redirects to its page', async () => {
    const { bought, id } = await buyLive();
    expect(bought.referenceId).toMatch(/^PAY-/);
    const created = confirmo.requests.find((request) => request.method === 'POST' && (request.body as { reference?: string }).reference === bought.referenceId)!;
    expect(created.body).toMatchObject({
      invoice: { amount: '499.00', currencyFrom: 'DKK' },
      notifyUrl: expect.stringMatching(/\/api\/backend\/confirmopostback$/),
      returnUrl: expect.stringMatching(/\/backend\/callback-payment\/$/),
    });
    expect((await orderRow(live, bought.orderId)).providerSessionId).toBe(id);
  });

  it('confirming → Pending, paid → Paid; twenty copies at once: one fulfilment and one receipt', async () => {
    const { bought, id } = await buyLive();
    confirmo.set(id, { status: 'confirming' });
    expect(await confirmo.notify(id, target)).toEqual({ status: 200, text: '{"received":true}' });
    expect((await orderRow(live, bought.orderId)).status).toBe(ORDER_STATUS.Pending);
    confirmo.set(id, { status: 'paid' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => confirmo.notify(id, target)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect((await orderRow(live, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
    expect(await documentsOfOrder(live, bought.orderId)).toHaveLength(1);
    expect((await paymentEventsOf(live, bought.orderId)).filter((row) => row.outcome === 'applied')).toHaveLength(2);
  });

  it('refused: a bad signature, a wrong amount, a wrong currency, an unknown reference, a postback the invoice disagrees with', async () => {
    const { bought, id } = await buyLive();
    confirmo.set(id, { status: 'paid' });
    expect((await confirmo.notify(id, target, { signature: 'f'.repeat(64) })).status).toBe(400);
    await refusedWith(live, 'bad signature');
    confirmo.set(id, { merchantAmount: { amount: '1.00', currency: 'DKK' } });
    expect((await confirmo.notify(id, target)).status).toBe(400);
    await refusedWith(live, 'wrong amount');
    confirmo.set(id, { merchantAmount: { amount: '499.00', currency: 'EUR' } });
    expect((await confirmo.notify(id, target)).status).toBe(400);
    await refusedWith(live, 'wrong currency');
    confirmo.set(id, { merchantAmount: { amount: '499.00', currency: 'DKK' }, status: 'active' });
    // The notification says paid, the provider's invoice is still active.
    expect((await confirmo.notify(id, target, { tamper: { status: 'paid' } })).status).toBe(400);
    await refusedWith(live, 'the notification says paid, the invoice read back active');
    expect((await confirmo.notify(id, target, { tamper: { reference: 'PAY-SOMETHINGELSE' } })).status).toBe(400);
    await refusedWith(live, 'the invoice read back names another reference');
    const { id: other } = await buyLive();
    confirmo.set(other, { reference: 'PAY-NOSUCHORDER', status: 'paid' });
    expect((await confirmo.notify(other, target)).status).toBe(400);
    await refusedWith(live, 'unknown reference');
    expect((await orderRow(live, bought.orderId)).status).toBe(ORDER_STATUS.Created);
    // The genuine notification still counts.
    confirmo.set(id, { status: 'paid' });
    expect((await confirmo.notify(id, target)).status).toBe(200);
    expect((await orderRow(live, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
  });

  it('a TEST-PAY- reference never credits anything while the live provider is configured', async () => {
    const { bought, id } = await buyLive();
    const testReference = `TEST-PAY-${bought.referenceId.slice(4)}`;
    await live.db.update(orders).set({ referenceId: testReference }).where(eq(orders.id, bought.orderId));
    confirmo.set(id, { reference: testReference, status: 'paid' });
    expect((await confirmo.notify(id, target)).status).toBe(400);
    expect((await orderRow(live, bought.orderId)).status).toBe(ORDER_STATUS.Created);
    await refusedWith(live, 'a TEST-PAY- reference while a live provider is configured');
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

  it('expired → Expired; a paid after that is flagged', async () => {
    const { bought, id } = await buyLive();
    confirmo.set(id, { status: 'expired' });
    expect((await confirmo.notify(id, target)).status).toBe(200);
    expect((await orderRow(live, bought.orderId)).status).toBe(ORDER_STATUS.Expired);
    confirmo.set(id, { status: 'paid' });
    expect((await confirmo.notify(id, target)).status).toBe(200);
    const order = await orderRow(live, bought.orderId);
    expect(order.status).toBe(ORDER_STATUS.Expired);
    expect(order.refundFlaggedAt).not.toBeNull();
  });
});
