/**
 * The advertiser's purchases in browser tests (issue 16): the buy form of the buy page and the promotion
 * pages (choose an offer and a payment method, ask to start now, pay), the built-in TEST providers' hosted
 * pages (card, crypto, carrier: when the postback goes, then an outcome), a package bought through the API,
 * and an advert made Active through the real calls, so a boost can be bought for it.
 */
import { request as playwrightRequest, test, type Page } from '@playwright/test';
import { createSupportUser, expect, signInSupport } from './fixtures.ts';
import { findInPagedList } from './paged-lists.ts';

export type PaymentMethod = 'card' | 'crypto' | 'carrier';
export type Language = 'da' | 'en';

/** What the buy form says, in each language. */
export const BUY_WORDS = {
  da: {
    heading: 'Køb annoncepakke',
    methods: { card: 'Betalingskort', crypto: 'Kryptovaluta', carrier: 'Betal via mobilregning' },
    startNow: /^Jeg anmoder om, at ydelsen begynder nu/,
    pay: /^Betal \d/,
  },
  en: {
    heading: 'Buy advert package',
    methods: { card: 'Payment card', crypto: 'Cryptocurrency', carrier: 'Pay by phone bill' },
    startNow: /^I ask that the service starts now/,
    pay: /^Pay \d/,
  },
} as const;

/**
 * The reference seed's 30-day packages (the screen's language names them, each name once): the one that
 * does not renew, and the one that renews (same length and price, its name says so).
 */
export const OFFERS = {
  package30: { da: /^Annonce i 30 dage(?!,)/, en: /^Advert for 30 days(?!,)/ },
  renewing30: { da: /^Annonce i 30 dage, fornyes automatisk/, en: /^Advert for 30 days, renews automatically/ },
  frontPage7: { da: /^Forsidepromovering i 7 dage/, en: /^Front page promotion for 7 days/ },
} as const;

/** Each TEST provider's hosted page: its heading, the label of when its postback goes, and its outcomes. */
const TEST_PAGES = {
  card: { heading: 'Kortbetaling · Card payment (TEST)', timing: 'Postback', outcomes: ['Godkend · Approve', 'Afvis · Decline', 'Afbryd · Abandon'] },
  crypto: {
    heading: 'Kryptobetaling · Crypto payment (TEST)',
    timing: 'Notification',
    outcomes: ['Betal · Pay', 'Fejl · Fail', 'Udløb · Expire', 'Afbryd · Abandon'],
  },
  carrier: {
    heading: 'Betaling over telefonregning · Carrier billing (TEST)',
    timing: 'Callback',
    outcomes: ['Godkend · Approve', 'Afvis · Decline', 'Afbryd · Abandon'],
  },
} as const;

type Outcome<M extends PaymentMethod> = (typeof TEST_PAGES)[M]['outcomes'][number];

/** On the page's buy form: the offer and the payment method. */
export async function choose(page: Page, offer: RegExp, method: PaymentMethod, language: Language = 'da'): Promise<void> {
  await page.getByRole('radio', { name: offer }).check();
  await page.getByRole('radio', { name: BUY_WORDS[language].methods[method], exact: true }).check();
}

/** Opens the buy page in Danish and chooses the offer (by default the 30-day package that does not renew) and the method (by default card). */
export async function startBuying(page: Page, options: { offer?: RegExp; method?: PaymentMethod } = {}): Promise<void> {
  await page.goto('/backend/buy-advert-package/');
  await expect(page.getByRole('heading', { level: 1, name: BUY_WORDS.da.heading })).toBeVisible();
  await choose(page, options.offer ?? OFFERS.package30.da, options.method ?? 'card');
}

/** Asks for the service to start now and presses Pay: the browser goes on to the provider. */
export async function pay(page: Page, language: Language = 'da'): Promise<void> {
  await page.getByRole('checkbox', { name: BUY_WORDS[language].startNow }).check();
  await page.getByRole('button', { name: BUY_WORDS[language].pay }).click();
}

/**
 * On a TEST provider's page: waits for it, runs `checkA11y` on it when given, chooses when the postback
 * goes (`delayed` seconds after the decision; by default before the buyer returns), then presses `outcome`.
 */
export async function decide<M extends PaymentMethod>(
  page: Page,
  method: M,
  outcome: Outcome<M>,
  options: { delayed?: number; checkA11y?: (page: Page) => Promise<void> } = {},
): Promise<void> {
  const testPage = TEST_PAGES[method];
  await expect(page.getByRole('heading', { level: 1, name: testPage.heading })).toBeVisible();
  await options.checkA11y?.(page);
  if (options.delayed !== undefined) {
    await page.getByLabel(testPage.timing).selectOption('delayed');
    await page.getByLabel('delay (s)').fill(String(options.delayed));
  }
  await page.getByRole('button', { name: outcome }).click();
}

/**
 * Buys and pays, through the API, the product with this code (one of the offers of its type: 1 package, 2
 * and 3 boosts) by card, approved on the TEST card page (the postback before the return), as a buyer
 * would: the order is paid, with its receipt, when this returns. Answers the order's id.
 */
export async function buyPaidProduct(page: Page, code: string, typeId = 1): Promise<number> {
  const offers = (await (await page.request.get('/api/backend/promotions', { params: { TypeId: String(typeId) } })).json()) as { products: { id: number; code: string }[] };
  const product = offers.products.find((offer) => offer.code === code);
  if (!product) throw new Error(`${code} is not offered`);
  const bought = await page.request.post('/api/backend/buyproduct', { data: { ProductId: product.id, PaymentMethod: 'card' } });
  expect(bought.status(), await bought.text()).toBe(200);
  const { orderId, next } = (await bought.json()) as { orderId: number; next: { kind: 'redirect'; url: string } | { kind: 'form'; action: string } };
  if (next.kind !== 'redirect') throw new Error('the card provider starts with a redirect');
  // FlexPay's start URL, as the browser opens it: the stand-in checks it and sends on to the order's page.
  const start = new URL(next.url);
  const opened = await page.request.get(`${start.pathname}${start.search}`, { maxRedirects: 0 });
  expect(opened.status(), await opened.text()).toBe(303);
  const providerPage = opened.headers()['location']!;
  const approved = await page.request.post(providerPage, { form: { outcome: 'approve', timing: 'before-return' }, maxRedirects: 0 });
  expect(approved.status()).toBe(303);
  return orderId;
}

/** The 30-day package that does not renew, bought and paid as `buyPaidProduct` does. */
export const buyPackageByApi = (page: Page): Promise<number> => buyPaidProduct(page, 'membership-30');

type ValidationQueueItem = { id: number; advertId: number | null };

/** The signed-in advertiser passes the online age check with the TEST age provider: a verification waits for support. */
export async function passAgeCheck(page: Page): Promise<void> {
  const started = await page.request.post('/api/backend/ageestimation', { data: {} });
  expect(started.status(), await started.text()).toBe(200);
  const { uri } = (await started.json()) as { uri: string };
  const passed = await page.request.post(uri, { form: { outcome: 'pass' }, maxRedirects: 0 });
  expect(passed.status(), await passed.text()).toBe(303);
}

/**
 * The signed-in advertiser's new advert made Active as in life, through the real calls: the online age
 * check with the TEST age provider (passed), then a new Support user accepts it from the validation queue
 * and approves the advert (its first approval gives the introductory period: a future expiration).
 * Answers the advert's id.
 */
export async function approveAdvert(page: Page): Promise<number> {
  const { advertId } = (await (await page.request.get('/api/backend/userprofile')).json()) as { advertId: number };
  await passAgeCheck(page);

  // Support's calls need no particular host: the project's address, where the shared admin session lives.
  const baseURL = test.info().project.use.baseURL!;
  const user = await createSupportUser(baseURL, { permissions: ['Support'] });
  const support = await playwrightRequest.newContext({ baseURL });
  try {
    expect((await signInSupport(support, user)).status()).toBe(200);
    // Other workers decide verifications meanwhile: the queue is walked again from the start until found.
    const { id: verificationId } = await findInPagedList<ValidationQueueItem>(support, '/api/support/validations', (item) => item.advertId === advertId, {
      what: `advert ${advertId}'s age check`,
    });
    const accepted = await support.post('/api/support/acceptvalidation', { data: { Id: verificationId } });
    expect(accepted.status(), await accepted.text()).toBe(200);
    const approved = await support.post('/api/support/reviewadvert', { data: { Id: advertId, Approve: true } });
    expect(approved.status(), await approved.text()).toBe(200);
    expect(((await approved.json()) as { status: number }).status).toBe(1);
  } finally {
    await support.dispose();
  }
  return advertId;
}
