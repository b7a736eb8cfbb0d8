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

test('the search route shows the not-found page for an unknown kind, region or city, in both languages', async ({ page, context, baseURL, checkA11y }) => {
  await passAgeGate(context, baseURL);
  for (const [path, heading] of [
    [`/${unique('kind')}/`, 'Siden findes ikke'],
    [`/escort/${unique('region')}/`, 'Siden findes ikke'],
    [`/thaimassage/region-hovedstaden/${unique('by')}/`, 'Siden findes ikke'],
    [`/en/trans-escort/region-hovedstaden/${unique('city')}/`, 'Page not found'],
  ] as const) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  }
  await checkA11y(page);
});

