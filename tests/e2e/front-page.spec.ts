import { test, expect, passAgeGate } from './fixtures.ts';
import { expectUnfilteredLanding } from './search-answers.ts';

type Card = { id: number; name: string; url: string };

test('the front page shows the adverts of the current minute and leads to a landing page', async ({ page, context, baseURL, checkA11y }) => {
  await passAgeGate(context, baseURL);
  const refreshed = page.waitForResponse((response) => response.url().includes('/api/frontend/frontpageprofiles'));
  await page.goto('/');
  const adverts = page.getByRole('region', { name: 'Udvalgte annoncer' });
  await expect(adverts.locator('[data-advert-card]').first()).toBeVisible();
  // The small script asks for the order of this minute and shows it.
  const current = (await (await refreshed).json()) as { minute: number; items: Card[] };
  await expect(adverts.locator('[data-advert-card]')).toHaveCount(current.items.length);
  const first = current.items[0]!;
  await expect(adverts.locator('[data-advert-card]').first()).toHaveAttribute('data-advert-card', String(first.id));
  await expect(adverts.getByRole('link', { name: first.name }).first()).toHaveAttribute('href', first.url);
  // Pictures keep their place: width and height are set; the first row loads at once, the rest lazily.
  const images = adverts.locator('img');
  await expect(images.first()).toHaveAttribute('width', /\d+/);
  await expect(images.first()).toHaveAttribute('height', /\d+/);
  await expect(images.first()).toHaveAttribute('loading', 'eager');
  await expect(images.nth(8)).toHaveAttribute('loading', 'lazy');
  await expect(images.first()).toHaveAttribute('srcset', /\.webp \d+w/);
  // No React on the front page: nothing hydrates.
  await expect(page.locator('astro-island')).toHaveCount(0);
  const structured = await page.locator('script[type="application/ld+json"]').first().textContent();
  expect(JSON.parse(structured ?? '[]')).toEqual(
    expect.arrayContaining([expect.objectContaining({ '@type': 'WebSite' }), expect.objectContaining({ '@type': 'Organization' })]),
  );
  await checkA11y(page);

  // The counts are the build's (other tests change them meanwhile): the card and the phone toolbar of this
  // page say the same number.
  const escorts = page.getByRole('link', { name: /^Escort \d+ escorts$/ });
  const built = Number(/(\d+) escorts/.exec((await escorts.textContent()) ?? '')?.[1]);
  expect(built, 'the demo data has escort adverts').toBeGreaterThan(0);
  await expect(page.locator('[data-front-toolbar] a[href="/escort/"] span').last()).toHaveText(String(built));
  // The landing page shows its own build's total, or this minute's answer when it begins with promoted adverts.
  const landing = expectUnfilteredLanding(page, '/escort/');
  await escorts.click();
  await expect(page).toHaveURL(/\/escort\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Escort i Danmark');
  expect(await landing()).toBeGreaterThan(0);
  await checkA11y(page);
});

test('the English front page links the English twins of the adverts', async ({ page, context, baseURL, checkA11y }) => {
  await passAgeGate(context, baseURL);
  await page.goto('/en/');
  const adverts = page.getByRole('region', { name: 'Featured adverts' });
  await expect(adverts.getByRole('link').first()).toHaveAttribute('href', /^\/en\/annonce\/[a-z0-9-]+-\d+\/$/);
  await checkA11y(page);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the front page toolbar shows the counts and folds away while scrolling down', async ({ page, context, baseURL, checkA11y }) => {
    await passAgeGate(context, baseURL);
    await page.goto('/');
    const toolbar = page.getByRole('navigation', { name: 'Aktive annoncer' });
    await expect(toolbar).toBeVisible();
    expect((await toolbar.boundingBox())?.height).toBe(63);
    await checkA11y(page);
    await page.mouse.wheel(0, 1200);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(63);
    await expect(toolbar).toHaveClass(/front-toolbar-hidden/);
    await page.mouse.wheel(0, -400);
    await expect(toolbar).not.toHaveClass(/front-toolbar-hidden/);
    // Only on the front page.
    await page.goto('/escort/');
    await expect(page.getByRole('navigation', { name: 'Aktive annoncer' })).toHaveCount(0);
  });
});
