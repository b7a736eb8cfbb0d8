/**
 * Card postbacks over real HTTP (issue 16; spec §7 cardbillingpostback; docs/decisions/025-commerce.md):
 * every copy is stored raw; a duplicate changes nothing; twenty copies at once give one fulfilment and one
 * receipt; refused (400, stored, nothing changes): a bad signature, another shop, a wrong amount or
 * currency, an unknown reference, a TEST-PAY- reference while the live card provider is configured; a
 * late payment for an expired order and a second payment for a paid one are flagged, never credited, and
 * support finds them (orders with RefundFlagged); a refund and a chargeback make a credit note and take the
 * unused time back; events out of order (through applyPaymentEvent with a provider of their own);
 * payment_events refuses UPDATE and DELETE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { adverts, orders, paymentEvents, promotions, salesDocuments } from '#server/db/schema.ts';
import { ORDER_STATUS } from '#server/domain/commerce/order-status.ts';
import { applyPaymentEvent } from '#server/domain/commerce/apply-payment-event.ts';
import { flexPaySignature } from '#server/adapters/payments/flexpay.ts';
import { createPaymentProviders } from '#server/adapters/payments/registry.ts';
import type { PaymentEvent, PaymentProvider } from '#server/adapters/types.ts';
import { SYSTEM } from '#server/domain/context.ts';
import type { TestServer } from '#tests/support/test-server.ts';
import type { Advertiser } from './verification-helpers.ts';
import {
  DAY,
  buy,
  commerceAdvertiser,
  documentsOfOrder,
  orderRow,
  pay,
  postback,
  productIdOf,
  saleEvent,
  saleParams,
  paymentEventsOf,
  refusedWith,
  startCommerceServer,
  waitForStatus,
} from './orders-helpers.ts';
import { call, fieldErrors } from './accounts-helpers.ts';
import { createSupportUserOverHttp, signInSupport } from './support-helpers.ts';

let server: TestServer;
let membership30: number;

beforeAll(async () => {
  server = await startCommerceServer();
  membership30 = await productIdOf(server, 'membership-30');
});
afterAll(async () => {
  await server?.close();
});

const expirationOf = async (who: Advertiser) => (await server.db.select().from(adverts).where(eq(adverts.id, who.advertId)))[0]!.expirationDate!;
const eventsOf = (orderId: number) => paymentEventsOf(server, orderId);
const promotionsOf = (orderId: number) => server.db.select().from(promotions).where(eq(promotions.orderId, orderId));

describe('copies of one postback', () => {
  it('a duplicate is answered OK and changes nothing', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30);
    const params = saleParams(bought, 49_900);
    expect(await postback(server, params)).toEqual({ status: 200, text: 'OK' });
    const expiry = await expirationOf(who);
    expect(await postback(server, params)).toEqual({ status: 200, text: 'OK' });
    expect(await expirationOf(who)).toEqual(expiry);
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);
    expect((await eventsOf(bought.orderId)).map((row) => row.outcome)).toEqual(['applied']);
  });

  /** Twenty copies of one sale's postback at the same moment, each to the instance `to` picks: one fulfilment. */
  const twentyCopies = async (to: (copy: number) => TestServer) => {
    const who = await commerceAdvertiser(server);
    const before = await expirationOf(who);
    const bought = await buy(server, who, membership30);
    const params = saleParams(bought, 49_900);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => postback(to(i), params)));
    expect(answers.every((answer) => answer.status === 200 && answer.text === 'OK')).toBe(true);
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);
    expect(await promotionsOf(bought.orderId)).toHaveLength(1);
    expect((await expirationOf(who)).getTime()).toBe(before.getTime() + 30 * DAY);
    expect(await eventsOf(bought.orderId)).toHaveLength(1);
  };

  it('twenty copies sent at the same moment give one fulfilment and one receipt', async () => {
    await twentyCopies(() => server);
  });

  it('twenty copies at the same moment through two instances on the one database give one fulfilment', async () => {
    const other = await startCommerceServer({ shareDatabaseOf: server });
    try {
      await twentyCopies((copy) => (copy % 2 === 0 ? server : other));
    } finally {
      await other.close();
    }
  });

  it("the TEST provider's 'send twice' gives one fulfilment too", async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30);
    await pay(server, bought, 'approve', { twice: true });
    await waitForStatus(server, who, bought.orderId, ORDER_STATUS.Paid);
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);
    expect(await promotionsOf(bought.orderId)).toHaveLength(1);
  });
});

describe('refused postbacks: 400 without detail, kept (capped, apart from the events when unauthenticated), nothing changes', () => {
  let who: Advertiser;
  beforeAll(async () => {
    who = await commerceAdvertiser(server);
  });

  it('a bad signature, another shop, an unknown reference', async () => {
    const bought = await buy(server, who, membership30);
    const params = saleParams(bought, 49_900);
    expect(await postback(server, params, { key: 'not-the-key' })).toEqual({ status: 400, text: 'Refused' });
    const stored = await refusedWith(server, 'bad signature');
    expect(stored.rawQuery).toContain(`referenceID=${bought.referenceId}`);
    expect((await postback(server, params, { shopId: '1' })).status).toBe(400);
    await refusedWith(server, 'another shop');
    expect((await postback(server, { ...params, referenceID: 'TEST-PAY-NOSUCHORDER' })).status).toBe(400);
    await refusedWith(server, 'unknown reference');
    const unsigned = new URLSearchParams({ shopID: '999999', ...params }).toString();
    expect((await fetch(`${server.url}/api/backend/cardbillingpostback?${unsigned}`)).status).toBe(400);
    // Anyone can send those: a long one is kept as a capped prefix, outside the append-only events.
    const long = new URLSearchParams({ ...params, shopID: '999999', custom1: 'x'.repeat(6000), signature: 'f'.repeat(64) }).toString();
    expect((await fetch(`${server.url}/api/backend/cardbillingpostback?${long}`)).status).toBe(400);
    expect((await refusedWith(server, 'bad signature')).rawQuery).toHaveLength(2000);
    expect(await paymentEventsOf(server, bought.orderId)).toEqual([]);
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Created);
    // A refusal never takes the event's key: the genuine postback still counts.
    expect(await postback(server, params)).toEqual({ status: 200, text: 'OK' });
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
  });

  it('a wrong amount or currency', async () => {
    const bought = await buy(server, who, membership30);
    expect((await postback(server, saleParams(bought, 100))).status).toBe(400);
    await refusedWith(server, 'wrong amount');
    expect((await postback(server, saleParams(bought, 49_900, { priceCurrency: 'EUR' }))).status).toBe(400);
    await refusedWith(server, 'wrong currency');
    const order = await orderRow(server, bought.orderId);
    expect(order.status).toBe(ORDER_STATUS.Created);
    expect(await documentsOfOrder(server, bought.orderId)).toEqual([]);
  });
});

describe('payments that are never credited', () => {
  it('a late payment for an expired order is recorded and flagged for refund', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30);
    const expiry = await expirationOf(who);
    await server.db.update(orders).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(orders.id, bought.orderId));
    expect(await postback(server, saleParams(bought, 49_900))).toEqual({ status: 200, text: 'OK' });
    const order = await orderRow(server, bought.orderId);
    expect(order.status).toBe(ORDER_STATUS.Expired);
    expect(order.refundFlaggedAt).not.toBeNull();
    expect(order.refundFlagReason).toBe('paid-too-late');
    expect(await documentsOfOrder(server, bought.orderId)).toEqual([]);
    expect(await expirationOf(who)).toEqual(expiry);
    expect((await eventsOf(bought.orderId)).map((row) => row.outcome)).toEqual(['flagged']);
  });

  it('a second payment for a paid order is flagged, not credited; support finds it among the orders to refund', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30);
    await postback(server, saleParams(bought, 49_900));
    const expiry = await expirationOf(who);
    expect(await postback(server, saleParams(bought, 49_900, { transactionID: 'another-charge', saleID: 'another-sale' }))).toEqual({ status: 200, text: 'OK' });
    const order = await orderRow(server, bought.orderId);
    expect(order.status).toBe(ORDER_STATUS.Paid);
    expect(order.refundFlagReason).toBe('paid-twice');
    expect(await expirationOf(who)).toEqual(expiry);
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(1);

    // A later order of the same advert, paid once: not flagged.
    const renewal = await buy(server, who, membership30);
    await postback(server, saleParams(renewal, 49_900));
    expect((await orderRow(server, renewal.orderId)).status).toBe(ORDER_STATUS.Paid);
    const supportCookie = await signInSupport(server, await createSupportUserOverHttp(server, { permissions: ['Support'] }));
    const ordersOf = (query: Record<string, string>) => call(server, '/api/support/orders', { query: { ProfileId: who.advertId, ...query }, cookie: supportCookie });
    const idsOf = async (query: Record<string, string>) => ((await (await ordersOf(query)).json()) as { items: { id: number }[] }).items.map((item) => item.id);
    expect(await idsOf({})).toEqual([renewal.orderId, bought.orderId]);
    expect(await idsOf({ RefundFlagged: '' })).toEqual([renewal.orderId, bought.orderId]);
    const flagged = await (await ordersOf({ RefundFlagged: 'true' })).json();
    expect(flagged.total).toBe(1);
    expect(flagged.items[0]).toMatchObject({ id: bought.orderId, refundFlagged: true });
    const bad = await ordersOf({ RefundFlagged: 'maybe' });
    expect(bad.status).toBe(400);
    expect(await fieldErrors(bad)).toEqual({ RefundFlagged: 'flag' });
  });
});

describe('refunds and chargebacks', () => {
  it('a refund (credit) moves Paid → Refunded, issues a credit note referring to the receipt, and takes back the unused time', async () => {
    const who = await commerceAdvertiser(server);
    const before = await expirationOf(who);
    const bought = await buy(server, who, membership30);
    await pay(server, bought);
    await waitForStatus(server, who, bought.orderId, ORDER_STATUS.Paid);
    expect(await saleEvent(server, bought, 'credit')).toEqual([200]);
    const order = await orderRow(server, bought.orderId);
    expect(order.status).toBe(ORDER_STATUS.Refunded);
    const [receipt, creditNote] = await documentsOfOrder(server, bought.orderId);
    expect(creditNote).toMatchObject({ kind: 'credit_note', refersTo: receipt!.id, totalOre: 49_900, vatOre: 9_980, reason: 'refund' });
    expect(creditNote!.number).toBe(receipt!.number + 1);
    // The bought period had not started (it follows the running package): all of it is taken back.
    expect((await expirationOf(who)).getTime()).toBe(before.getTime());
    // A copy of the credit changes nothing.
    expect(await saleEvent(server, bought, 'credit')).toEqual([200]);
    expect(await documentsOfOrder(server, bought.orderId)).toHaveLength(2);
  });

  it('a chargeback of a running period ends what is left of it', async () => {
    const who = await commerceAdvertiser(server, { expirationDate: new Date(Date.now() - DAY) });
    const bought = await buy(server, who, membership30);
    await pay(server, bought);
    await waitForStatus(server, who, bought.orderId, ORDER_STATUS.Paid);
    expect(await saleEvent(server, bought, 'chargeback')).toEqual([200]);
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.ChargedBack);
    expect(Math.abs((await expirationOf(who)).getTime() - Date.now())).toBeLessThan(60_000);
    const docs = await documentsOfOrder(server, bought.orderId);
    expect(docs.map((doc) => doc.kind)).toEqual(['receipt', 'credit_note']);
    const [promotion] = await promotionsOf(bought.orderId);
    expect(promotion!.endsAt.getTime()).toBeLessThanOrEqual(Date.now());
  });
});

describe('events out of order (applyPaymentEvent with a provider of its own)', () => {
  /** A provider whose postbacks say what the test hands it (the body is the event as JSON). */
  const scripted: PaymentProvider = {
    name: 'scripted',
    method: 'crypto',
    test: true,
    start: async () => ({ kind: 'redirect', url: 'https://provider.invalid/' }),
    parsePostback: async (raw) => JSON.parse(raw.body) as PaymentEvent,
    postbackAnswer: { status: 200, contentType: 'text/plain', body: 'OK' },
  };
  const deps = { messaging: { sendEmail: async () => {}, sendSms: async () => {}, smsReachesPhones: true }, providers: createPaymentProviders({ crypto: scripted }), siteUrl: 'http://localhost:3000' };
  const send = (event: PaymentEvent) =>
    applyPaymentEvent({ db: server.db, actor: SYSTEM, events: { publish: () => {} }, now: () => new Date() }, deps, scripted, { method: 'POST', query: '', headers: {}, body: JSON.stringify(event) });

  it('paid before pending: the late pending changes nothing; failed after paid neither', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30);
    await server.db.update(orders).set({ paymentProvider: 'scripted', paymentMethod: 'crypto' }).where(eq(orders.id, bought.orderId));
    const base = { reference: bought.referenceId, amountOre: 49_900, currency: 'DKK' };
    expect(await send({ ...base, eventKey: 'e-paid', kind: 'paid' })).toMatchObject({ accepted: true, outcome: 'applied' });
    expect(await send({ ...base, eventKey: 'e-pending', kind: 'pending' })).toMatchObject({ accepted: true, outcome: 'ignored' });
    expect(await send({ ...base, eventKey: 'e-failed', kind: 'failed' })).toMatchObject({ accepted: true, outcome: 'ignored' });
    expect(await send({ ...base, eventKey: 'e-paid', kind: 'paid' })).toMatchObject({ accepted: true, outcome: 'duplicate' });
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
  });

  it('pending then paid moves through Pending; a refund before the payment fails the order so the payment is flagged', async () => {
    const who = await commerceAdvertiser(server);
    const first = await buy(server, who, membership30);
    await server.db.update(orders).set({ paymentProvider: 'scripted', paymentMethod: 'crypto' }).where(eq(orders.id, first.orderId));
    const base = { reference: first.referenceId, amountOre: 49_900, currency: 'DKK' };
    expect(await send({ ...base, eventKey: 'p-pending', kind: 'pending' })).toMatchObject({ outcome: 'applied' });
    expect((await orderRow(server, first.orderId)).status).toBe(ORDER_STATUS.Pending);
    expect(await send({ ...base, eventKey: 'p-paid', kind: 'paid' })).toMatchObject({ outcome: 'applied' });

    const second = await buy(server, who, membership30);
    await server.db.update(orders).set({ paymentProvider: 'scripted', paymentMethod: 'crypto' }).where(eq(orders.id, second.orderId));
    const other = { reference: second.referenceId, amountOre: 49_900, currency: 'DKK' };
    expect(await send({ ...other, eventKey: 'r-refund', kind: 'refund' })).toMatchObject({ outcome: 'applied' });
    expect(await send({ ...other, eventKey: 'r-paid', kind: 'paid' })).toMatchObject({ outcome: 'flagged' });
    const order = await orderRow(server, second.orderId);
    expect(order.status).toBe(ORDER_STATUS.Failed);
    expect(order.refundFlaggedAt).not.toBeNull();
  });
});

describe('the live card provider (PAYMENT_CARD=cardbilling)', () => {
  const LIVE = { shopId: '12345', signatureKey: 'live-shop-signature-key' };
  let live: TestServer;
  beforeAll(async () => {
    live = await startCommerceServer({ captureLogs: true, app: { paymentCard: { kind: 'cardbilling', ...LIVE, url: 'https://secure.verotel.example' } } });
  });
  afterAll(async () => {
    await live?.close();
  });

  it('sends the buyer to a signed FlexPay start URL with a PAY- reference, and credits a signed postback', async () => {
    const who = await commerceAdvertiser(live);
    const bought = await buy(live, who, await productIdOf(live, 'membership-30'));
    expect(bought.referenceId).toMatch(/^PAY-/);
    const url = new URL((bought.next as { url: string }).url);
    expect(`${url.origin}${url.pathname}`).toBe('https://secure.verotel.example/startorder');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ shopID: '12345', priceAmount: '499.00', priceCurrency: 'DKK', referenceID: bought.referenceId, type: 'purchase', version: '4' });
    // Signed as Verotel's client signs it: every parameter it knows, successURL and declineURL included (tests/unit/flexpay-contract.test.ts).
    const signed = [...url.searchParams].filter(([name]) => !['signature', 'email'].includes(name));
    expect(signed.map(([name]) => name)).toEqual(expect.arrayContaining(['successURL', 'declineURL']));
    expect(url.searchParams.get('signature')).toBe(flexPaySignature(LIVE.signatureKey, signed));
    expect(await postback(live, saleParams(bought, 49_900), { key: LIVE.signatureKey, shopId: LIVE.shopId })).toEqual({ status: 200, text: 'OK' });
    expect((await orderRow(live, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
  });

  it('credits nothing when the buyer sends the start URL back as a postback, for a package and a front-page boost (issue 29)', async () => {
    const who = await commerceAdvertiser(live);
    for (const code of ['membership-90', 'frontpage-boost-7']) {
      const bought = await buy(live, who, await productIdOf(live, code));
      const start = new URL((bought.next as { url: string }).url);
      // As it is, and with only the parameters FlexPay signs that a postback could carry (version and the URLs left out, re-signed impossible without the key).
      for (const query of [start.search.slice(1), start.search.slice(1).replace(/&?description=[^&]*/, '')]) {
        const answer = await fetch(`${live.url}/api/backend/cardbillingpostback?${query}`);
        expect(answer.status, code).toBe(400);
      }
      expect((await orderRow(live, bought.orderId)).status, code).toBe(ORDER_STATUS.Created);
      expect(await documentsOfOrder(live, bought.orderId), code).toEqual([]);
    }
    // (A start URL re-signed over every parameter is refused for its own fields: tests/unit/flexpay-contract.test.ts.)
  });

  it("accepts a postback without shopID (Verotel's client adds its own before checking) and refuses the old SHA-1 signature", async () => {
    const who = await commerceAdvertiser(live);
    const sha1 = await buy(live, who, await productIdOf(live, 'membership-30'));
    const params = saleParams(sha1, 49_900);
    const query = new URLSearchParams({ ...params, shopID: LIVE.shopId, signature: flexPaySignature(LIVE.signatureKey, Object.entries({ ...params, shopID: LIVE.shopId }), 'sha1') });
    expect((await fetch(`${live.url}/api/backend/cardbillingpostback?${query.toString()}`)).status).toBe(400);
    expect((await orderRow(live, sha1.orderId)).status).toBe(ORDER_STATUS.Created);
    await refusedWith(live, 'an old SHA-1 signature');

    const withoutShop = new URLSearchParams({ ...params, signature: flexPaySignature(LIVE.signatureKey, Object.entries({ ...params, shopID: LIVE.shopId })) });
    const answer = await fetch(`${live.url}/api/backend/cardbillingpostback?${withoutShop.toString()}`);
    expect(await answer.text()).toBe('OK');
    expect((await orderRow(live, sha1.orderId)).status).toBe(ORDER_STATUS.Paid);
  });

  it('never credits a TEST-PAY- reference, even signed with the live key; the hosted TEST page is not served', async () => {
    const who = await commerceAdvertiser(live);
    const bought = await buy(live, who, await productIdOf(live, 'membership-30'));
    const testReference = `TEST-PAY-${bought.orderId}X`;
    await live.db.update(orders).set({ referenceId: testReference }).where(eq(orders.id, bought.orderId));
    const answer = await postback(live, { ...saleParams(bought, 49_900), referenceID: testReference }, { key: LIVE.signatureKey, shopId: LIVE.shopId });
    expect(answer).toEqual({ status: 400, text: 'Refused' });
    expect((await orderRow(live, bought.orderId)).status).toBe(ORDER_STATUS.Created);
    const [stored] = await live.db.select().from(paymentEvents).where(eq(paymentEvents.reason, 'a TEST-PAY- reference while a live provider is configured'));
    expect(stored).toBeDefined();
    // Logged with the reason only: no reference, sale, transaction or card number.
    const logged = live.logs.filter((record) => record['msg'] === 'payment postback refused');
    expect(logged.at(-1)).toMatchObject({ provider: 'cardbilling', reason: 'a TEST-PAY- reference while a live provider is configured' });
    const everything = JSON.stringify(live.logs);
    const sale = saleParams(bought, 49_900);
    for (const secret of [testReference, sale.truncatedPAN!, sale.saleID!, sale.transactionID!]) expect(everything).not.toContain(secret);
    const page = await fetch(`${live.url}/test-payments/card/anything`);
    expect(page.status).not.toBe(200);
    expect(await page.text()).not.toContain('no money moves');
  });
});

describe('append-only records', () => {
  it('payment_events, order_events and sales_documents refuse UPDATE and DELETE', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, membership30);
    await postback(server, saleParams(bought, 49_900));
    for (const statement of [
      sql`update payment_events set outcome = 'ignored' where order_id = ${bought.orderId}`,
      sql`delete from payment_events where order_id = ${bought.orderId}`,
      sql`update order_events set reason = 'x' where order_id = ${bought.orderId}`,
      sql`delete from sales_documents where order_id = ${bought.orderId}`,
    ]) {
      const refusal = await server.db.execute(statement).then(
        () => 'allowed',
        (error: unknown) => String((error as { cause?: unknown }).cause ?? error),
      );
      expect(refusal).toMatch(/append-only/);
    }
    expect(await server.db.select().from(salesDocuments).where(eq(salesDocuments.orderId, bought.orderId))).toHaveLength(1);
  });
});
