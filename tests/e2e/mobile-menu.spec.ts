import { test, expect, passAgeGate } from './fixtures.ts';

test.use({ viewport: { width: 375, height: 812 } });

test('the mobile menu opens at 375 px and Escape closes it', async ({ page, context, baseURL, checkA11y }) => {
  await passAgeGate(context, baseURL);
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Hovedmenu' })).toBeHidden();
  const opener = page.getByRole('button', { name: 'Åbn menu' });
  await expect(opener).toBeVisible();
  await checkA11y(page);

  await opener.click();
  const menu = page.getByRole('dialog', { name: 'Hovedmenu' });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Escort' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Thaimassage' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Trans' })).toBeVisible();
  await expect(menu.getByRole('searchbox', { name: 'Søg' })).toBeVisible();
  await checkA11y(page);

  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(opener).toBeFocused();

  // The menu's links work.
  await opener.click();
  await menu.getByRole('link', { name: 'Thaimassage' }).click();
  await expect(page).toHaveURL(/\/thaimassage\/$/);
});

test('the search box opens /search/{text}/', async ({ page, context, baseURL, checkA11y }) => {
  await passAgeGate(context, baseURL);
  await page.goto('/');
  await page.getByRole('button', { name: 'Åbn menu' }).click();
  const box = page.getByRole('dialog', { name: 'Hovedmenu' }).getByRole('searchbox', { name: 'Søg' });
  await box.fill('Søde Anna');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\/S%C3%B8de%20Anna\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Søgeresultater for “Søde Anna”');
  await checkA11y(page);
});

test('on a phone the front page, a landing page and /search/ show a search box without opening the menu, in both languages (issue 31, item 2)', async ({ page, context, baseURL, request, checkA11y }) => {
  // Six pages, each checked with axe: room for a busy machine.
  test.setTimeout(150_000);
  await passAgeGate(context, baseURL);
  const answer = await request.get('/api/frontend/searchpageprofiles', { params: { Locale: 'da', PageSize: '1', Url: '/escort/' } });
  const [advert] = ((await answer.json()) as { items: { name: string }[] }).items;
  for (const [path, label] of [
    ['/', 'Søg'],
    ['/escort/', 'Søg'],
    ['/search/', 'Søg'],
    ['/en/', 'Search'],
    ['/en/thaimassage/', 'Search'],
    ['/en/search/', 'Search'],
  ] as const) {
    await page.goto(path);
    const box = page.locator('#main').getByRole('searchbox', { name: label });
    await expect(box, path).toBeVisible();
    await expect(box, path).toBeInViewport();
    await expect(page.getByRole('dialog', { name: /Hovedmenu|Main menu/ })).toBeHidden();
    await checkA11y(page);
  }
  // /search/ says to use the box at the top of the page: it is there, and a search from it keeps its text.
  await page.goto('/search/');
  await expect(page.getByText('Skriv et navn, en by eller et ord i søgefeltet øverst på siden.')).toBeVisible();
  const box = page.locator('#main').getByRole('searchbox', { name: 'Søg' });
  await box.fill(advert!.name);
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/search/${encodeURIComponent(advert!.name)}/$`));
  await expect(page.locator('#main').getByRole('searchbox', { name: 'Søg' })).toHaveValue(advert!.name);
  await expect(page.locator('#main').getByRole('link', { name: advert!.name, exact: true }).first()).toBeVisible();
});

test('from 768 px the header’s search box is the only one in view', async ({ page, context, baseURL }) => {
  await passAgeGate(context, baseURL);
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto('/');
  await expect(page.getByRole('banner').getByRole('searchbox', { name: 'Søg' })).toBeVisible();
  await expect(page.locator('#main').getByRole('searchbox')).toBeHidden();
});
