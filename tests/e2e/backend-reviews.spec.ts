/**
 * The advertiser's reviews and blacklist screens. Reviews use demo advert 60 (reserved for this file; the
 * demo seed gives it two approved reviews, one already answered). The blacklist uses a fresh advertiser.
 */
import type { Page } from '@playwright/test';
import { visitorTest as test, expect } from './fixtures.ts';
import { createAdvertiser } from './advertisers.ts';

const demo = { email: 'demo-60@example.invalid', password: 'demo-password' };

async function signIn(page: Page, account: { email: string; password: string }) {
  const response = await page.request.post('/api/frontend/login', { data: { Email: account.email, Password: account.password } });
  expect(response.ok(), await response.text()).toBe(true);
}

test('an advertiser replies once to a review and asks support to remove one', async ({ page, context, checkA11y }) => {
  await signIn(page, demo);
  await page.goto('/backend/reviews/');
  await expect(page.getByRole('heading', { level: 1, name: 'Anmeldelser' })).toBeVisible();
  const reviews = page.locator('article[data-review]');
  await expect(reviews).toHaveCount(2);
  await expect(reviews.first()).toContainText(/af 5 stjerner/);
  await expect(reviews.first()).toContainText(/Skrevet \d{2}-\d{2}-\d{4}/);
  await checkA11y(page);

  // Filters by status.
  await page.getByRole('button', { name: 'Godkendte (2)' }).click();
  await expect(page.getByRole('button', { name: 'Godkendte (2)' })).toHaveAttribute('aria-pressed', 'true');
  await expect(reviews).toHaveCount(2);
  await page.getByRole('button', { name: 'Venter (0)' }).click();
  await expect(page.getByText('Ingen anmeldelser med denne status.')).toBeVisible();
  await page.getByRole('button', { name: 'Alle (2)' }).click();

  // One review is answered already (no reply offered), the other one can be answered.
  const replyBoxes = page.getByRole('textbox', { name: 'Dit svar', exact: true });
  await expect(replyBoxes).toHaveCount(1);
  const open = reviews.filter({ has: replyBoxes });
  const reviewId = await open.getAttribute('data-review');

  // The same screen in a second tab, still offering the reply.
  const stale = await context.newPage();
  await stale.goto('/backend/reviews/');
  const staleReview = stale.locator(`article[data-review="${reviewId}"]`);
  await expect(staleReview.getByRole('textbox', { name: 'Dit svar', exact: true })).toBeVisible();

  const answered = page.locator(`article[data-review="${reviewId}"]`);
  const reply = 'Tak for dit besøg – du er velkommen igen.';
  await answered.getByRole('textbox', { name: 'Dit svar', exact: true }).fill(reply);
  await answered.getByRole('button', { name: 'Udgiv svar' }).click();
  await expect(answered.locator('[data-reply]')).toContainText(reply);
  await expect(answered.getByRole('textbox', { name: 'Dit svar', exact: true })).toHaveCount(0);
  await expect(answered.getByRole('button', { name: 'Udgiv svar' })).toHaveCount(0);

  // The stale tab's second reply is refused at its field, the text kept.
  await staleReview.getByRole('textbox', { name: 'Dit svar', exact: true }).fill('Et svar mere');
  await staleReview.getByRole('button', { name: 'Udgiv svar' }).click();
  await expect(staleReview.getByText('Du har allerede svaret på denne anmeldelse.')).toBeVisible();
  await expect(staleReview.getByRole('textbox', { name: 'Dit svar', exact: true })).toHaveValue('Et svar mere');
  await stale.close();

  // Ask support to remove a review: a reason is needed.
  await answered.getByRole('button', { name: 'Bed support om at fjerne anmeldelsen' }).click();
  await answered.getByRole('button', { name: 'Send anmodning' }).click();
  await expect(answered.getByText('Skal udfyldes.')).toBeVisible();
  await checkA11y(page);
  await answered.getByLabel('Hvorfor skal anmeldelsen fjernes?').fill('Anmeldelsen handler om en anden annonce.');
  await answered.getByRole('button', { name: 'Send anmodning' }).click();
  await expect(answered.getByText('Du har bedt support om at fjerne anmeldelsen. Support behandler anmodningen.')).toBeVisible();

  await page.reload();
  await expect(answered.locator('[data-reply]')).toContainText(reply);
  await expect(page.getByRole('textbox', { name: 'Dit svar', exact: true })).toHaveCount(0);
  await expect(answered.getByText('Du har bedt support om at fjerne anmeldelsen. Support behandler anmodningen.')).toBeVisible();
  await expect(answered.getByRole('button', { name: 'Bed support om at fjerne anmeldelsen' })).toHaveCount(0);

  // In English.
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reviews' })).toBeVisible();
  await expect(answered).toContainText('You have asked support to remove this review.');
  await expect(answered.locator('[data-reply]')).toContainText('Your reply');
  await page.getByRole('button', { name: /^da/i }).click();
});

test('an advertiser blocks a client number with a note, is told a duplicate is already listed, and removes it', async ({ page, checkA11y }) => {
  await createAdvertiser(page);
  await page.goto('/backend/blacklist/');
  await expect(page.getByRole('heading', { level: 1, name: 'Blokerede numre' })).toBeVisible();
  await expect(page.getByText('Anmeldelser, der skrives fra et nummer på listen, bliver afvist.')).toBeVisible();
  await expect(page.getByText('Du har ikke blokeret nogen numre.')).toBeVisible();
  await checkA11y(page);

  // Not a Danish number.
  await page.getByLabel('Telefonnummer').fill('12ab');
  await page.getByRole('button', { name: 'Bloker nummer' }).click();
  await expect(page.getByText('Skriv et dansk telefonnummer med 8 cifre.')).toBeVisible();

  await page.getByLabel('Telefonnummer').fill('+45 23 45 67 89');
  await page.getByLabel('Note (valgfri)').fill('Dukkede ikke op');
  await page.getByRole('button', { name: 'Bloker nummer' }).click();
  const row = page.locator('tr[data-blacklist-entry="23456789"]');
  await expect(row).toContainText('23 45 67 89');
  await expect(row).toContainText('Dukkede ikke op');
  await expect(row).toContainText(/\d{2}-\d{2}-\d{4}/);
  await expect(page.getByLabel('Telefonnummer')).toHaveValue('');

  // The same number written another way is refused at the field, the values kept.
  await page.getByLabel('Telefonnummer').fill('23456789');
  await page.getByLabel('Note (valgfri)').fill('Igen');
  await page.getByRole('button', { name: 'Bloker nummer' }).click();
  await expect(page.locator('#blacklist-phone-error')).toHaveText('Findes allerede på listen.');
  await expect(page.getByLabel('Telefonnummer')).toHaveValue('23456789');
  await expect(page.getByLabel('Note (valgfri)')).toHaveValue('Igen');
  await expect(page.locator('tr[data-blacklist-entry]')).toHaveCount(1);
  await checkA11y(page);
  await page.getByLabel('Telefonnummer').fill('');
  await page.getByLabel('Note (valgfri)').fill('');

  // Leaving with a number typed but not saved asks first; staying keeps it.
  await page.getByLabel('Telefonnummer').fill('34567890');
  const question = page.waitForEvent('dialog').then(async (dialog) => {
    const message = dialog.message();
    await dialog.dismiss();
    return message;
  });
  await page.getByRole('link', { name: 'Oversigt' }).first().click();
  expect(await question).toBe('Du har ændringer, der ikke er gemt. Vil du forlade siden uden at gemme?');
  await expect(page).toHaveURL(/\/backend\/blacklist\/$/);
  await expect(page.getByLabel('Telefonnummer')).toHaveValue('34567890');
  await page.getByLabel('Telefonnummer').fill('');

  await page.reload();
  await expect(row).toContainText('Dukkede ikke op');
  await page.getByRole('button', { name: 'Fjern 23 45 67 89 fra listen' }).click();
  await page.getByRole('dialog', { name: 'Vil du fjerne nummeret?' }).getByRole('button', { name: 'Fjern nummeret' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('Du har ikke blokeret nogen numre.')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Du har ikke blokeret nogen numre.')).toBeVisible();
});
