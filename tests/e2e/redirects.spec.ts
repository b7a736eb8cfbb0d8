import { test, expect, passAgeGate } from './fixtures.ts';

test('a path without a trailing slash and without a query is redirected permanently', async ({ request }) => {
  const response = await request.get('/cookies', { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(new URL(response.headers()['location'] ?? '', 'http://x').pathname).toBe('/cookies/');

  const withQuery = await request.get('/cookies?from=test', { maxRedirects: 0 });
  expect(withQuery.status()).not.toBe(301);
});

test('the advertiser backend sends a visitor without a session to the login with redirectTo', async ({ page, context, baseURL, checkA11y }) => {
  await passAgeGate(context, baseURL);
  await page.goto('/backend/basic/');
  await expect(page).toHaveURL(/\/login\/\?redirectTo=%2Fbackend%2Fbasic%2F$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Log ind' })).toBeVisible();
  await checkA11y(page);
});

test('the support area sends a visitor without a session to the support login with redirectTo', async ({ page, checkA11y }) => {
  await page.goto('/support/orders/');
  await expect(page).toHaveURL(/\/support\/login\/\?redirectTo=%2Fsupport%2Forders%2F$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Log ind i kundeservice' })).toBeVisible();
  await checkA11y(page);
});
