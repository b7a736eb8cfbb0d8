/**
 * The advertiser's commerce screens (issue 16): buy a package with the TEST card provider from the buy
 * page, through its hosted page, back to the dashboard that waits for the order (the return never means
 * paid); a declined payment and the way to try again; "still processing" while the postback is delayed,
 * turning into paid by itself; the receipt page (documents, PDFs, a full invoice on request) and the
 * purchase history. Danish and English.
 *
 * The TEST provider's hosted page and its return address are on SITE_URL (http://localhost:PORT), and
 * the session cookie belongs to one host: these tests use that host throughout.
 */
import { createAdvertiser } from './advertisers.ts';
import { buyPackageByApi, decide, pay, startBuying } from './commerce.ts';
import { createSupportUser, expect, signInSupport, test } from './fixtures.ts';

test.use({ baseURL: process.env['E2E_BASE_URL'] ?? `http://localhost:${process.env['E2E_PORT'] ?? 3100}` });

test('a package bought by card: the terms before paying, the TEST page, and the dashboard waits for the order to be paid', async ({ page, checkA11y }) => {
  // The longest journey here (buy, receipt, invoice, history, both languages): room for a busy machine.
  test.setTimeout(120_000);
  await createAdvertiser(page);
  await startBuying(page);
  const summary = page.locator('[data-buy-summary]');
  await expect(summary).toContainText('499,00 DKK inkl. moms (99,80 DKK moms)');
  await expect(summary).toContainText('Fornyes ikke.');
  await expect(summary).toContainText('14 dages fortrydelsesret');
  await expect(page.getByText('Alle priser er inkl. 25 % moms.')).toBeVisible();
  await checkA11y(page);
  // The express request to start at once is required; nothing chosen is lost.
  await page.getByRole('button', { name: 'Betal 499,00 DKK' }).click();
  await expect(page.getByText('Sæt flueben for at bede om, at ydelsen begynder nu, før du betaler.')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Betalingskort' })).toBeChecked();
  await page.getByRole('checkbox', { name: /Jeg anmoder om, at ydelsen begynder nu/ }).check();
  await page.getByRole('button', { name: 'Betal 499,00 DKK' }).click();

  await decide(page, 'card', 'Godkend · Approve');
  await expect(page).toHaveURL(/\/backend\/dashboard\/\?orderId=\d+$/);
  const status = page.locator('[data-payment-status]');
  await expect(status).toHaveAttribute('data-payment-status', 'paid');
  await expect(status).toContainText('Tak! Din betaling for Annonce i 30 dage er modtaget.');
  const orderId = /orderId=(\d+)/.exec(page.url())![1];
  // The dashboard's last promotions show the package, waiting for the new advert's approval (issue 29).
  const promotion = page.locator('[data-promotion="1"]').first();
  await expect(promotion).toContainText('AnnoncepakkeStarter, når support godkender annoncen');
  await expect(promotion.getByRole('link', { name: 'Se kvittering' })).toHaveAttribute('href', `/backend/promotion/receipt/${orderId}/`);
  await expect(status.getByRole('link', { name: 'Se kvittering' })).toHaveAttribute('href', `/backend/promotion/receipt/${orderId}/`);
  // The notification of the payment says where its link goes: the receipt, not a decision (issue 29).
  await page.reload();
  await expect(page.getByRole('link', { name: /^Se kvitteringen\s*: Tak for dit køb$/ })).toHaveAttribute('href', `/backend/purchase-history/${orderId}/`);
  await expect(page.getByRole('link', { name: /^Se afgørelsen\s*: Tak for dit køb/ })).toHaveCount(0);

  // The receipt: the order, its receipt with PDFs in both languages, and a full invoice on request.
  await status.getByRole('link', { name: 'Se kvittering' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Kvittering for promovering' })).toBeVisible();
  await expect(page.locator('[data-receipt-status]')).toHaveText('Betalt');
  await expect(page.locator('[data-receipt-total]')).toHaveText('499,00 DKK inkl. moms (99,80 DKK moms)');
  const receipt = page.locator('[data-document="receipt"]');
  await expect(receipt).toContainText(/Kvittering nr\. \d{6}/);
  const pdf = await page.request.get((await receipt.getByRole('link', { name: 'Hent PDF (dansk)' }).getAttribute('href'))!);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  await checkA11y(page);
  await page.getByRole('button', { name: 'Bed om en faktura' }).click();
  await page.getByRole('textbox', { name: 'Navn' }).fill('Sofie Æbelø');
  await page.getByRole('textbox', { name: 'Adresse' }).fill('Østergade 1');
  await page.getByRole('textbox', { name: 'Postnr. og by' }).fill('Aarhus');
  await page.getByRole('button', { name: 'Lav fakturaen' }).click();
  await expect(page.getByText('Skriv postnummer og by, fx 8000 Aarhus C.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Navn' })).toHaveValue('Sofie Æbelø');
  await page.getByRole('textbox', { name: 'Postnr. og by' }).fill('8000 Aarhus C');
  await page.getByRole('button', { name: 'Lav fakturaen' }).click();
  await expect(page.locator('[data-document="invoice"]')).toContainText(/Faktura nr\. \d{6}/);
  await expect(page.getByRole('button', { name: 'Bed om en faktura' })).toHaveCount(0);

  // The purchase history lists it, and opens the same receipt.
  await page.getByRole('link', { name: 'Alle køb' }).click();
  const row = page.locator(`[data-order="${orderId}"]`);
  await expect(row).toContainText('Annonce i 30 dage');
  await expect(row).toContainText('Betalt');
  await expect(row).toContainText('499,00 DKK');
  await expect(row).toContainText(/\d{2}-\d{2}-\d{4}/);
  await checkA11y(page);
  await row.getByRole('link', { name: 'Annonce i 30 dage' }).click();
  await expect(page).toHaveURL(new RegExp(`/backend/purchase-history/${orderId}/$`));
  await expect(page.locator('[data-document="invoice"]')).toBeVisible();

  // The card provider's success address goes to the payment receipt redirect: a purchase to its receipt,
  // anything else to the buy page.
  const { referenceId } = (await (await page.request.get(`/api/backend/purchaseitem?Id=${orderId}`)).json()) as { referenceId: string };
  await page.goto(`/api/CardBilling/Success?type=purchase&referenceID=${referenceId}`);
  await expect(page).toHaveURL(new RegExp(`/backend/promotion/receipt/${orderId}/$`));
  await expect(page.locator('[data-receipt-status]')).toHaveText('Betalt');
  await page.goto('/api/CardBilling/Success?type=subscription');
  await expect(page).toHaveURL(/\/backend\/buy-advert-package\/$/);

  // In English.
  await page.getByRole('button', { name: /^en/i }).click();
  await page.goto(`/backend/purchase-history/${orderId}/`);
  await expect(page.locator('[data-receipt-status]')).toHaveText('Paid');
  await expect(page.locator('[data-document="receipt"]').getByRole('link', { name: 'Download PDF (English)' })).toBeVisible();
  await page.goto('/backend/buy-advert-package/');
  await expect(page.getByRole('heading', { level: 1, name: 'Buy advert package' })).toBeVisible();
  // The advert is still new: a package bought now would wait for support's approval (issue 29).
  await expect(page.locator('[data-starts-when-public]')).toHaveText(
    'Your advert is not shown yet. A package you buy now starts only on the day support approves the advert, so you do not pay for days when it cannot be seen.',
  );
  await expect(page.getByText('All prices include 25% VAT.')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'I ask that the service starts now and accept that I lose my right of withdrawal once it has been delivered.' })).toBeVisible();
  await page.getByRole('button', { name: /^da/i }).click();
});

test('a declined payment says so and offers to try again; a delayed postback shows "still processing" until it is paid', async ({ page }) => {
  test.setTimeout(120_000);
  await createAdvertiser(page);
  await startBuying(page);
  await pay(page);
  await decide(page, 'card', 'Afvis · Decline');
  const status = page.locator('[data-payment-status]');
  await expect(status).toHaveAttribute('data-payment-status', 'failed');
  await expect(status).toContainText('Betalingen blev afvist. Intet er trukket.');
  await status.getByRole('link', { name: 'Prøv igen' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Køb annoncepakke' })).toBeVisible();

  // Again, with the postback 15 seconds after the decision: longer than the wait for "still processing" below
  // (the expect timeout, 10 s), so however slowly the dashboard loads, it is never paid before it is seen.
  await pay(page);
  await decide(page, 'card', 'Godkend · Approve', { delayed: 15 });
  await expect(status).toHaveText('Betalingen behandles stadig. Det kan tage et par minutter...');
  await expect(status).toHaveAttribute('data-payment-status', 'paid', { timeout: 40_000 });
});

test('promotion pages send an advert without a running package to the buy page; the package screen says what runs', async ({ page, checkA11y }) => {
  await createAdvertiser(page);
  await page.goto('/backend/front-page-promotion/');
  await expect(page).toHaveURL(/\/backend\/buy-advert-package\/\?from=front-page$/);
  await expect(page.getByText('Promovering kræver en aktiv annonce med en løbende annoncepakke. Køb eller forlæng din annoncepakke først.')).toBeVisible();
  await page.goto('/backend/advert-package/');
  await expect(page.locator('[data-no-package]')).toBeVisible();
  await page.getByRole('button', { name: /^en/i }).click();
  await page.goto('/backend/search-promotion/');
  await expect(page).toHaveURL(/\/backend\/buy-advert-package\/\?from=search$/);
  await expect(page.getByText('A promotion needs an active advert with a running advert package. Buy or extend your advert package first.')).toBeVisible();
  await page.getByRole('button', { name: /^da/i }).click();

  // The advert still waits for approval: the buy page says a package starts when it is first shown, and
  // a package bought now waits for that day (issue 29) instead of running while nobody can see the advert.
  await page.goto('/backend/buy-advert-package/');
  await expect(page.locator('[data-starts-when-public]')).toHaveText(
    'Din annonce er ikke vist endnu. En pakke, du køber nu, starter først den dag, support godkender annoncen, så du ikke betaler for dage, hvor den ikke kan ses.',
  );
  await buyPackageByApi(page);
  await page.goto('/backend/advert-package/');
  await expect(page.locator('[data-package-waiting]')).toHaveText('Betalt: 30 dage, der starter, når support godkender din annonce.');
  await expect(page.locator('[data-days-left]')).toHaveCount(0);
  await checkA11y(page);
});

test('an active demo advert with a running package opens the front-page promotion, with the ranking page linked', async ({ browser, baseURL, checkA11y }) => {
  // A demo advert that is Active with a future expiration, looked at (never changed) as support signed in as it.
  const user = await createSupportUser(baseURL!, { permissions: ['Support'] });
  const context = await browser.newContext({ baseURL, locale: 'da-DK' });
  expect((await signInSupport(context.request, user)).status()).toBe(200);
  const list = (await (await context.request.get('/api/support/profiles', { params: { Take: '200' } })).json()) as { items: { id: number; status: number }[] };
  let advertId = 0;
  for (const item of list.items.filter((advert) => advert.status === 1)) {
    const profile = (await (await context.request.get('/api/support/profile', { params: { Id: String(item.id) } })).json()) as { expirationDate: string | null };
    if (profile.expirationDate && new Date(profile.expirationDate).getTime() > Date.now() + 86_400_000) {
      advertId = item.id;
      break;
    }
  }
  expect(advertId, 'an active demo advert with a running package').toBeGreaterThan(0);
  const page = await context.newPage();
  await page.goto(`/support/adverts/${advertId}/`);
  await page.getByRole('button', { name: 'Log ind som annoncøren' }).click();
  await expect(page).toHaveURL(/\/backend\/dashboard\/$/);

  await page.goto('/backend/front-page-promotion/');
  await expect(page.getByRole('heading', { level: 1, name: 'Promovering på forsiden' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /Forsidepromovering i 7 dage.*199,00 DKK/ })).toBeChecked();
  await expect(page.getByRole('link', { name: 'Sådan ordnes annoncer' })).toHaveAttribute('href', '/ranking/');
  await checkA11y(page);
  await page.goto('/backend/search-promotion/');
  await expect(page.getByRole('heading', { level: 1, name: 'Promovering i søgning' })).toBeVisible();
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByRole('link', { name: 'How adverts are ordered' })).toHaveAttribute('href', '/en/ranking/');
  await page.getByRole('button', { name: /^da/i }).click();
  await page.getByRole('region', { name: 'Logget ind som annoncøren' }).getByRole('button', { name: 'Stop' }).click();
  await context.close();
});
