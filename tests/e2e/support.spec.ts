import { test, expect, createSupportUser, nextTotpCode } from './fixtures.ts';

test('support login: field errors in the user language, wrong password, then the admin lands on their first page', async ({ page, baseURL, checkA11y }) => {
  // An admin with all three permissions and two-step sign-in (Administration needs it).
  const admin = await createSupportUser(baseURL!, { permissions: ['Support', 'SEO', 'Administration'], twoFactor: true });
  await page.goto('/support/login/');
  const email = page.getByLabel('E-mail');
  const password = page.getByLabel('Adgangskode');

  await page.getByRole('button', { name: 'Log ind' }).click();
  await expect(page.getByText('Skal udfyldes.').first()).toBeVisible();
  await checkA11y(page);

  await email.fill(admin.email);
  await password.fill('not-the-password');
  await page.getByRole('button', { name: 'Log ind' }).click();
  await expect(page.getByRole('alert')).toHaveText('Forkert e-mail eller adgangskode.');
  await expect(email).toHaveValue(admin.email);

  await password.fill(admin.password);
  await page.getByRole('button', { name: 'Log ind' }).click();
  await page.getByLabel('Kode fra din godkendelsesapp').fill(await nextTotpCode(admin));
  await page.getByRole('button', { name: 'Log ind' }).click();
  // The admin has all three permissions: they land on the first page of their first permission.
  await expect(page).toHaveURL(/\/support\/(dashboard|landing-pages|users)\/$/);
  const profile = (await (await page.request.get('/api/support/supportprofile')).json()) as { permissions: string[] };
  const first = { Support: ['dashboard', 'Oversigt'], SEO: ['landing-pages', 'Landingssider'], Administration: ['users', 'Brugere'] }[
    profile.permissions[0] as 'Support' | 'SEO' | 'Administration'
  ];
  expect(new URL(page.url()).pathname).toBe(`/support/${first[0]}/`);
  await expect(page.getByRole('heading', { level: 1, name: first[1] })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Menu for kundeservice' });
  await expect(nav.getByRole('link', { name: 'Ordrer' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Landingssider' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Brugere' })).toBeVisible();
  await checkA11y(page);

  // The app routes in place: the sidebar opens another screen.
  await nav.getByRole('link', { name: 'Ordrer' }).click();
  await expect(page).toHaveURL(/\/support\/orders\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Ordrer' })).toBeVisible();
});

test('a support user without the page permission goes to the first page of their first permission', async ({ page, baseURL, checkA11y }) => {
  // As the admin, create an SEO-only support user.
  const seo = await createSupportUser(baseURL!, { permissions: ['SEO'], name: 'SEO tester' });

  await page.goto('/support/orders/');
  await expect(page).toHaveURL(/\/support\/login\/\?redirectTo=%2Fsupport%2Forders%2F$/);
  await page.getByLabel('E-mail').fill(seo.email);
  await page.getByLabel('Adgangskode').fill(seo.password);
  await page.getByRole('button', { name: 'Log ind' }).click();
  // orders/ needs the Support permission: the SEO user lands on the first SEO page.
  await expect(page).toHaveURL(/\/support\/landing-pages\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Landingssider' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Menu for kundeservice' });
  await expect(nav.getByRole('link', { name: 'Ordrer' })).toHaveCount(0);
  await checkA11y(page);

  await page.goto('/support/users/');
  await expect(page).toHaveURL(/\/support\/landing-pages\/$/);
  await page.goto('/support/matched-keywords/');
  await expect(page).toHaveURL(/\/support\/matched-keywords\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Matchede søgeord' })).toBeVisible();
});

test('the support app switches language in place', async ({ page, context, checkA11y }) => {
  await page.goto('/support/login/');
  await expect(page.getByRole('heading', { level: 1, name: 'Log ind i kundeservice' })).toBeVisible();
  await page.evaluate(() => {
    (window as unknown as { marker: string }).marker = 'same-document';
  });
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Log in to customer service' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('same-document');
  expect((await context.cookies()).find((c) => c.name === 'locale')?.value).toBe('en');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Required.').first()).toBeVisible();
  await checkA11y(page);
});
