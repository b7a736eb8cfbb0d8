/**
 * Orders over real HTTP (issue 16; spec §4, §7 Commerce; docs/decisions/025-commerce.md): buyproduct
 * through the built-in TEST card provider's hosted page to the signed postback, the receipt and the
 * period; purchasehistory, purchaseitem, promotions and dashboardlastpromotions, each refusing another
 * advertiser's orders (404 like a missing id) and an anonymous caller (401); a boost refused for an
 * advert whose package has run out (409 advertNotActive); the fulfilment arithmetic (a renewal from the
 * current expiry, a boost after a running boost, a purchase during a holiday).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { OrderView, PromotionsAnswer } from '#lib/schemas/commerce.ts';
import { adverts, auditLog, notifications, orderEvents, promotions, supportUsers } from '#server/db/schema.ts';
import { createSession } from '#server/domain/accounts/sessions.ts';
import { sessionCookieName } from '#server/api/http.ts';
import { ORDER_STATUS } from '#server/domain/commerce/order-status.ts';
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
  pay,
  paymentEventsOf,
  productIdOf,
  startCommerceServer,
  waitForStatus,
} from './orders-helpers.ts';

let server: TestServer;
let membership30: number;
let frontpage7: number;
let search7: number;

beforeAll(async () => {
  server = await startCommerceServer();
  membership30 = await productIdOf(server, 'membership-30');
  frontpage7 = await productIdOf(server, 'frontpage-boost-7');
  search7 = await productIdOf(server, 'search-boost-7');
});
afterAll(async () => {
  await server?.close();
});

const near = (actual: Date | string | null, expected: number, slackMs = 60_000) => {
  expect(actual).not.toBeNull();
  expect(Math.abs(new Date(actual!).getTime() - expected)).toBeLessThan(slackMs);
};

async function advertOf(who: Advertiser) {
  const [row] = await server.db.select().from(adverts).where(eq(adverts.id, who.advertId));
  return row!;
}

describe('buying a package with the TEST card provider', () => {
  it('creates an order, sends the buyer to the hosted TEST page, and credits only on the signed postback', async () => {
    const who = await commerceAdvertiser(server);
    const { expirationDate: before, updatedAt: editedAt } = await advertOf(who);
    const bought = await buy(server, who, membership30);
    expect(bought.referenceId).toMatch(/^TEST-PAY-[A-Z0-9]+$/);
    expect(bought.next.kind).toBe('redirect');

    // The order exists, unpaid: nothing credited by the start or by the page itself.
    const created = await orderRow(server, bought.orderId);
    expect(created).toMatchObject({ status: ORDER_STATUS.Created, totalPriceOre: 49_900, vatOre: 9_980, productDescription: 'Annonce i 30 dage', days: 30, paymentMethod: 'card', paymentProvider: 'cardbilling' });
    near(created.expiresAt, Date.now() + 2 * 3_600_000);

    // The buyer goes to FlexPay's start URL (the stand-in checks its signature, then shows the order page).
    const start = new URL((bought.next as { url: string }).url);
    expect(`${start.origin}${start.pathname}`).toBe('http://localhost:3000/test-payments/card/startorder');
    expect(Object.fromEntries(start.searchParams)).toMatchObject({ type: 'purchase', version: '4', shopID: '999999', priceAmount: '499.00', priceCurrency: 'DKK', referenceID: bought.referenceId });
    expect(start.searchParams.get('successURL')).toBe('http://localhost:3000/backend/callback-payment/');
    const tampered = new URL(start);
    tampered.searchParams.set('priceAmount', '1.00');
    expect((await fetch(new URL(`${tampered.pathname}${tampered.search}`, server.url))).status).toBe(400);
    const page = await fetch(new URL(await hostedPageOf(server, bought), server.url));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('TEST');
    expect(html).toContain('no money moves');
    expect(html).toContain('499,00 DKK');

    const returned = await pay(server, bought);
    expect(returned.status).toBe(303);
    const back = new URL(returned.headers.get('location')!);
    expect(back.pathname).toBe('/backend/callback-payment/');
    expect(back.searchParams.get('type')).toBe('purchase');
    expect(back.searchParams.get('referenceID')).toBe(bought.referenceId);
    expect(back.searchParams.get('saleID')).toMatch(/^\d+$/);

    // The postback was sent (and answered OK) before the buyer returned.
    const paid = await waitForStatus(server, who, bought.orderId, ORDER_STATUS.Paid);
    expect(paid).toMatchObject({ status: ORDER_STATUS.Paid, statusName: 'Paid', totalPriceOre: 49_900 });
    // Both names, so each screen shows its own language's (issue 29), whatever the account's language.
    expect(paid.productNames).toEqual({ da: 'Annonce i 30 dage', en: 'Advert for 30 days' });
    expect(paid.documents.map((doc) => doc.kind)).toEqual(['receipt']);
    near(paid.periodStart, before!.getTime());
    near(paid.periodEnd, before!.getTime() + 30 * DAY);
    near((await advertOf(who)).expirationDate, before!.getTime() + 30 * DAY);
    // A purchase is not an edit: unboosted search results are ordered by the last edit, and payment may
    // move an advert only through a boost (decision 026; the ranking page says so).
    expect((await advertOf(who)).updatedAt).toEqual(editedAt);

    const [receipt] = await documentsOfOrder(server, bought.orderId);
    expect(receipt).toMatchObject({ kind: 'receipt', totalOre: 49_900, vatOre: 9_980, netOre: 39_920, vatRateBp: 2500 });
    expect(receipt!.lines[0]).toMatchObject({ description: 'Annonce i 30 dage', totalOre: 49_900 });

    const history = (await server.db.select().from(orderEvents).where(eq(orderEvents.orderId, bought.orderId))).map((row) => [row.fromStatus, row.toStatus, row.actorType]);
    expect(history).toEqual([
      [null, ORDER_STATUS.Created, 'advertiser'],
      [ORDER_STATUS.Created, ORDER_STATUS.Paid, 'provider'],
    ]);
    const audits = await server.db.select().from(auditLog).where(eq(auditLog.targetId, String(bought.orderId)));
    expect(audits.map((row) => row.action)).toEqual(expect.arrayContaining(['order.created', 'order.paid']));
    // The audit entry is written with the receipt, in its statement, and names its number.
    expect(audits.find((row) => row.action === 'order.paid')?.after).toMatchObject({ status: ORDER_STATUS.Paid, receipt: receipt!.number });
    const notices = await server.db.select().from(notifications).where(eq(notifications.accountId, who.accountId));
    expect(notices.map((n) => n.titleEn)).toContain('Thank you for your purchase');
    // The advert stays public: nothing on the prebuilt pages changes, so no rebuild (see 'fulfilment arithmetic').
  });

  it('a declined card sends the buyer to the decline address and credits nothing (FlexPay sends no postback); an abandoned one stays unpaid', async () => {
    const who = await commerceAdvertiser(server);
    const declined = await buy(server, who, membership30);
    const refused = await pay(server, declined, 'decline');
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe(`http://localhost:3000/backend/callback-payment/?declined=1&orderId=${declined.orderId}`);
    expect((await orderRow(server, declined.orderId)).status).toBe(ORDER_STATUS.Created);
    expect(await paymentEventsOf(server, declined.orderId)).toEqual([]);
    expect(await documentsOfOrder(server, declined.orderId)).toEqual([]);

    const abandoned = await buy(server, who, membership30);
    const back = await pay(server, abandoned, 'abandon');
    expect(new URL(back.headers.get('location')!).searchParams.get('saleID')).toBeNull();
    expect((await orderRow(server, abandoned.orderId)).status).toBe(ORDER_STATUS.Created);
    expect(await documentsOfOrder(server, abandoned.orderId)).toEqual([]);
  });

  it('a postback sent after the buyer returned, or delayed, is waited for (the callback screen polls)', async () => {
    const who = await commerceAdvertiser(server);
    const later = await buy(server, who, membership30);
    await pay(server, later, 'approve', { timing: 'after-return' });
    expect((await waitForStatus(server, who, later.orderId, ORDER_STATUS.Paid)).status).toBe(ORDER_STATUS.Paid);
    const delayed = await buy(server, who, membership30);
    await pay(server, delayed, 'approve', { timing: 'delayed', delaySeconds: 1 });
    expect((await orderRow(server, delayed.orderId)).status).toBe(ORDER_STATUS.Created);
    expect((await waitForStatus(server, who, delayed.orderId, ORDER_STATUS.Paid)).status).toBe(ORDER_STATUS.Paid);
  });

  it('refuses a retired product (409), an unknown one (404), an unknown method (400)', async () => {
    const who = await commerceAdvertiser(server);
    const answer = (body: unknown) => backendApi(server, 'buyproduct', who.cookie, { body });
    expect((await answer({ ProductId: 999_999, PaymentMethod: 'card' })).status).toBe(404);
    const bad = await answer({ ProductId: membership30, PaymentMethod: 'cash' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'PaymentMethod', message: 'paymentMethod' }]);
    // A method not offered (PAYMENT_CRYPTO=off): tests/integration/carrier-payments.test.ts.
  });

  it('refuses support signed in as the advertiser (403 whileImpersonating): a purchase spends their own money', async () => {
    const who = await commerceAdvertiser(server);
    const [admin] = await server.db.select({ id: supportUsers.id }).from(supportUsers).limit(1);
    const session = await createSession(server.db, { accountId: who.accountId }, { days: 1, now: new Date(), impersonatedBy: admin!.id });
    const refused = await backendApi(server, 'buyproduct', `${sessionCookieName('advertiser', false)}=${session.token}`, { body: { ProductId: membership30, PaymentMethod: 'card' } });
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual([{ field: '', message: 'whileImpersonating' }]);
  });

  it('refuses an anonymous caller (401) and a cross-site page (403)', async () => {
    expect((await backendApi(server, 'buyproduct', undefined, { body: { ProductId: membership30, PaymentMethod: 'card' } })).status).toBe(401);
    const who = await commerceAdvertiser(server);
    const crossSite = await fetch(`${server.url}/api/backend/buyproduct`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: who.cookie, origin: 'https://evil.example' },
      body: JSON.stringify({ ProductId: membership30, PaymentMethod: 'card' }),
    });
    expect(crossSite.status).toBe(403);
  });
});

describe('boosts (spec §4: only for an Active advert whose expiration is in the future)', () => {
  it('refuses a boost with 409 advertNotActive when the package has run out, or there is none', async () => {
    for (const expirationDate of [new Date(Date.now() - DAY), null]) {
      const who = await commerceAdvertiser(server, { expirationDate });
      const refused = await backendApi(server, 'buyproduct', who.cookie, { body: { ProductId: frontpage7, PaymentMethod: 'card' } });
      expect(refused.status).toBe(409);
      expect(refused.body.errors).toEqual([{ field: 'ProductId', message: 'advertNotActive' }]);
      const offer = (await backendApi(server, 'promotions', who.cookie, { query: { TypeId: 2 } })).body as PromotionsAnswer;
      expect(offer.allowed).toBe(false);
      // A package can always be bought.
      expect((await backendApi(server, 'buyproduct', who.cookie, { body: { ProductId: membership30, PaymentMethod: 'card' } })).status).toBe(200);
    }
    const deactivated = await commerceAdvertiser(server, { status: 5 });
    expect((await backendApi(server, 'buyproduct', deactivated.cookie, { body: { ProductId: search7, PaymentMethod: 'card' } })).status).toBe(409);
  });

  it('a boost runs from now, or from the end of a running boost of the same kind', async () => {
    const who = await commerceAdvertiser(server);
    const first = await buy(server, who, frontpage7);
    await pay(server, first);
    const one = await waitForStatus(server, who, first.orderId, ORDER_STATUS.Paid);
    near(one.periodStart, Date.now());
    near(one.periodEnd, Date.now() + 7 * DAY);
    const second = await buy(server, who, frontpage7);
    await pay(server, second);
    const two = await waitForStatus(server, who, second.orderId, ORDER_STATUS.Paid);
    expect(two.periodStart).toBe(one.periodEnd);
    near(two.periodEnd, Date.now() + 14 * DAY);
    near((await advertOf(who)).frontPageBoostUntil, Date.now() + 14 * DAY);
    // The search boost is its own clock.
    const search = await buy(server, who, search7);
    await pay(server, search);
    near((await waitForStatus(server, who, search.orderId, ORDER_STATUS.Paid)).periodEnd, Date.now() + 7 * DAY);
    const rows = await server.db.select().from(promotions).where(eq(promotions.advertId, who.advertId));
    expect(rows.map((row) => row.type).sort()).toEqual([2, 2, 3]);
  });
});

describe('fulfilment arithmetic', () => {
  it('a renewal runs from the current expiry; a package bought after it ran out runs from now', async () => {
    const running = await commerceAdvertiser(server, { expirationDate: new Date(Date.now() + 10 * DAY) });
    const renewal = await buy(server, running, membership30);
    await pay(server, renewal);
    near((await waitForStatus(server, running, renewal.orderId, ORDER_STATUS.Paid)).periodEnd, Date.now() + 40 * DAY);

    const expired = await commerceAdvertiser(server, { expirationDate: new Date(Date.now() - 5 * DAY) });
    const fresh = await buy(server, expired, membership30);
    await pay(server, fresh);
    const paid = await waitForStatus(server, expired, fresh.orderId, ORDER_STATUS.Paid);
    near(paid.periodStart, Date.now());
    near((await advertOf(expired)).expirationDate, Date.now() + 30 * DAY);
  });

  it('a package for an advert that stays public asks for no site rebuild; one that makes it public again, and a boost, do', async () => {
    const rebuildsAfter = async (who: Advertiser, productId: number) => {
      const before = server.events.length;
      const bought = await buy(server, who, productId);
      // The postback goes before the buyer returns: its after-commit work is done when this answers.
      await pay(server, bought);
      await waitForStatus(server, who, bought.orderId, ORDER_STATUS.Paid);
      return server.events.slice(before).filter((event) => event.type === 'content.changed' && event.reason === 'order').length;
    };
    const running = await commerceAdvertiser(server, { expirationDate: new Date(Date.now() + 10 * DAY) });
    expect(await rebuildsAfter(running, membership30)).toBe(0);
    expect(await rebuildsAfter(running, frontpage7)).toBe(1);
    const expired = await commerceAdvertiser(server, { expirationDate: new Date(Date.now() - 5 * DAY) });
    expect(await rebuildsAfter(expired, membership30)).toBe(1);
  });

  it('during a holiday a period starts when the holiday ends (decision 011), and ending the holiday early keeps exactly the days bought', async () => {
    const who = await commerceAdvertiser(server, { expirationDate: new Date(Date.now() - DAY) });
    const until = new Date(Date.now() + 20 * DAY).toISOString();
    expect((await backendApi(server, 'setprofileholiday', who.cookie, { body: { Until: until } })).status).toBe(200);
    const bought = await buy(server, who, membership30);
    await pay(server, bought);
    const paid = await waitForStatus(server, who, bought.orderId, ORDER_STATUS.Paid);
    near(paid.periodStart, Date.parse(until));
    near(paid.periodEnd, Date.parse(until) + 30 * DAY);
    expect((await backendApi(server, 'resetprofileholidation', who.cookie, { body: {} })).status).toBe(200);
    near((await advertOf(who)).expirationDate, Date.now() + 30 * DAY);
  });
});

describe('reads of the own orders', () => {
  let owner: Advertiser;
  let other: Advertiser;
  let orderId: number;
  let theirs: number;

  beforeAll(async () => {
    owner = await commerceAdvertiser(server);
    other = await commerceAdvertiser(server);
    const bought = await buy(server, owner, membership30);
    await pay(server, bought);
    await waitForStatus(server, owner, bought.orderId, ORDER_STATUS.Paid);
    orderId = bought.orderId;
    await buy(server, owner, search7);
    await buy(server, owner, frontpage7);
    theirs = (await buy(server, other, membership30)).orderId;
  });

  it('purchasehistory: the own orders, newest first, in pages of at most 100; another advertiser\'s orders never appear', async () => {
    const history = (who: Advertiser | undefined, query: Record<string, string | number> = {}) => backendApi(server, 'purchasehistory', who?.cookie, { query });
    const first = await history(owner, { Skip: 0, Take: 2 });
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(3);
    expect((first.body.items as OrderView[]).map((order) => [order.productType, order.statusName])).toEqual([
      [2, 'Created'],
      [3, 'Created'],
    ]);
    const second = await history(owner, { Skip: 2, Take: 2 });
    expect(second.body.total).toBe(3);
    expect(second.body.items).toEqual([expect.objectContaining({ id: orderId, statusName: 'Paid' })]);
    const ownIds = [...first.body.items, ...second.body.items].map((order: OrderView) => order.id);
    expect(new Set(ownIds).size).toBe(3);
    expect(ownIds).not.toContain(theirs);
    expect((await history(owner, { Skip: 4, Take: 2 })).body).toEqual({ total: 3, items: [] });
    expect((await history(other)).body).toEqual({ total: 1, items: [expect.objectContaining({ id: theirs })] });

    const refused = await history(owner, { Skip: -1, Take: 101 });
    expect(refused.status).toBe(400);
    expect(Object.fromEntries((refused.body.errors as { field: string; message: string }[]).map((e) => [e.field, e.message]))).toEqual({ Skip: 'number', Take: 'range' });
    expect((await history(owner, { Take: 0 })).status).toBe(400);
    expect((await history(undefined)).status).toBe(401);
  });

  it('purchaseitem: one own order; another advertiser gets 404 exactly like a missing id; anonymous 401', async () => {
    expect((await backendApi(server, 'purchaseitem', owner.cookie, { query: { Id: orderId } })).body).toMatchObject({ id: orderId, status: ORDER_STATUS.Paid });
    const foreign = await backendApi(server, 'purchaseitem', other.cookie, { query: { Id: orderId } });
    const missing = await backendApi(server, 'purchaseitem', other.cookie, { query: { Id: 999_999 } });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.body.detail).toBe(missing.body.detail);
    expect((await backendApi(server, 'purchaseitem', undefined, { query: { Id: orderId } })).status).toBe(401);
  });

  it('promotions: the products of a type, the running period, whether it may be bought and the payment methods offered; anonymous 401', async () => {
    const answer = await backendApi(server, 'promotions', owner.cookie, { query: { TypeId: 1 } });
    expect(answer.status).toBe(200);
    const offer = answer.body as PromotionsAnswer;
    expect(offer.products.map((p) => [p.code, p.recurring])).toEqual([
      ['membership-30', false],
      ['membership-90', false],
      ['membership-30-recurring', true],
    ]);
    expect(offer.products[0]).toMatchObject({ priceOre: 49_900, vatOre: 9_980, nameDa: 'Annonce i 30 dage', nameEn: 'Advert for 30 days' });
    expect(offer.allowed).toBe(true);
    near(offer.runningUntil, Date.now() + 60 * DAY);
    // The methods with a provider configured (here every TEST provider: card, crypto and carrier billing).
    expect(offer.paymentMethods).toEqual(['card', 'crypto', 'carrier']);
    expect((await backendApi(server, 'promotions', owner.cookie, { query: { TypeId: 4 } })).status).toBe(400);
    expect((await backendApi(server, 'promotions', undefined, { query: { TypeId: 1 } })).status).toBe(401);
  });

  it('dashboardlastpromotions: the last promotions bought, only the own; anonymous 401', async () => {
    const own = await backendApi(server, 'dashboardlastpromotions', owner.cookie);
    expect(own.body).toEqual([expect.objectContaining({ orderId, type: 1 })]);
    expect((await backendApi(server, 'dashboardlastpromotions', other.cookie)).body).toEqual([]);
    expect((await backendApi(server, 'dashboardlastpromotions', undefined)).status).toBe(401);
  });
});

describe('rate limits', () => {
  it('buyproduct is limited per address (10 a minute), like the other calls that start work elsewhere', async () => {
    const limited = await startCommerceServer({ app: { rateLimitScale: 1 } });
    try {
      const who = await commerceAdvertiser(limited);
      const product = await productIdOf(limited, 'membership-30');
      const statuses: number[] = [];
      for (let n = 0; n < 11; n += 1) {
        statuses.push((await backendApi(limited, 'buyproduct', who.cookie, { body: { ProductId: product, PaymentMethod: 'card' } })).status);
      }
      expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
      expect(statuses[10]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
