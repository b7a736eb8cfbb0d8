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
