import { test, expect, passAgeGate } from './fixtures.ts';

test('a screen whose code fails to load reloads the page once, not in a loop', async ({ page, context, baseURL, checkA11y }) => {
  await passAgeGate(context, baseURL);
  await page.route(/\/_astro\/LoginForm\.[^/]+\.js/, (route) => route.abort());
  // Counts, per document, the islands that failed to load.
  await page.addInitScript(() => {
    addEventListener('astro:hydration-error', () => {
      const w = window as unknown as { islandErrors?: number };
      w.islandErrors = (w.islandErrors ?? 0) + 1;
    });
  });
  // Documents requested, not load events: a reload can come before a slow first document's load event.
  let loads = 0;
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) loads += 1;
  });

  await page.goto('/login/');
  // First document: the island's code fails (Astro retries once), the page reloads itself once.
  await expect.poll(() => loads, { timeout: 20_000 }).toBe(2);
  // (The second document may still be replacing the first: read once it answers.)
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('chunk-reload-at')).catch(() => null), { timeout: 20_000 }).not.toBeNull();
  // Second document: the code fails again, and the guard keeps it from reloading again.
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { islandErrors?: number }).islandErrors ?? 0).catch(() => 0), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Log ind' })).toBeVisible();
  await checkA11y(page);
  expect(loads).toBe(2);
});
