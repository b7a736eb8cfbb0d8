/**
 * The advertiser's commerce screens with the other payment methods and products (issue 16), beside the card
 * tests in backend-commerce.spec.ts: a package bought with crypto through the TEST crypto page (the
 * dashboard waits for the confirmations) and an expired crypto invoice; a package bought by phone bill in
 * English (the browser posts the provider's signed form, as with DIMOCO); a front-page boost for the test's
 * own advert, made Active through the real verification and approval; and a renewal cancelled on the card
 * provider's cancel page. The phone bill runs the live DIMOCO pay:smart adapter against the built-in
 * stand-in (docs/payments/dimoco.md).
 *
 * The TEST providers' hosted pages and their return address are on SITE_URL (http://localhost:PORT), and
 * the session cookie belongs to one host: these tests use that host throughout.
 */
import { createAdvertiser } from './advertisers.ts';
import { BUY_WORDS, OFFERS, approveAdvert, buyPackageByApi, choose, decide, pay, startBuying } from './commerce.ts';
import { createSupportUser, expect, signInSupport, test, unique } from './fixtures.ts';

test.use({ baseURL: process.env['E2E_BASE_URL'] ?? `http://localhost:${process.env['E2E_PORT'] ?? 3100}` });

const DATE = String.raw`\d{2}-\d{2}-\d{4}`;

test('an advertiser pays a package with crypto on the TEST crypto page; the dashboard waits for the confirmations, then the receipt and the purchase history show it paid', async ({ page, checkA11y }) => {
  test.setTimeout(120_000);
  await createAdvertiser(page);
  await startBuying(page, { method: 'crypto' });
  await expect(page.locator('[data-buy-summary]')).toContainText('Fornyes ikke.');
  await pay(page);

  // Confirmo's notifications (confirming, then paid) come 25 seconds after the decision: longer than the
  // waits for the dashboard and for "still processing" below (10 s each), so it is never paid before it is seen.
  await decide(page, 'crypto', 'Betal · Pay', { delayed: 25, checkA11y });
  await expect(page).toHaveURL(/\/backend\/dashboard\/\?orderId=\d+$/);
  const status = page.locator('[data-payment-status]');
  await expect(status).toHaveText('Betalingen behandles stadig. Det kan tage et par minutter...');
  await expect(status).toHaveAttribute('data-payment-status', 'paid', { timeout: 60_000 });
  await expect(status).toContainText('Tak! Din betaling for Annonce i 30 dage er modtaget.');
  const orderId = /orderId=(\d+)/.exec(page.url())![1];
  // A new advert: the package waits for support's approval (issue 29).
  await expect(page.locator('[data-promotion="1"]').first()).toContainText('AnnoncepakkeStarter, når support godkender annoncen');
  await checkA11y(page);

  await status.getByRole('link', { name: 'Se kvittering' }).click();
  await expect(page).toHaveURL(new RegExp(`/backend/promotion/receipt/${orderId}/$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Kvittering for promovering' })).toBeVisible();
  await expect(page.locator('[data-receipt-status]')).toHaveText('Betalt');
  await expect(page.locator('[data-receipt-total]')).toHaveText('499,00 DKK inkl. moms (99,80 DKK moms)');
  await expect(page.locator('[data-document="receipt"]')).toContainText(/Kvittering nr\. \d{6}/);
  await checkA11y(page);

  await page.getByRole('link', { name: 'Alle køb' }).click();
  const row = page.locator(`[data-order="${orderId}"]`);
  await expect(row).toContainText('Annonce i 30 dage');
  await expect(row).toContainText('Betalt');
  await expect(row).toContainText('499,00 DKK');
  await checkA11y(page);
});

test('an advertiser lets a crypto invoice expire; the dashboard, the order and the purchase history say it expired and nothing was charged', async ({ page, checkA11y }) => {
  await createAdvertiser(page);
  await startBuying(page, { method: 'crypto' });
  await pay(page);
  await decide(page, 'crypto', 'Udløb · Expire');

  await expect(page).toHaveURL(/\/backend\/dashboard\/\?orderId=\d+$/);
  const orderId = /orderId=(\d+)/.exec(page.url())![1];
  const status = page.locator('[data-payment-status]');
  await expect(status).toHaveAttribute('data-payment-status', 'expired');
  await expect(status).toContainText('Betalingen blev ikke gennemført i tide. Intet er trukket.');
  await expect(status.getByRole('link', { name: 'Prøv igen' })).toHaveAttribute('href', '/backend/buy-advert-package/');
  await expect(page.getByText('Du har ingen promoveringer endnu.')).toBeVisible();
  await checkA11y(page);

  await page.goto('/backend/purchase-history/');
  const row = page.locator(`[data-order="${orderId}"]`);
  await expect(row).toContainText('Annonce i 30 dage');
  await expect(row).toContainText('Udløbet');
  await row.getByRole('link', { name: 'Annonce i 30 dage' }).click();
  await expect(page.locator('[data-receipt-status]')).toHaveText('Udløbet');
  await expect(page.getByText('Der er ingen kvittering endnu: den laves, når betalingen er gennemført.')).toBeVisible();
  await checkA11y(page);
});

test('an advertiser pays a package by phone bill in English: the browser posts the signed pay:smart start form to the TEST stand-in, approves, and sees it paid on the dashboard, the receipt and the purchase history', async ({ page, checkA11y }) => {
  test.setTimeout(120_000);
  await createAdvertiser(page, { locale: 'en' });
  await page.goto('/backend/buy-advert-package/');
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Buy advert package' })).toBeVisible();
  await choose(page, OFFERS.package30.en, 'carrier', 'en');
  await expect(page.locator('[data-buy-summary]')).toContainText('499,00 DKK incl. VAT (99,80 DKK VAT)');
  await checkA11y(page);

  // As with DIMOCO, the buy page posts a signed form: a navigation of the browser, not a call of the page.
  const formPosted = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/test-payments/carrier/start');
  await pay(page, 'en');
  const posted = await formPosted;
  expect(posted.isNavigationRequest()).toBe(true);
  expect(posted.headers()['content-type']).toBe('application/x-www-form-urlencoded');
  const form = new URLSearchParams(posted.postData() ?? '');
  // pay:smart's action start; the currency and the page's language are the merchant contract's, not the form's.
  expect(Object.fromEntries(['action', 'amount', 'currency', 'language'].map((name) => [name, form.get(name)]))).toEqual({
    action: 'start',
    amount: '499.00',
    currency: null,
    language: null,
  });
  expect(form.get('url_return')).toMatch(/\/backend\/callback-payment\/\?referenceID=TEST-PAY-[A-Z0-9]+$/);
  expect(form.get('digest')).toMatch(/^[0-9a-f]{64}$/);
  await expect(page).toHaveURL(/\/test-payments\/carrier\/testcarrier-[0-9a-f]+$/);
  await decide(page, 'carrier', 'Godkend · Approve', { checkA11y });

  await expect(page).toHaveURL(/\/backend\/dashboard\/\?orderId=\d+$/);
  const orderId = /orderId=(\d+)/.exec(page.url())![1];
  const status = page.locator('[data-payment-status]');
  await expect(status).toHaveAttribute('data-payment-status', 'paid');
  await expect(status).toContainText('Thank you! Your payment for Advert for 30 days has been received.');
  await expect(page.locator('[data-promotion="1"]').first()).toContainText('Advert packageStarts when support approves the advert');
  await checkA11y(page);

  await status.getByRole('link', { name: 'See the receipt' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Promotion receipt' })).toBeVisible();
  await expect(page.locator('[data-receipt-status]')).toHaveText('Paid');
  await expect(page.locator('[data-document="receipt"]')).toContainText(/Receipt no\. \d{6}/);
  await checkA11y(page);

  await page.getByRole('link', { name: 'All purchases' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Purchase history' })).toBeVisible();
  const row = page.locator(`[data-order="${orderId}"]`);
  await expect(row).toContainText('Advert for 30 days');
  await expect(row).toContainText('Paid');
  await expect(row).toContainText('499,00 DKK');
  await checkA11y(page);
  await page.getByRole('button', { name: /^da/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Købshistorik' })).toBeVisible();
});

test('an advertiser buys a front-page boost for their active advert by card and sees it among the last promotions', async ({ page, checkA11y }) => {
  test.setTimeout(120_000);
  await createAdvertiser(page, { name: unique('Boost') });
  await approveAdvert(page);
  await buyPackageByApi(page);

  await page.goto('/backend/front-page-promotion/');
  await expect(page.getByRole('heading', { level: 1, name: 'Promovering på forsiden' })).toBeVisible();
  await choose(page, OFFERS.frontPage7.da, 'card');
  await expect(page.locator('[data-buy-summary]')).toContainText('199,00 DKK inkl. moms (39,80 DKK moms)');
  await checkA11y(page);
  await pay(page);
  await decide(page, 'card', 'Godkend · Approve');

  await expect(page).toHaveURL(/\/backend\/dashboard\/\?orderId=\d+$/);
  const orderId = /orderId=(\d+)/.exec(page.url())![1];
  const status = page.locator('[data-payment-status]');
  await expect(status).toHaveAttribute('data-payment-status', 'paid');
  await expect(status).toContainText('Tak! Din betaling for Forsidepromovering i 7 dage er modtaget.');
  const boost = page.locator('[data-promotion="2"]');
  await expect(boost).toHaveCount(1);
  await expect(boost).toContainText(new RegExp(`Promovering på forsiden${DATE} – ${DATE}Aktiv nu`));
  await expect(boost.getByRole('link', { name: 'Se kvittering' })).toHaveAttribute('href', `/backend/promotion/receipt/${orderId}/`);
  await checkA11y(page);

  // The promotion page now says until when the boost runs.
  await page.goto('/backend/front-page-promotion/');
  await expect(page.locator('[data-running-until]')).toHaveText(new RegExp(`^Din promovering løber til ${DATE}\\. Køber du nu, lægges de nye dage efter\\.$`));
});

test("an advertiser cancels the renewal of a renewing package on the card provider's page; the paid period runs to its end", async ({ page, checkA11y }) => {
  test.setTimeout(120_000);
  await createAdvertiser(page, { name: unique('Fornyelse') });
  // Approved first, so the package runs at once (a new advert's package waits for the approval).
  const advertId = await approveAdvert(page);
  await startBuying(page, { offer: OFFERS.renewing30.da });
  await expect(page.locator('[data-buy-summary]')).toContainText('Fornyes automatisk hver 30. dag, til du opsiger.');
  await pay(page);
  await page.waitForURL(/\/test-payments\/card\/testcard-[0-9a-f]+$/);
  const providerPage = new URL(page.url()).pathname;
  await decide(page, 'card', 'Godkend · Approve');
  await expect(page.locator('[data-payment-status]')).toHaveAttribute('data-payment-status', 'paid');

  await page.goto('/backend/advert-package/');
  const paidUntil = page.locator('[data-paid-until]');
  await expect(paidUntil).toHaveText(new RegExp(`^${DATE}$`));
  const until = await paidUntil.textContent();
  // The approval's introductory days, then the 30 paid.
  const daysLeft = await page.locator('[data-days-left]').textContent();
  await expect(page.locator('[data-renewal]')).toHaveText(new RegExp(`^Fornyes automatisk ${DATE}$`));
  await checkA11y(page);
  await page.getByRole('button', { name: 'Opsig fornyelsen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Opsig fornyelsen?' });
  await expect(dialog).toContainText(`Der trækkes ikke mere. Din pakke løber til ${until} som betalt. Du bekræfter opsigelsen på kortudbyderens side.`);
  await checkA11y(page);
  await dialog.getByRole('button', { name: 'Opsig', exact: true }).click();

  // On to the card provider's own cancel page (FlexPay's signed cancel-subscription URL, issue 29): the
  // renewal stops when the provider says so (its cancel postback), not when we ask.
  await expect(page).toHaveURL(/\/test-payments\/card\/cancel-subscription\?/);
  await page.getByRole('button', { name: 'Opsig abonnementet · Cancel the subscription' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Abonnementet er opsagt · The subscription is cancelled' })).toBeVisible();
  await page.getByRole('link', { name: 'Tilbage til siden · Back to the site' }).click();
  await expect(page).toHaveURL(/\/backend\/advert-package\/$/);
  await expect(page.locator('[data-renewal]')).toHaveText(`Slutter ${until} (fornyes ikke)`);
  await expect(paidUntil).toHaveText(until!);
  await expect(page.locator('[data-days-left]')).toHaveText(daysLeft!);
  await expect(page.getByRole('button', { name: 'Opsig fornyelsen' })).toHaveCount(0);

  // The provider charges the renewal anyway: never credited, and support finds it flagged for refund with
  // the reason in plain words (issue 29), in Danish and English.
  const rebill = await page.request.post(`${providerPage}/sale`, { form: { action: 'rebill' } });
  expect(await rebill.text()).toContain('data-statuses="200"');
  await expect(paidUntil).toHaveText(until!);
  const user = await createSupportUser(test.info().project.use.baseURL!, { permissions: ['Support'] });
  expect((await signInSupport(page.context().request, user)).status()).toBe(200);
  const flagged = await page.request.get('/api/support/orders', { params: { ProfileId: String(advertId), RefundFlagged: 'true' } });
  const [order] = ((await flagged.json()) as { items: { id: number }[] }).items;
  await page.goto(`/support/orders/${order!.id}/`);
  await expect(page.getByRole('heading', { level: 1, name: `Ordre ${order!.id}` })).toBeVisible();
  await expect(page.getByText('En fornyelse trukket, efter at annoncøren havde opsagt abonnementet.')).toBeVisible();
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByText('A renewal charged after the advertiser had cancelled the subscription.')).toBeVisible();
  await checkA11y(page);
  await page.getByRole('button', { name: /^da/i }).click();
});

/**
 * Each provider in the language its other journey does not use (issue 29: a browser test per provider in
 * both languages): the live adapter through its TEST stand-in's hosted page, back to the dashboard, paid,
 * and on to the receipt, every word in the screen's language.
 */
const OTHER_LANGUAGE = [
  { method: 'card', language: 'en', outcome: 'Godkend · Approve' },
  { method: 'crypto', language: 'en', outcome: 'Betal · Pay' },
  { method: 'carrier', language: 'da', outcome: 'Godkend · Approve' },
] as const;

const RECEIPT_WORDS = {
  da: { paid: 'Tak! Din betaling for Annonce i 30 dage er modtaget.', see: 'Se kvittering', heading: 'Kvittering for promovering', status: 'Betalt', receipt: /Kvittering nr\. \d{6}/ },
  en: { paid: 'Thank you! Your payment for Advert for 30 days has been received.', see: 'See the receipt', heading: 'Promotion receipt', status: 'Paid', receipt: /Receipt no\. \d{6}/ },
} as const;

for (const { method, language, outcome } of OTHER_LANGUAGE) {
  test(`a package paid with the ${method} provider in ${language === 'en' ? 'English' : 'Danish'}, through its stand-in, to the receipt`, async ({ page, checkA11y }) => {
    test.setTimeout(120_000);
    // A Danish account: the screen's language decides every word, the products' names included.
    await createAdvertiser(page);
    await page.goto('/backend/buy-advert-package/');
    await expect(page.getByRole('heading', { level: 1, name: BUY_WORDS.da.heading })).toBeVisible();
    if (language === 'en') await page.getByRole('button', { name: /^en/i }).click();
    await expect(page.getByRole('heading', { level: 1, name: BUY_WORDS[language].heading })).toBeVisible();
    await choose(page, OFFERS.package30[language], method, language);
    await pay(page, language);
    await decide(page, method, outcome);

    await expect(page).toHaveURL(/\/backend\/dashboard\/\?orderId=\d+$/);
    const words = RECEIPT_WORDS[language];
    const status = page.locator('[data-payment-status]');
    await expect(status).toHaveAttribute('data-payment-status', 'paid', { timeout: 30_000 });
    await expect(status).toContainText(words.paid);
    await status.getByRole('link', { name: words.see }).click();
    await expect(page.getByRole('heading', { level: 1, name: words.heading })).toBeVisible();
    await expect(page.locator('[data-receipt-status]')).toHaveText(words.status);
    await expect(page.locator('[data-document="receipt"]')).toContainText(words.receipt);
    await checkA11y(page);
    if (language === 'en') await page.getByRole('button', { name: /^da/i }).click();
  });
}
