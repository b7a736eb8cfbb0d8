import { test, expect, passAgeGate, signInAsSupportAdmin, unique } from './fixtures.ts';

test('a rebuild after a data change shows the change', async ({ page, context, baseURL, checkA11y }) => {
  test.setTimeout(240_000);
  const slug = unique('e2e-artikel');
  const title = `Artikel ${slug}`;
  const body = Array.from({ length: 450 }, (_, i) => `ord${i}`).join(' ');

  await signInAsSupportAdmin(page.context(), baseURL);
  const created = await page.request.post('/api/support/landingpages', {
    data: { type: 'article', locale: 'da', url: slug, title, body },
  });
  expect(created.ok()).toBe(true);
  // No explicit rebuild request: the change itself schedules a debounced rebuild
  // (SITE_REBUILD_DEBOUNCE_SECONDS=2 in playwright.config.ts).

  await expect
    .poll(async () => (await page.request.get(`/artikler/${slug}/`)).status(), { timeout: 180_000, intervals: [1000, 2000, 5000] })
    .toBe(200);

  await passAgeGate(context, baseURL);
  await page.goto(`/artikler/${slug}/`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.locator('[data-reading-time]')).toHaveText('3 min. læsning');
  await checkA11y(page);

  await page.goto('/artikler/');
  await expect(page.locator('#main').getByRole('link', { name: title })).toHaveAttribute('href', `/artikler/${slug}/`);
  await checkA11y(page);
});

test('support can ask for a rebuild now (cleancache); visitors cannot', async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  const builtAt = async () => ((await (await page.request.get('/readyz')).json()) as { site: { builtAt: string } }).site.builtAt;
  const before = await builtAt();

  expect((await page.request.post('/api/frontend/cleancache')).status()).toBe(401);
  await signInAsSupportAdmin(page.context(), baseURL);
  expect((await page.request.post('/api/frontend/cleancache')).status()).toBe(204);

  await expect.poll(builtAt, { timeout: 180_000, intervals: [1000, 2000, 5000] }).not.toBe(before);
});
