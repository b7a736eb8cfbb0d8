/**
 * Support's advert pages (issue 6 "Moderation" and "Audit log"): support searches an advert by the
 * advertiser's email (the search stays in the address), opens it, locks it under a rule with a reason
 * (asked first; the public profile then answers as blocked, and the advertiser sees the decision on the
 * dashboard), sees the lock in the history, sends a message that the advertiser sees on the dashboard, and
 * unlocks it again (the advertiser is told). Uses demo advert 45 (reserved for this file; another public demo advert if 45 is not).
 */
import type { APIRequestContext } from '@playwright/test';
import { test, expect, passAgeGate, createSupportUser, signInSupport } from './fixtures.ts';

const CANDIDATES = [45, 44, 43, 42, 41];

async function publicDemoAdvert(request: APIRequestContext): Promise<{ n: number; name: string }> {
  for (const n of CANDIDATES) {
    const response = await request.get('/api/frontend/fullprofile', { params: { Id: String(n), Locale: 'da' } });
    if (response.ok()) return { n, name: ((await response.json()) as { name: string }).name };
  }
  throw new Error('No public demo advert among the candidates');
}

test('support finds an advert by email, locks it with a reason, sees it in the history and messages the advertiser', async ({ page, browser, baseURL, checkA11y }) => {
  test.setTimeout(180_000);
  const advert = await publicDemoAdvert(page.request);
  const email = `demo-${advert.n}@example.invalid`;
  const user = await createSupportUser(baseURL!, { permissions: ['Support'], name: `Annoncestøtte ${Date.now().toString(36)}` });
  const context = page.context();
  await passAgeGate(context, baseURL);
  expect((await signInSupport(context.request, user)).status()).toBe(200);

  // adverts/: search by email; the search is in the address and survives a reload.
  await page.goto('/support/adverts/');
  await expect(page.getByRole('heading', { level: 1, name: 'Annoncer' })).toBeVisible();
  await page.getByLabel('Annoncenummer').fill('abc');
  await page.getByRole('button', { name: 'Søg', exact: true }).click();
  await expect(page.getByLabel('Annoncenummer')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Annoncenummer').fill('');
  await page.getByLabel('E-mail').fill(email.toUpperCase());
  await page.getByRole('button', { name: 'Søg', exact: true }).click();
  await expect(page).toHaveURL(/\/support\/adverts\/\?email=DEMO-/);
  const row = page.locator(`tr[data-advert="${advert.n}"]`);
  await expect(row).toContainText(email);
  await expect(row).toContainText('Aktiv');
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.getByText('Viser 1–1 af 1')).toBeVisible();
  await page.reload();
  await expect(row).toContainText(advert.name);
  await expect(page.getByLabel('E-mail')).toHaveValue(email.toUpperCase());
  await checkA11y(page);

  // adverts/{id}/: the overview, with the sections as tabs.
  const tabs = page.getByRole('navigation', { name: 'Annoncens dele' });
  await row.getByRole('link', { name: advert.name }).click();
  await expect(page).toHaveURL(new RegExp(`/support/adverts/${advert.n}/$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(advert.name);
  await expect(page.getByText(email, { exact: false }).first()).toBeVisible();
  await checkA11y(page);

  // Locking without a rule or a reason names both; then with them, after a question.
  await page.getByLabel('Ny status').selectOption({ label: 'Låst' });
  await page.getByRole('button', { name: 'Skift status' }).click();
  await expect(page.getByText('Nogle obligatoriske felter mangler.')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Regel i vilkårene' })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('textbox', { name: 'Begrundelse' })).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('combobox', { name: 'Regel i vilkårene' }).selectOption({ label: 'Ægte identitet og egne billeder' });
  const reason = `Billederne viser ikke annoncøren selv (e2e ${Date.now().toString(36)}).`;
  await page.getByRole('textbox', { name: 'Begrundelse' }).fill(reason);
  await page.getByRole('button', { name: 'Skift status' }).click();
  const confirm = page.getByRole('dialog', { name: 'Lås annoncen?' });
  await expect(confirm).toBeVisible();
  await checkA11y(page);
  await confirm.getByRole('button', { name: 'Lås annoncen' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Status er nu: Låst.' })).toBeVisible();
  const lock = page.locator('[data-lock="locked"]');
  await expect(lock).toContainText(reason);
  await expect(lock).toContainText('Ægte identitet og egne billeder');
  await expect(lock).toContainText(user.name);
  await expect(lock).toContainText(/\d{2}-\d{2}-\d{4} \d{2}:\d{2}/);
  await checkA11y(page);

  // The public profile answers as blocked.
  expect((await page.request.get('/api/frontend/fullprofile', { params: { Id: String(advert.n), Locale: 'da' } })).status()).toBe(410);

  // The advertiser sees the decision on the dashboard.
  const advertiser = await browser.newContext({ baseURL, locale: 'da-DK' });
  const signedIn = await advertiser.request.post('/api/frontend/login', { data: { email, password: 'demo-password' } });
  expect(signedIn.ok(), await signedIn.text()).toBe(true);
  const b = await advertiser.newPage();
  await b.goto('/backend/dashboard/');
  const decision = b.getByRole('region', { name: 'Afgørelser om din annonce' }).getByRole('article', { name: 'Annoncen blev låst' }).first();
  await expect(decision).toContainText(reason);

  // History: the lock, by this support user, with the reason.
  await tabs.getByRole('link', { name: 'Historik' }).click();
  await expect(tabs.getByRole('link', { name: 'Historik' })).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveURL(new RegExp(`/support/adverts/${advert.n}/history/$`));
  const lockEntry = page.locator('tr[data-history="advert.lock"]').first();
  await expect(lockEntry).toContainText(`Support: ${user.name}`);
  await expect(lockEntry).toContainText('Låste annoncen');
  await expect(lockEntry).toContainText(reason);
  await expect(page.locator('tr[data-history="statement.issue"]').first()).toBeVisible();
  await checkA11y(page);

  // Messages: an empty message names its fields; a message reaches the advertiser's dashboard.
  await tabs.getByRole('link', { name: 'Beskeder' }).click();
  await page.getByRole('button', { name: 'Send besked' }).click();
  await expect(page.getByRole('textbox', { name: 'Titel', exact: true })).toHaveAttribute('aria-invalid', 'true');
  const title = `Nye billeder ønskes ${Date.now().toString(36)}`;
  await page.getByRole('textbox', { name: 'Titel', exact: true }).fill(title);
  await page.getByRole('textbox', { name: 'Besked', exact: true }).fill('Send gerne nye billeder, der viser dig selv.');
  await page.getByRole('button', { name: 'Send besked' }).click();
  await expect(page.getByText('Beskeden er sendt.')).toBeVisible();
  await expect(page.locator('[data-message]').first()).toContainText(title);
  await checkA11y(page);

  await b.reload();
  const messages = b.getByRole('region').filter({ has: b.getByRole('heading', { level: 2, name: /^Beskeder/ }) });
  const message = messages.getByRole('listitem').filter({ has: b.getByRole('heading', { level: 3, name: new RegExp(title) }) });
  await expect(message).toContainText('Send gerne nye billeder, der viser dig selv.');
  await expect(message).toHaveAttribute('data-read', 'false');
  await checkA11y(b);

  // Unlock again with a reason (the demo advert is public again).
  await tabs.getByRole('link', { name: 'Oversigt' }).click();
  await page.getByLabel('Ny status').selectOption({ label: 'Aktiv' });
  await page.getByRole('textbox', { name: 'Begrundelse' }).fill('Annoncøren har sendt egne billeder.');
  await page.getByRole('button', { name: 'Skift status' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Status er nu: Aktiv.' })).toBeVisible();
  expect((await page.request.get('/api/frontend/fullprofile', { params: { Id: String(advert.n), Locale: 'da' } })).status()).toBe(200);
  // The advertiser is told on the dashboard that the advert is shown again.
  await b.reload();
  const unlocked = messages.getByRole('listitem').filter({ has: b.getByRole('heading', { level: 3, name: 'Din annonce er låst op' }) }).first();
  await expect(unlocked).toContainText('Den vises på siden igen.');

  await advertiser.close();
});
