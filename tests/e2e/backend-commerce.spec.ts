/**
 * The advertiser's commerce screens (issue 16): buy a package with the TEST card provider from the buy
 * page, through its hosted page, back to the dashboard that waits for the order (the return never means
 * paid); a declined payment and the way to try again; "still processing" while the postback is delayed,
 * turning into paid by itself. Danish and English.
 *
 * The TEST provider's hosted page and its return address are on SITE_URL (http://localhost:PORT), and
 * the session cookie belongs to one host: these tests use that host throughout.
 */
import type { Page } from '@playwright/test';
import { createAdvertiser } from './advertisers.ts';
import { expect, test } from './fixtures.ts';

test.use({ baseURL: process.env['E2E_BASE_URL'] ?? `http://localhost:${process.env['E2E_PORT'] ?? 3100}` });

/** On the TEST card page: choose when the postback goes, then press an outcome. */
async function decide(page: Page, outcome: 'Godkend · Approve' | 'Afvis · Decline', timing?: { delayed: number }) {
  await expect(page.getByRole('heading', { name: /Kortbetaling/ })).toBeVisible();
  if (timing) {
    await page.getByLabel('Postback').selectOption('delayed');
    await page.getByLabel('delay (s)').fill(String(timing.delayed));
  }
  await page.getByRole('button', { name: outcome }).click();
}

async function startBuying(page: Page, price: string) {
  await page.goto('/backend/buy-advert-package/');
  await expect(page.getByRole('heading', { level: 1, name: 'Køb annoncepakke' })).toBeVisible();
  await page.getByRole('radio', { name: new RegExp(`30 dage.*${price.replace('.', '\\.')}`) }).check();
  await page.getByRole('radio', { name: 'Betalingskort' }).check();
}

test('a package bought by card: the terms before paying, the TEST page, and the dashboard waits for the order to be paid', async ({ page, checkA11y }) => {
  await createAdvertiser(page);
  await startBuying(page, '499,00 DKK');
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

  await decide(page, 'Godkend · Approve');
  await expect(page).toHaveURL(/\/backend\/dashboard\/\?orderId=\d+$/);
  const status = page.locator('[data-payment-status]');
  await expect(status).toHaveAttribute('data-payment-status', 'paid');
  await expect(status).toContainText('Tak! Din betaling for Annonce i 30 dage er modtaget.');
  const orderId = /orderId=(\d+)/.exec(page.url())![1];
  await expect(status.getByRole('link', { name: 'Se kvittering' })).toHaveAttribute('href', `/backend/promotion/receipt/${orderId}/`);

  // In English.
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(status).toContainText('Thank you! Your payment for');
  await page.goto('/backend/buy-advert-package/');
  await expect(page.getByRole('heading', { level: 1, name: 'Buy advert package' })).toBeVisible();
  await expect(page.locator('[data-running-until]')).toContainText('Your advert package runs until');
  await expect(page.getByText('All prices include 25% VAT.')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'I ask that the service starts now and accept that I lose my right of withdrawal once it has been delivered.' })).toBeVisible();
  await page.getByRole('button', { name: /^da/i }).click();
});

test('a declined payment says so and offers to try again; a delayed postback shows "still processing" until it is paid', async ({ page }) => {
  await createAdvertiser(page);
  await startBuying(page, '499,00 DKK');
  await page.getByRole('checkbox', { name: /Jeg anmoder om/ }).check();
  await page.getByRole('button', { name: 'Betal 499,00 DKK' }).click();
  await decide(page, 'Afvis · Decline');
  const status = page.locator('[data-payment-status]');
  await expect(status).toHaveAttribute('data-payment-status', 'failed');
  await expect(status).toContainText('Betalingen blev afvist. Intet er trukket.');
  await status.getByRole('link', { name: 'Prøv igen' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Køb annoncepakke' })).toBeVisible();

  // Again, with the postback 4 seconds after the buyer's return.
  await page.getByRole('checkbox', { name: /Jeg anmoder om/ }).check();
  await page.getByRole('button', { name: /^Betal / }).click();
  await decide(page, 'Godkend · Approve', { delayed: 4 });
  await expect(status).toHaveText('Betalingen behandles stadig. Det kan tage et par minutter...');
  await expect(status).toHaveAttribute('data-payment-status', 'paid', { timeout: 20_000 });
});
