/**
 * Visitors' reviews (issue 6): a review goes from the profile through the queue to the profile. A visitor
 * writes a review on the advert page (name, rating, text, phone confirmed by the SMS code, read from the
 * outbox as support reads it); it waits for approval; a support user approves it in pending-reviews/{id}/;
 * after the rebuild of the advert's page the review shows on the profile. Uses demo advert 50 (reserved
 * for this file; another public demo advert from the list if 50 is not public).
 */
import type { APIRequestContext } from '@playwright/test';
import { test, expect, passAgeGate, createSupportUser, signInSupport, supportAdminRequest } from './fixtures.ts';
import { newPhone } from './advertisers.ts';

const CANDIDATES = [50, 49, 48, 47, 46];

/** The first candidate demo advert that is public now: its id, public address and name. */
async function publicDemoAdvert(request: APIRequestContext): Promise<{ n: number; url: string; name: string }> {
  for (const n of CANDIDATES) {
    const response = await request.get('/api/frontend/fullprofile', { params: { Id: String(n), Locale: 'da' } });
    if (response.ok()) {
      const profile = (await response.json()) as { url: string; name: string };
      return { n, url: profile.url, name: profile.name };
    }
  }
  throw new Error('No public demo advert among the candidates');
}

type OutboxItem = { channel: string; body: string };

/** The 6-digit code of the newest SMS to a Danish number, from the outbox (GET /api/support/outbox). */
async function smsCode(support: APIRequestContext, phone: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const answer = await support.get('/api/support/outbox', { params: { To: `+45${phone}`, Take: 5 } });
      expect(answer.status()).toBe(200);
      const { items } = (await answer.json()) as { items: OutboxItem[] };
      code = /\b(\d{6})\b/.exec(items.find((item) => item.channel === 'sms')?.body ?? '')?.[1];
      return code !== undefined;
    })
    .toBe(true);
  return code!;
}

test('a review goes from the profile through the queue to the profile', async ({ page, browser, context, baseURL, checkA11y }) => {
  test.setTimeout(240_000);
  const advert = await publicDemoAdvert(page.request);
  const approver = await createSupportUser(baseURL!, { permissions: ['Support'], name: `Godkender ${Date.now().toString(36)}` });
  const phone = newPhone();
  const author = `Besøgende ${Math.random().toString(36).slice(2, 7)}`;
  const text = `Venlig modtagelse og god tid, præcis som aftalt (e2e ${Date.now().toString(36)}).`;

  // The visitor opens the form from the advert page.
  await passAgeGate(context, baseURL);
  // The form's code (and React) is loaded only when the visitor asks for it.
  const formChunks: string[] = [];
  page.on('request', (request) => {
    if (/\/review-dialog\.[^/]*\.js$/.test(request.url())) formChunks.push(request.url());
  });
  await page.goto(advert.url);
  await page.waitForLoadState('networkidle');
  expect(formChunks).toEqual([]);
  const reviews = page.getByRole('region', { name: 'Anmeldelser' });
  await reviews.getByRole('button', { name: 'Skriv en anmeldelse' }).click();
  const dialog = page.getByRole('dialog', { name: `Skriv en anmeldelse af ${advert.name}` });
  await expect(dialog).toBeVisible();
  expect(formChunks).toHaveLength(1);

  // Sent empty: every missing field is named.
  await dialog.getByRole('button', { name: 'Send anmeldelse' }).click();
  await expect(dialog.getByText('Nogle obligatoriske felter mangler.')).toBeVisible();
  await expect(dialog.getByLabel('Dit navn (vises med anmeldelsen)')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText('Vælg 1 til 5 stjerner.')).toBeVisible();

  await dialog.getByLabel('Dit navn (vises med anmeldelsen)').fill(author);
  await dialog.getByLabel('4 stjerner').check();
  await dialog.getByRole('textbox', { name: 'Din anmeldelse', exact: true }).fill(text);
  await dialog.getByLabel('Dit mobilnummer').fill(phone);
  await dialog.getByRole('button', { name: 'Send kode' }).click();
  await expect(dialog.getByText(`Vi har sendt en kode til ${phone.slice(0, 4)}xxxx.`, { exact: false })).toBeVisible();
  await checkA11y(page);

  const support = await supportAdminRequest(baseURL!);
  const code = await smsCode(support, phone);
  await support.dispose();

  // A wrong code is refused at the code field; everything typed stays.
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  await dialog.getByLabel('Koden fra sms’en').fill(wrong);
  await dialog.getByRole('button', { name: 'Send anmeldelse' }).click();
  await expect(dialog.getByText('Koden er forkert.')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Din anmeldelse', exact: true })).toHaveValue(text);
  await expect(dialog.getByLabel('4 stjerner')).toBeChecked();

  await dialog.getByLabel('Koden fra sms’en').fill(code);
  const sent = page.waitForResponse((response) => response.url().endsWith('/api/frontend/addprofilereview'));
  await dialog.getByRole('button', { name: 'Send anmeldelse' }).click();
  const reviewId = ((await (await sent).json()) as { id: number }).id;
  await expect(dialog.getByRole('status').filter({ hasText: 'Tak for din anmeldelse' })).toContainText('Den venter på godkendelse fra support.');
  await checkA11y(page);
  // Not on the profile before approval.
  await expect(reviews).not.toContainText(text);

  // Support finds it in pending-reviews/ and approves it in pending-reviews/{id}/.
  const supportContext = await browser.newContext({ baseURL, locale: 'da-DK' });
  const signedIn = await signInSupport(supportContext.request, approver);
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  const s = await supportContext.newPage();
  await s.goto('/support/pending-reviews/');
  await expect(s.getByRole('heading', { level: 1, name: 'Ventende anmeldelser' })).toBeVisible();
  const row = s.locator(`tr[data-review="${reviewId}"]`);
  await expect(row).toContainText(advert.name);
  await expect(row).toContainText('Ny anmeldelse');
  await expect(row.getByRole('cell').last()).toHaveText(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}$/);
  await checkA11y(s);

  await row.getByRole('link', { name: author }).click();
  await expect(s).toHaveURL(new RegExp(`/support/pending-reviews/${reviewId}/$`));
  await expect(s.getByRole('heading', { level: 1, name: `Anmeldelse nr. ${reviewId}` })).toBeVisible();
  await expect(s.locator('[data-review-text]')).toHaveText(text);
  await expect(s.getByText('4 af 5 stjerner')).toBeVisible();
  await expect(s.getByText(`${phone.slice(0, 4)}xxxx`)).toBeVisible();
  await checkA11y(s);

  // Rejecting needs a reason; then support approves instead.
  await s.getByLabel(/^Afvis/).check();
  await s.getByRole('button', { name: 'Gem afgørelsen' }).click();
  await expect(s.getByRole('textbox', { name: 'Begrundelse' })).toHaveAttribute('aria-invalid', 'true');
  await s.getByLabel(/^Godkend/).check();
  await s.getByRole('button', { name: 'Gem afgørelsen' }).click();
  const decision = s.locator('[data-decision]');
  await expect(decision).toContainText('Godkend');
  await expect(decision).toContainText(approver.name);
  await expect(s.locator('[data-review-status]')).toHaveText('Godkendt');
  await expect(s.getByText('Afgørelsen er gemt.')).toBeVisible();
  await checkA11y(s);
  await supportContext.close();

  // The approval rebuilds the advert's page; then the review shows on the profile with its date.
  await expect
    .poll(async () => (await (await page.request.get(advert.url)).text()).includes(text), { timeout: 180_000, intervals: [1000, 2000, 5000] })
    .toBe(true);
  await page.goto(advert.url);
  const shown = reviews.getByRole('listitem').filter({ hasText: text });
  await expect(shown).toContainText(author);
  await expect(shown.getByRole('img', { name: '4 af 5 stjerner' })).toBeVisible();
  await expect(shown).toContainText(/\d{2}-\d{2}-\d{4}/);
  await checkA11y(page);
});

test('the review form in English refuses a second review from the same number', async ({ page, context, baseURL }) => {
  const advert = await publicDemoAdvert(page.request);
  const phone = newPhone();
  // A first review from this number through the API (the code from the outbox).
  const asked = await page.request.post('/api/frontend/reviewcode', { data: { ProfileId: advert.n, Phone: phone } });
  expect(asked.status(), await asked.text()).toBe(200);
  const support = await supportAdminRequest(baseURL!);
  const code = await smsCode(support, phone);
  await support.dispose();
  const written = await page.request.post('/api/frontend/addprofilereview', {
    data: { ProfileId: advert.n, Name: 'Jo', Rating: 5, Text: 'Very kind and on time.', Phone: phone, Code: code },
  });
  expect(written.status(), await written.text()).toBe(201);

  await passAgeGate(context, baseURL);
  await page.goto(`/en${advert.url}`);
  await page.getByRole('button', { name: 'Write a review' }).click();
  const dialog = page.getByRole('dialog', { name: `Write a review of ${advert.name}` });
  await dialog.getByLabel('Your mobile number').fill(phone);
  await dialog.getByRole('button', { name: 'Send code' }).click();
  await expect(dialog.getByText('You have already reviewed this advert from this phone number.')).toBeVisible();
  await expect(dialog.getByLabel('Your mobile number')).toHaveValue(phone);
});
