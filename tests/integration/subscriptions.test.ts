/**
 * Renewing card memberships over real HTTP (issue 16; docs/decisions/025-commerce.md): the first sale makes
 * the subscription; a rebill is an order of its own, paid and fulfilled once; the advertiser's
 * cancelsubscription sends the owner to the provider's signed cancel page and the provider's cancel
 * postback stops the next charge, keeping what is paid (another advertiser's 404, anonymous 401, decision
 * 038); the provider's cancel (also before the initial sale's postback) and expiry; a
 * charge after the cancellation is flagged; the commerce clock job: renewal reminders once per charge,
 * and unpaid orders expired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import type { OutgoingEmail } from '#server/adapters/types.ts';
import { adverts, notifications, orderEvents, orders, subscriptions } from '#server/db/schema.ts';
import { ORDER_STATUS } from '#server/domain/commerce/order-status.ts';
import { SUBSCRIPTION_STATUS } from '#server/domain/commerce/apply-payment-event.ts';
import { commerceClockHandler } from '#server/jobs/commerce-job.ts';
import { dueUnpaidOrders } from '#server/domain/commerce/subscriptions.ts';
import { rowsOf } from '#server/db/client.ts';
import type { TestServer } from '#tests/support/test-server.ts';
import type { Advertiser } from './verification-helpers.ts';
import {
  DAY,
  backendApi,
  buy,
  commerceAdvertiser,
  documentsOfOrder,
  hostedPageOf,
  orderRow,
  ordersOfAccount,
  pay,
  postback,
  productIdOf,
  recurringProductId,
  saleEvent,
  saleParams,
  startCommerceServer,
  waitForStatus,
} from './orders-helpers.ts';

let server: TestServer;
let renewing: number;

beforeAll(async () => {
  server = await startCommerceServer();
  renewing = await recurringProductId(server);
});
afterAll(async () => {
  await server?.close();
});

const subscriptionOf = async (who: Advertiser) =>
  (await server.db.select().from(subscriptions).where(eq(subscriptions.accountId, who.accountId)).orderBy(asc(subscriptions.id)))[0];
const expirationOf = async (who: Advertiser) => (await server.db.select().from(adverts).where(eq(adverts.id, who.advertId)))[0]!.expirationDate!;

/** A renewing membership bought and approved on the TEST provider's page. */
async function subscribe(who: Advertiser) {
  const bought = await buy(server, who, renewing);
  const start = new URL((bought.next as { url: string }).url);
  // FlexPay's own start URL for a subscription: startorder, type=subscription, recurring every P30D.
  expect(start.pathname).toBe('/test-payments/card/startorder');
  expect(Object.fromEntries(start.searchParams)).toMatchObject({ type: 'subscription', subscriptionType: 'recurring', period: 'P30D', version: '4' });
  const page = await (await fetch(new URL(await hostedPageOf(server, bought), server.url))).text();
  expect(page).toContain('renews every 30 days');
  const back = await pay(server, bought);
  expect(new URL(back.headers.get('location')!).searchParams.get('type')).toBe('subscription');
  await waitForStatus(server, who, bought.orderId, ORDER_STATUS.Paid);
  return bought;
}

function clock(at: Date, emails: OutgoingEmail[] = []) {
  return commerceClockHandler({
    db: server.db,
    events: { publish: () => {} },
    messaging: { sendEmail: async (email) => void emails.push(email), sendSms: async () => {}, smsReachesPhones: true },
    payments: server.app.payments,
    siteUrl: 'https://annoncer.example',
    log: pino({ level: 'silent' }),
    now: () => at,
  });
}

describe('the first sale and rebills', () => {
  it('the first sale makes the subscription; a rebill is a new order, paid and fulfilled once, from the current expiry', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await subscribe(who);
    const subscription = (await subscriptionOf(who))!;
    expect(subscription).toMatchObject({ status: SUBSCRIPTION_STATUS.Active, provider: 'cardbilling', productId: renewing });
    expect(Math.abs(subscription.nextChargeOn!.getTime() - (Date.now() + 30 * DAY))).toBeLessThan(DAY);
    expect((await orderRow(server, bought.orderId)).subscriptionId).toBe(subscription.id);
    const offer = await backendApi(server, 'promotions', who.cookie, { query: { TypeId: 1 } });
    expect(offer.body.subscription).toMatchObject({ id: subscription.id, status: SUBSCRIPTION_STATUS.Active });

    const before = await expirationOf(who);
    expect(await saleEvent(server, bought, 'rebill', true)).toEqual([200, 200]);
    const all = await ordersOfAccount(server, who.accountId);
    expect(all).toHaveLength(2);
    const rebill = all[1]!;
    expect(rebill).toMatchObject({ status: ORDER_STATUS.Paid, subscriptionId: subscription.id, totalPriceOre: 49_900, productDescription: 'Annonce i 30 dage, fornyes automatisk' });
    expect(rebill.referenceId).toMatch(/^TEST-PAY-/);
    expect(rebill.periodStart).toEqual(before);
    expect((await expirationOf(who)).getTime()).toBe(before.getTime() + 30 * DAY);
    expect((await documentsOfOrder(server, rebill.id)).map((doc) => doc.kind)).toEqual(['receipt']);
    const history = await server.db.select().from(orderEvents).where(eq(orderEvents.orderId, rebill.id)).orderBy(asc(orderEvents.id));
    expect(history.map((row) => [row.fromStatus, row.toStatus, row.actorType])).toEqual([
      [null, ORDER_STATUS.Created, 'provider'],
      [ORDER_STATUS.Created, ORDER_STATUS.Paid, 'provider'],
    ]);
    expect((await subscriptionOf(who))!.nextChargeOn!.getTime()).toBeGreaterThan(subscription.nextChargeOn!.getTime());
  });
});

describe('cancelling', () => {
  it("cancelsubscription sends the owner to the provider's signed cancel page; the subscription is cancelled only by the provider's cancel postback, and what is paid is kept; a later charge is flagged, never credited", async () => {
    const who = await commerceAdvertiser(server);
    const other = await commerceAdvertiser(server);
    const bought = await subscribe(who);
    const subscription = (await subscriptionOf(who))!;
    const expiry = await expirationOf(who);
    expect((await backendApi(server, 'cancelsubscription', other.cookie, { body: { Id: subscription.id } })).status).toBe(404);
    expect((await backendApi(server, 'cancelsubscription', undefined, { body: { Id: subscription.id } })).status).toBe(401);
    const asked = await backendApi(server, 'cancelsubscription', who.cookie, { body: { Id: subscription.id } });
    expect(asked.status).toBe(200);
    const answer = asked.body as { id: number; status: number; cancelUrl: string };
    expect(answer).toMatchObject({ id: subscription.id, status: SUBSCRIPTION_STATUS.Active });
    // FlexPay's cancel page for the sale, signed as Verotel's client signs it; nothing is cancelled by asking.
    const cancelUrl = new URL(answer.cancelUrl);
    expect(cancelUrl.pathname).toBe('/test-payments/card/cancel-subscription');
    expect(Object.fromEntries(cancelUrl.searchParams)).toMatchObject({ saleID: subscription.saleId, shopID: '999999', version: '4' });
    expect((await subscriptionOf(who))!.status).toBe(SUBSCRIPTION_STATUS.Active);
    // A changed cancel URL is refused by the provider.
    const forged = new URL(cancelUrl);
    forged.searchParams.set('saleID', '1');
    expect((await fetch(new URL(`${forged.pathname}${forged.search}`, server.url))).status).toBe(400);

    // The advertiser confirms on the provider's page: the provider's cancel postback cancels it here.
    const page = await fetch(new URL(`${cancelUrl.pathname}${cancelUrl.search}`, server.url));
    expect(page.status).toBe(200);
    const confirmed = await (await fetch(new URL(`${cancelUrl.pathname}${cancelUrl.search}`, server.url), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })).text();
    expect(confirmed).toContain('data-statuses="200"');
    expect((await subscriptionOf(who))!.status).toBe(SUBSCRIPTION_STATUS.Cancelled);
    expect(await expirationOf(who)).toEqual(expiry);
    const notices = await server.db.select().from(notifications).where(eq(notifications.accountId, who.accountId));
    expect(notices.map((n) => n.titleEn)).toContain('Your renewal was stopped');
    // Again: nothing changes, and no page to go to.
    expect((await backendApi(server, 'cancelsubscription', who.cookie, { body: { Id: subscription.id } })).body).toMatchObject({ status: SUBSCRIPTION_STATUS.Cancelled, cancelUrl: null });

    // The provider charges anyway: an order of its own, flagged for refund, no time.
    expect(await saleEvent(server, bought, 'rebill')).toEqual([200]);
    const charged = (await ordersOfAccount(server, who.accountId))[1]!;
    expect(charged).toMatchObject({ status: ORDER_STATUS.Expired, refundFlagReason: 'renewal-after-cancel' });
    expect(charged.refundFlaggedAt).not.toBeNull();
    expect(await expirationOf(who)).toEqual(expiry);
  });

  it("the provider's cancel and expiry end the subscription", async () => {
    const who = await commerceAdvertiser(server);
    const bought = await subscribe(who);
    expect(await saleEvent(server, bought, 'cancel')).toEqual([200]);
    expect((await subscriptionOf(who))!.status).toBe(SUBSCRIPTION_STATUS.Cancelled);
    expect(await saleEvent(server, bought, 'expiry')).toEqual([200]);
    expect((await subscriptionOf(who))!.status).toBe(SUBSCRIPTION_STATUS.Ended);
  });

  it('a cancel postback before the initial sale: the sale is still credited, and the subscription is cancelled', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, renewing);
    const sale = saleParams(bought, 49_900, { type: 'subscription' });
    expect(await postback(server, { shopID: '999999', saleID: sale.saleID!, referenceID: bought.referenceId, type: 'subscription', event: 'cancel', cancelledBy: 'buyer' })).toEqual({ status: 200, text: 'OK' });
    expect(await postback(server, { ...sale, event: 'initial', nextChargeOn: '2099-01-01' })).toEqual({ status: 200, text: 'OK' });
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Paid);
    const subscription = (await subscriptionOf(who))!;
    expect(subscription.status).toBe(SUBSCRIPTION_STATUS.Cancelled);
    expect((await orderRow(server, bought.orderId)).subscriptionId).toBe(subscription.id);
  });
});

describe('the commerce clock job', () => {
  it('sends the renewal reminder (notification and email with a one-click cancel link) once per charge', async () => {
    const who = await commerceAdvertiser(server);
    await subscribe(who);
    const subscription = (await subscriptionOf(who))!;
    const emails: OutgoingEmail[] = [];
    await clock(new Date(subscription.nextChargeOn!.getTime() - 10 * DAY), emails)({} as never);
    expect(emails.filter((email) => email.to === who.email)).toHaveLength(0);
    const dueAt = new Date(subscription.nextChargeOn!.getTime() - 2 * DAY);
    await clock(dueAt, emails)({} as never);
    await clock(dueAt, emails)({} as never);
    const mine = emails.filter((email) => email.to === who.email);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.text).toContain(`https://annoncer.example/backend/advert-package/?cancelSubscription=${subscription.id}`);
    const notices = await server.db.select().from(notifications).where(eq(notifications.accountId, who.accountId));
    expect(notices.filter((n) => n.titleEn === 'Your advert package renews soon')).toHaveLength(1);
    expect((await subscriptionOf(who))!.remindedFor).toEqual(subscription.nextChargeOn);
  });

  it('expires unpaid orders past their time (the system moves them; the order_events row says so)', async () => {
    const who = await commerceAdvertiser(server);
    const bought = await buy(server, who, await productIdOf(server, 'membership-30'));
    await clock(new Date(Date.now() + 3_600_000))({} as never);
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Created);
    await clock(new Date(Date.now() + 3 * 3_600_000))({} as never);
    expect((await orderRow(server, bought.orderId)).status).toBe(ORDER_STATUS.Expired);
    const [last] = await server.db.select().from(orderEvents).where(eq(orderEvents.orderId, bought.orderId)).orderBy(asc(orderEvents.id)).offset(1);
    expect(last).toMatchObject({ fromStatus: ORDER_STATUS.Created, toStatus: ORDER_STATUS.Expired, actorType: 'system' });
    const [paidOrder] = await server.db.select().from(orders).where(eq(orders.accountId, who.accountId));
    expect(paidOrder!.fulfilledAt).toBeNull();
  });

  it("the expiry job's look-up reads the index of open orders, not every order (it read them all every minute)", async () => {
    const plan = await server.db.transaction(async (tx) => {
      // Without a usable index the planner has only a scan of the table (or of every order by status) left.
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf<{ 'QUERY PLAN': string }>(await tx.execute(sql`explain ${dueUnpaidOrders(tx, new Date(), 200).getSQL()}`))
        .map((row) => row['QUERY PLAN'])
        .join('\n');
    });
    expect(plan).toContain('orders_open_expiry_idx');
  });
});
