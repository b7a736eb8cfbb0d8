import { test, expect, passAgeGate, islandsReady } from './fixtures.ts';

const advertiser = { email: 'demo-1@example.invalid', password: 'demo-password' };

test('an advertiser signs in from the redirect, reaches the screen, and logs out', async ({ page, context, baseURL, checkA11y }) => {
  await passAgeGate(context, baseURL);
  await page.goto('/backend/basic/');
  await expect(page).toHaveURL(/\/login\/\?redirectTo=%2Fbackend%2Fbasic%2F$/);
  await islandsReady(page);

  await page.getByLabel('E-mail').fill(advertiser.email);
  await page.getByLabel('Adgangskode').fill('wrong-password');
  await page.getByRole('button', { name: 'Log ind' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Forkert e-mail eller adgangskode. Har du lige tilmeldt dig, så åbn først linket i den e-mail, vi har sendt dig.',
  );

  await page.getByLabel('Adgangskode').fill(advertiser.password);
  await page.getByRole('button', { name: 'Log ind' }).click();
  await expect(page).toHaveURL(/\/backend\/basic\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Grundoplysninger' })).toBeVisible();
  await checkA11y(page);

  // Language switch in place.
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Basic information' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByRole('button', { name: /^da/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Grundoplysninger' })).toBeVisible();

  // /backend/ goes to the dashboard; the public header's user icon now links to it.
  await page.goto('/backend/');
  await expect(page).toHaveURL(/\/backend\/dashboard\/$/);
  await page.goto('/cookies/');
  await expect(page.locator('header a[data-signed-in="true"]').first()).toHaveAttribute('href', '/backend/dashboard/');
  // Signed-in users visiting /login/ go to the dashboard.
  await page.goto('/login/');
  await expect(page).toHaveURL(/\/backend\/dashboard\/$/);

  await page.goto('/backend/log-out/');
  // (A pattern like /\/$/ also matches /backend/log-out/ itself, before the app has moved on.)
  await expect(page).toHaveURL((url) => url.pathname === '/');
  await page.goto('/backend/dashboard/');
  await expect(page).toHaveURL(/\/login\/\?redirectTo=%2Fbackend%2Fdashboard%2F$/);
});
