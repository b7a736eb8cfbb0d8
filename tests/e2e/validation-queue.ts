/**
 * Support's validation queue in the browser (issue 15): an online age check no longer verifies anyone by
 * itself, so the journeys that used the built-in TEST provider's one-click pass now have support accept
 * the verification in /support/validation/ (allowed with the TEST provider outside production only).
 */
import type { Browser } from '@playwright/test';
import { expect, createSupportUser, signInSupport } from './fixtures.ts';
import { showPageWithRow } from './paged-lists.ts';

/**
 * Opens the advert's waiting online age check from the TEST provider (found by the advert's name, on
 * whichever page of the queue it is, marked TEST in the queue) in /support/validation/ as a new Support user.
 */
export async function openValidation(browser: Browser, baseURL: string, name: string) {
  const user = await createSupportUser(baseURL, { permissions: ['Support'] });
  const context = await browser.newContext({ baseURL, locale: 'da-DK' });
  expect((await signInSupport(context.request, user)).status()).toBe(200);
  const page = await context.newPage();
  // The page of the queue with the row (other workers decide verifications meanwhile; tests/e2e/paged-lists.ts).
  await showPageWithRow<{ advertName: string | null }>(page, '/support/validation/', '/api/support/validations', (item) => item.advertName === name, {
    what: `${name}'s age check`,
  });
  await expect(page.getByRole('heading', { level: 1, name: 'Validering' })).toBeVisible();
  const row = page.locator('tr[data-validation]', { has: page.getByRole('link', { name, exact: true }) });
  await expect(row.locator('[data-test-provider]')).toHaveText('TEST-udbyder — ikke et rigtigt alderstjek');
  await row.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Verifikation nr\. \d+$/ })).toBeVisible();
  return { context, page };
}

/** Support accepts the advert's online age check from the TEST provider (marked as such) in /support/validation/. */
export async function acceptTestAgeCheck(browser: Browser, baseURL: string, name: string): Promise<void> {
  const { context, page } = await openValidation(browser, baseURL, name);
  await expect(page.locator('[data-provider="test"] [data-test-provider]')).toHaveText('TEST-udbyder — ikke et rigtigt alderstjek');
  await page.getByLabel(/^Godkend –/).check();
  await page.getByRole('button', { name: 'Gem afgørelse' }).click();
  await expect(page.locator('[data-outcome]')).toContainText('Godkendt');
  await context.close();
}
