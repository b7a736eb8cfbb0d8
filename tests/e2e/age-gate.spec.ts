import { test, expect, islandsReady } from './fixtures.ts';

test.describe('age gate', () => {
  test('first visit shows the age gate in Danish with the spec text', async ({ page, checkA11y }) => {
    await page.goto('/');
    const gate = page.getByRole('dialog', { name: 'Kun for voksne' });
    await expect(gate).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'da');
    await expect(gate).toContainText('kun for voksne på mindst 18 år');
    await expect(gate).toContainText('nultolerance over for menneskehandel og udnyttelse af mindreårige');
    await expect(gate).toContainText('annoncen lukkes og sagen overdrages til politiet');
    await expect(gate).toContainText('forpligtet til at bruge anmeld-funktionen');
    await expect(gate.getByRole('button', { name: 'Gå ind på siden' })).toBeFocused();
    await expect(gate.getByRole('link', { name: 'Forlad siden' })).toBeVisible();
    // The page stays in the document (crawlable) but cannot be used behind the gate.
    await expect(page.locator('#page')).toHaveJSProperty('inert', true);
    await expect(page.locator('h1')).toHaveCount(1);
    await checkA11y(page);
  });

  test('Enter hides the gate, stores consent for a year, and it stays hidden after reload', async ({ page, context, checkA11y }) => {
    await page.goto('/cookies/');
  await islandsReady(page);
    await page.getByRole('button', { name: 'Gå ind på siden' }).click();
    await expect(page.getByRole('dialog', { name: 'Kun for voksne' })).toHaveCount(0);
    await expect(page.locator('#page')).toHaveJSProperty('inert', false);

    const consent = (await context.cookies()).find((c) => c.name === 'age_consent');
    expect(consent?.value).toBe('1');
    expect(consent?.path).toBe('/');
    expect(consent?.sameSite).toBe('Lax');
    const days = ((consent?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Cookies' })).toBeVisible();
    await expect(page.locator('html')).toHaveClass(/age-ok/);
    await expect(page.locator('[data-age-gate]')).toBeHidden();
    await expect(page.locator('#page')).toHaveJSProperty('inert', false);
    await checkA11y(page);
  });

  test('Leave goes away from the site', async ({ page, checkA11y }) => {
    await page.route('https://www.google.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Away</title><p>away</p>' }),
    );
    await page.goto('/');
    await checkA11y(page);
    await page.getByRole('link', { name: 'Forlad siden' }).click();
    await expect(page).toHaveURL('https://www.google.com/');
    await expect(page.locator('p')).toHaveText('away');
  });

  test('the support and backend areas have no age gate', async ({ page }) => {
    await page.goto('/support/login/');
    await expect(page.getByRole('heading', { name: 'Log ind i kundeservice' })).toBeVisible();
    await expect(page.locator('[data-age-gate]')).toHaveCount(0);
  });
});
