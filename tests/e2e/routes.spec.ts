import { test, expect, passAgeGate } from './fixtures.ts';

type Region = { slug: string; cities: { slug: string }[] };

test('every public route of the spec resolves in Danish and English', async ({ request }) => {
  const regions = (await (await request.get('/api/frontend/searchpagelocations')).json()) as Region[];
  const region = regions.find((r) => r.cities.length > 0)!;
  const services = (await (await request.get('/api/frontend/landingpagepages?Kind=service&Locale=da')).json()) as { url: string }[];
  const articles = (await (await request.get('/api/frontend/landingpagepages?Kind=artikler&Locale=da')).json()) as { url: string }[];

  const paths = [
    '/',
    '/create/',
    '/advert-blocked/',
    '/terms-condition/',
    '/privacy-policy/',
    '/cookies/',
    '/ranking/',
    '/login/',
    '/login/forgot/',
    '/login/change/',
    '/service/',
    '/artikler/',
    '/search/',
    '/search/massage/',
    '/impersonate/',
    '/escort/',
    '/trans-escort/',
    '/thaimassage/',
    `/escort/${region.slug}/`,
    `/thaimassage/${region.slug}/${region.cities[0]!.slug}/`,
  ];
  for (const path of paths) {
    for (const [prefix, lang] of [['', 'da'], ['/en', 'en']] as const) {
      const response = await request.get(`${prefix}${path}`);
      expect(response.status(), `${prefix}${path}`).toBe(200);
      const html = await response.text();
      expect(html, `${prefix}${path}`).toContain(`<html lang="${lang}"`);
      // Every public page says it is for adults (filters, safe search).
      expect(html, `${prefix}${path}`).toContain('<meta name="rating" content="adult">');
    }
  }
  for (const page of [services[0] && `/service/${services[0].url}/`, articles[0] && `/artikler/${articles[0].url}/`].filter(Boolean) as string[]) {
    const response = await request.get(page);
    expect(response.status(), page).toBe(200);
    expect(await response.text(), page).toContain('<meta name="rating" content="adult">');
  }
  for (const shell of ['/backend/', '/backend/purchase-history/12/', '/support/', '/support/adverts/5/media/']) {
    const response = await request.get(shell);
    expect(response.status(), shell).toBe(200);
    expect(await response.text()).toContain('noindex');
  }
});

test('the change-password page needs token and id', async ({ page, context, baseURL, checkA11y }) => {
  await passAgeGate(context, baseURL);
  await page.goto('/login/change/');
  await expect(page.getByRole('alert')).toContainText('Linket er ugyldigt');
  await checkA11y(page);
  await page.goto('/login/change/?token=abc%20def&id=7');
  await expect(page.locator('[data-change-ready]')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a failed impersonation stays on the page and says so', async ({ page, checkA11y }) => {
  await page.goto('/impersonate/?url=unknown-token');
  await expect(page.getByRole('status')).toHaveText('Det lykkedes ikke at logge ind som annoncøren.');
  await expect(page).toHaveURL(/\/impersonate\/\?url=unknown-token$/);
  await checkA11y(page);
});

test('the front page shows the counts from the API and its build time', async ({ page, context, baseURL, request, checkA11y }) => {
  test.setTimeout(120_000);
  await passAgeGate(context, baseURL);
  const apiCounts = async () => (await (await request.get('/api/frontend/frontpageavailablecounts')).json()) as { e: number; t: number; te: number };
  const links = {
    e: page.getByRole('link', { name: /^Escort \d+ escorts$/ }),
    t: page.getByRole('link', { name: /^Thaimassage \d+ thaimassage$/ }),
    te: page.getByRole('link', { name: /^Trans escort \d+ trans escorts$/ }),
  };
  const shown = async () => {
    const numbers = await Promise.all(Object.values(links).map(async (link) => Number(/\d+/.exec((await link.textContent()) ?? '')?.[0])));
    return { e: numbers[0], t: numbers[1], te: numbers[2] };
  };
  await page.goto('/');
  await expect(page.locator('meta[name="build-time"]')).toHaveAttribute('content', /^\d{4}-\d{2}-\d{2}T/);
  await expect(links.e).toHaveAttribute('href', '/escort/');
  await expect(links.t).toHaveAttribute('href', '/thaimassage/');
  await expect(links.te).toHaveAttribute('href', '/trans-escort/');
  // The page shows the counts its build asked the API for; other tests publish and hide adverts meanwhile
  // (the site is rebuilt 2 s after a change), so the page and the API agree once a build caught up.
  await expect
    .poll(async () => {
      const counts = await apiCounts();
      await page.reload();
      return JSON.stringify(await shown()) === JSON.stringify(counts);
    }, { timeout: 60_000, intervals: [1000, 2000, 5000] })
    .toBe(true);
  await checkA11y(page);
});
