/**
 * A new advert from sign-up to the public search (issue 6, browser tests): an advertiser creates the
 * account and advert on /create (the emailed link and the SMS code from the outbox), checks their age with the built-in test
 * age provider from /backend/verification/ (which waits for support: issue 15), support accepts the
 * verification in /support/validation/ and approves the advert in /support/review-adverts/{id}/,
 * and a visitor finds it with the header's free-text search and opens its page. The first approval gives
 * the introductory period (docs/decisions/016): the dashboard's approval notice names its last day.
 */
import { test, expect, passAgeGate, islandsReady, unique, createSupportUser, signInSupport, supportAdminRequest } from './fixtures.ts';
import { CREATE_WORDS, confirmSignUpInBrowser, fillCreateForm, finishSignUpInBrowser, newPhone, outboxInbox } from './advertisers.ts';
import { acceptTestAgeCheck } from './validation-queue.ts';

test('a new advert goes from /create through verification and support approval to the public search', async ({ browser, baseURL, checkA11y }) => {
  test.setTimeout(150_000);
  // The age provider sends the advertiser back to SITE_URL (localhost): the advertiser uses that address.
  const siteURL = baseURL!.replace('127.0.0.1', 'localhost');
  const advertiserContext = await browser.newContext({ baseURL: siteURL, locale: 'da-DK' });
  await passAgeGate(advertiserContext, siteURL);
  const page = await advertiserContext.newPage();
  const name = `Rejse ${unique('').slice(1, 9)}`;
  const phone = newPhone();
  const outbox = await supportAdminRequest(baseURL!);

  // 1. /create: the account and the advert, the emailed link with the password, then the SMS code.
  await page.goto('/create/');
  await islandsReady(page);
  const email = `${unique('rejse')}@example.invalid`;
  await fillCreateForm(page, { email, phone, name });
  await page.getByRole('button', { name: 'Opret konto og annonce' }).click();
  await confirmSignUpInBrowser(page, outboxInbox(outbox), email, CREATE_WORDS.da);
  await finishSignUpInBrowser(page, outboxInbox(outbox), phone, CREATE_WORDS.da);
  await outbox.dispose();
  const { advertId } = (await (await page.request.get('/api/backend/userprofile')).json()) as { advertId: number };

  // Not public yet: new, not verified, not approved.
  const before = await page.request.get('/api/frontend/searchpageprofileswithfreetext', { params: { Text: name } });
  expect(((await before.json()) as { items: { id: number }[] }).items.map((i) => i.id)).not.toContain(advertId);

  // 2. Verification with the test provider.
  await page.goto('/backend/verification/');
  await page.getByRole('button', { name: 'Tjek min alder online' }).click();
  await page.waitForURL(/\/test-age-provider\/[^/]+$/);
  await page.getByRole('button', { name: /^Bestået/ }).click();
  await page.waitForURL((url) => url.pathname === '/backend/dashboard/');
  await expect(page.getByText('Dit alderstjek er bestået. Vores support bekræfter nu din verifikation')).toBeVisible();

  // 3. Support accepts the verification, then approves the new advert.
  await acceptTestAgeCheck(browser, baseURL!, name);
  const user = await createSupportUser(baseURL!, { permissions: ['Support'] });
  const supportContext = await browser.newContext({ baseURL, locale: 'da-DK' });
  expect((await signInSupport(supportContext.request, user)).status()).toBe(200);
  const support = await supportContext.newPage();
  await support.goto(`/support/review-adverts/${advertId}/`);
  await expect(support.getByRole('heading', { level: 1, name: `Gennemgang af ${name}` })).toBeVisible();
  await expect(support.locator('[data-verified]')).toContainText('Ja');
  await support.getByRole('button', { name: 'Godkend annonce' }).click();
  await expect(support.getByText('Annoncen er godkendt.')).toBeVisible();
  await expect(support.locator('[data-advert-status]')).toHaveText('Aktiv');
  await supportContext.close();

  // The advertiser is told, with the last day of the introductory period.
  await page.goto('/backend/dashboard/');
  await expect(page.getByText(/Support har godkendt din annonce\. Den vises på siden til og med \d{2}-\d{2}-\d{4}/)).toBeVisible();

  // 4. A visitor finds it with the header's search and opens it (before its page is built, too).
  const visitorContext = await browser.newContext({ baseURL, locale: 'da-DK' });
  await passAgeGate(visitorContext, baseURL);
  const visitor = await visitorContext.newPage();
  await visitor.goto('/');
  const box = visitor.getByRole('banner').getByRole('searchbox', { name: 'Søg' });
  await box.fill(name);
  await box.press('Enter');
  await expect(visitor).toHaveURL(new RegExp(`/search/${encodeURIComponent(name)}/$`));
  const card = visitor.locator('#main').getByRole('link', { name, exact: true }).first();
  await expect(card).toBeVisible();
  await checkA11y(visitor);
  await card.click();
  await expect(visitor).toHaveURL(new RegExp(`/annonce/[a-z0-9-]+-${advertId}/$`));
  await expect(visitor.getByRole('heading', { level: 1 })).toContainText(name);
  await visitorContext.close();
  await advertiserContext.close();
});
