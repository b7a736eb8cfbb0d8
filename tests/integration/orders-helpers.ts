/**
 * Helpers of the commerce tests (docs/decisions/025-commerce.md): a server whose TEST card provider signs
 * with a known key, advertisers who buy over HTTP, the TEST provider's hosted page pressed as a browser
 * does, and postbacks signed as the card provider signs them (for the cases a provider must not send).
 */
import { expect } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import type { BuyProductAnswer, OrderView } from '#lib/schemas/commerce.ts';
import { orders, paymentEvents, products, refusedPostbacks, salesDocuments, type NewAdvert } from '#server/db/schema.ts';
import { signedPostbackQuery, decimalAmount } from '#server/adapters/payments/flexpay.ts';
import { TEST_CARD_SHOP_ID } from '#server/adapters/payments/test-card-provider.ts';
import type { AppOptions } from '#server/app.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, createAdvertiser } from '#tests/support/fixtures.ts';
import { backendApi, type Advertiser } from './verification-helpers.ts';

export { backendApi };

/** The TEST card provider's signing key in these tests. */
export const TEST_PAYMENT_SECRET = 'test-payment-secret-0123456789abcdef';

export const DAY = 86_400_000;

export function startCommerceServer(options: { now?: () => Date; captureLogs?: boolean; app?: Partial<AppOptions>; shareDatabaseOf?: TestServer } = {}): Promise<TestServer> {
  // Many buys from one address: the per-address limits are raised (one test checks the limit itself).
  return startTestServer({ ...options, app: { paymentTestSecret: TEST_PAYMENT_SECRET, rateLimitScale: 100, ...options.app } });
}

/** An advertiser with an Active, public advert (a package running 30 more days unless the fixture says otherwise). */
export async function commerceAdvertiser(server: TestServer, fixture: Partial<NewAdvert> = {}): Promise<Advertiser> {
  const created = await createAdvertiser(server.db, fixture);
  return { advertId: created.id, accountId: created.accountId, name: created.name, email: created.email, cookie: await advertiserSessionCookie(server.db, created.accountId) };
}

export async function productIdOf(server: TestServer, code: string): Promise<number> {
  const [row] = await server.db.select({ id: products.id }).from(products).where(eq(products.code, code));
  return row!.id;
}

/** The renewing card membership of the reference products: 30 days at 499 DKK. */
export const recurringProductId = (server: TestServer): Promise<number> => productIdOf(server, 'membership-30-recurring');

/** buyproduct over HTTP (200 expected). */
export async function buy(server: TestServer, who: Advertiser, productId: number, method = 'card'): Promise<BuyProductAnswer> {
  const answer = await backendApi(server, 'buyproduct', who.cookie, { body: { ProductId: productId, PaymentMethod: method } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as BuyProductAnswer;
}

/** The TEST provider's page path of a buy (its URL names the site, not the test server). */
export const pageOf = (bought: BuyProductAnswer) => new URL(bought.next.kind === 'redirect' ? bought.next.url : bought.next.action).pathname;

const hostedPages = new Map<number, string>();

/**
 * The hosted page of a buy, as the browser reaches it: the card stand-in's signed start URL is opened
 * (FlexPay checks it and sends the browser on to the order's page); other providers' pages directly.
 */
export async function hostedPageOf(server: TestServer, bought: BuyProductAnswer): Promise<string> {
  if (bought.next.kind !== 'redirect' || !new URL(bought.next.url).pathname.endsWith('/startorder')) return pageOf(bought);
  const known = hostedPages.get(bought.orderId);
  if (known) return known;
  const start = new URL(bought.next.url);
  const response = await fetch(new URL(`${start.pathname}${start.search}`, server.url), { redirect: 'manual' });
  expect(response.status, await response.text()).toBe(303);
  const page = new URL(response.headers.get('location')!, server.url).pathname;
  hostedPages.set(bought.orderId, page);
  return page;
}

/** Presses a button on the TEST provider's page, as the browser posts the form; answers the redirect. */
export async function pay(
  server: TestServer,
  bought: BuyProductAnswer,
  outcome: 'approve' | 'decline' | 'abandon' | 'expire' = 'approve',
  options: { timing?: 'before-return' | 'after-return' | 'delayed' | 'never'; twice?: boolean; delaySeconds?: number } = {},
): Promise<Response> {
  const form = new URLSearchParams({ outcome, timing: options.timing ?? 'before-return' });
  if (options.twice) form.set('twice', '1');
  if (options.delaySeconds) form.set('delaySeconds', String(options.delaySeconds));
  return fetch(new URL(await hostedPageOf(server, bought), server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
}

/** A later event of an approved sale from the TEST provider's page (rebill, cancel, expiry, credit, chargeback); answers the postbacks' statuses. */
export function saleEvent(server: TestServer, bought: BuyProductAnswer, action: string, twice = false): Promise<number[]> {
  return providerEvent(server, bought, 'sale', { action }, twice);
}

/** A later event from a TEST provider's page (`{page}/{panel}` with the form's fields); answers the postbacks' statuses. */
export async function providerEvent(server: TestServer, bought: BuyProductAnswer, panel: string, fields: Record<string, string>, twice = false): Promise<number[]> {
  const form = new URLSearchParams({ ...fields, ...(twice ? { twice: '1' } : {}) });
  const response = await fetch(new URL(`${await hostedPageOf(server, bought)}/${panel}`, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  const html = await response.text();
  expect(response.status, html).toBe(200);
  return /data-statuses="([\d,]+)"/.exec(html)![1]!.split(',').map(Number);
}

/** Sends a card postback signed as the card provider signs it (with `key`, the TEST key by default). */
export async function postback(
  server: TestServer,
  params: Record<string, string>,
  options: { key?: string; shopId?: string } = {},
): Promise<{ status: number; text: string }> {
  const query = signedPostbackQuery(options.key ?? TEST_PAYMENT_SECRET, { shopID: options.shopId ?? TEST_CARD_SHOP_ID, ...params });
  const response = await fetch(`${server.url}/api/backend/cardbillingpostback?${query}`);
  return { status: response.status, text: await response.text() };
}

/** The parameters of a first sale's postback for an order, as the card provider sends them (Verotel's vectors' shape). */
export function saleParams(bought: BuyProductAnswer, amountOre: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    saleID: `5550${bought.orderId}`,
    referenceID: bought.referenceId,
    priceAmount: decimalAmount(amountOre),
    priceCurrency: 'DKK',
    paymentMethod: 'CC',
    type: 'purchase',
    truncatedPAN: 'XXXXXXXXXXXX1111',
    transactionID: `8880${bought.orderId}`,
    ...extra,
  };
}

export async function orderRow(server: TestServer, orderId: number) {
  const [row] = await server.db.select().from(orders).where(eq(orders.id, orderId));
  return row!;
}

export async function documentsOfOrder(server: TestServer, orderId: number) {
  return server.db.select().from(salesDocuments).where(eq(salesDocuments.orderId, orderId)).orderBy(asc(salesDocuments.id));
}

export async function ordersOfAccount(server: TestServer, accountId: number, productType?: number) {
  return server.db
    .select()
    .from(orders)
    .where(productType === undefined ? eq(orders.accountId, accountId) : and(eq(orders.accountId, accountId), eq(orders.productType, productType)))
    .orderBy(asc(orders.id));
}

/** purchaseitem over HTTP, polled until the order has the status (the callback screen's polling). */
export async function waitForStatus(server: TestServer, who: Advertiser, orderId: number, status: number, timeoutMs = 15_000): Promise<OrderView> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const item = await backendApi(server, 'purchaseitem', who.cookie, { query: { Id: orderId } });
    expect(item.status, JSON.stringify(item.body)).toBe(200);
    if ((item.body as OrderView).status === status || Date.now() > until) return item.body as OrderView;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The postbacks stored for an order, oldest first. */
export function paymentEventsOf(target: TestServer, orderId: number) {
  return target.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, orderId)).orderBy(asc(paymentEvents.id));
}

/**
 * The last postback refused for `reason`, which must exist: one the provider did not vouch for (a bad
 * signature, another shop) in the bounded refused_postbacks log, never in payment_events; one it vouched
 * for that we refused (an unknown reference, a wrong amount) in payment_events under a generated key.
 */
export async function refusedWith(target: TestServer, reason: string): Promise<{ rawQuery: string; rawBody: string }> {
  const unvouched = await target.db.select().from(refusedPostbacks).where(eq(refusedPostbacks.reason, reason)).orderBy(asc(refusedPostbacks.id));
  const stored = await target.db
    .select()
    .from(paymentEvents)
    .where(and(eq(paymentEvents.outcome, 'refused'), eq(paymentEvents.reason, reason)))
    .orderBy(asc(paymentEvents.id));
  expect(unvouched.length + stored.length, reason).toBeGreaterThan(0);
  if (unvouched.length > 0) {
    expect(stored, `${reason}: an unauthenticated postback never enters payment_events`).toEqual([]);
    const last = unvouched.at(-1)!;
    expect(last.queryPrefix.length).toBeLessThanOrEqual(2000);
    return { rawQuery: last.queryPrefix, rawBody: last.bodyPrefix };
  }
  expect(stored.at(-1)!.eventKey).toMatch(/^refused:/);
  return stored.at(-1)!;
}
