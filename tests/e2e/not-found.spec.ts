import { test, expect, passAgeGate, unique } from './fixtures.ts';

test('an unknown path shows the Danish not-found page with status 404', async ({ page, context, baseURL, checkA11y }) => {
  await passAgeGate(context, baseURL);
  const response = await page.goto(`/${unique('findes-ikke')}/`);
  expect(response?.status()).toBe(404);
  await expect(page.locator('html')).toHaveAttribute('lang', 'da');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Siden findes ikke');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await checkA11y(page);
});

test('an unknown path under /en/ shows the English not-found page with status 404', async ({ page, context, baseURL, checkA11y }) => {
  await passAgeGate(context, baseURL);
  const response = await page.goto(`/en/${unique('does-not-exist')}/`);
  expect(response?.status()).toBe(404);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await checkA11y(page);
});

test('an unknown region or city of a search route is not found', async ({ request }) => {
  expect((await request.get(`/escort/${unique('region')}/`)).status()).toBe(404);
  expect((await request.get(`/thaimassage/region-hovedstaden/${unique('by')}/`)).status()).toBe(404);
  expect((await request.get(`/${unique('kind')}/region-hovedstaden/`)).status()).toBe(404);
});
