import { test, expect, passAgeGate, islandsReady } from './fixtures.ts';

test('switch to English and back: twin URL, html lang and the locale cookie', async ({ page, context, baseURL, checkA11y }) => {
  await passAgeGate(context, baseURL);
  await page.goto('/cookies/');
  await islandsReady(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'da');
  await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute('href', /\/en\/cookies\/$/);
  await expect(page.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute('href', /\/cookies\/$/);
  await checkA11y(page);

  await page.getByRole('button', { name: /^Sprog/ }).click();
  await page.getByRole('link', { name: 'English', exact: true }).click();
  await expect(page).toHaveURL(/\/en\/cookies\/$/);
  await islandsReady(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1, name: 'Cookies' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Thai massage' }).first()).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === 'locale')?.value).toBe('en');
  await checkA11y(page);

  await page.getByRole('button', { name: /^Language/ }).click();
  await page.getByRole('link', { name: 'Dansk', exact: true }).click();
  await expect(page).toHaveURL(/\/cookies\/$/);
  expect(new URL(page.url()).pathname).toBe('/cookies/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'da');
  expect((await context.cookies()).find((c) => c.name === 'locale')?.value).toBe('da');
});

test('Escape closes the language list', async ({ page, context, baseURL }) => {
  await passAgeGate(context, baseURL);
  await page.goto('/');
  await islandsReady(page);
  const button = page.getByRole('button', { name: /^Sprog/ });
  await button.click();
  await expect(page.getByRole('link', { name: 'English', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('link', { name: 'English', exact: true })).toBeHidden();
  await expect(button).toBeFocused();
});
