/**
 * Impersonation (issue 6; spec §2 "/impersonate (query url)"): a Support user opens an advert in the support
 * area, signs in as the advertiser (support's impersonation link, used up by /impersonate/), lands on the
 * backend dashboard under a banner naming both, blocks a number, is refused the advertiser's password change
 * (the form says why), stops, and is back on the advert, whose
 * history shows the start, the change made by that support user as the advertiser, and the stop.
 */
import { test, expect, passAgeGate, createSupportUser, signInSupport, unique } from './fixtures.ts';
import { createAdvertiser } from './advertisers.ts';

test('impersonation start and stop appear in the history, with the change made in between', async ({ browser, baseURL, checkA11y }) => {
  test.setTimeout(120_000);
  // The advertiser: a fresh account and advert (their own browser).
  const advertiserContext = await browser.newContext({ baseURL, locale: 'da-DK' });
  await passAgeGate(advertiserContext, baseURL);
  const advertiserPage = await advertiserContext.newPage();
  const name = unique('Imitation');
  await createAdvertiser(advertiserPage, { name });
  const { advertId } = (await (await advertiserPage.request.get('/api/backend/userprofile')).json()) as { advertId: number };
  await advertiserContext.close();

  // Support, signed in, on the advert's overview.
  const user = await createSupportUser(baseURL!, { permissions: ['Support'] });
  const context = await browser.newContext({ baseURL, locale: 'da-DK' });
  await passAgeGate(context, baseURL);
  expect((await signInSupport(context.request, user)).status()).toBe(200);
  const page = await context.newPage();
  await page.goto(`/support/adverts/${advertId}/`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
  await checkA11y(page);

  // Sign in as the advertiser: the link opens in this tab and lands on the dashboard under the banner.
  await page.getByRole('button', { name: 'Log ind som annoncøren' }).click();
  await expect(page).toHaveURL(/\/backend\/dashboard\/$/);
  const banner = page.getByRole('region', { name: 'Logget ind som annoncøren' });
  await expect(banner).toContainText(`Du er logget ind som ${name} af supportbrugeren ${user.name}.`);
  await checkA11y(page);

  // A small change, with the banner on this screen too.
  await page.goto('/backend/blacklist/');
  await expect(page.getByRole('heading', { level: 1, name: 'Blokerede numre' })).toBeVisible();
  await expect(banner).toBeVisible();
  await page.getByLabel('Telefonnummer').fill('23 45 67 80');
  await page.getByRole('button', { name: 'Bloker nummer' }).click();
  await expect(page.locator('tr[data-blacklist-entry="23456780"]')).toBeVisible();

  // The advertiser's password stays theirs: the form says why it is refused and keeps what was typed.
  await page.goto('/backend/close-advert/');
  await page.getByLabel('Nuværende adgangskode').fill('et gæt fra support');
  await page.getByLabel('Ny adgangskode').fill('En helt ny adgangskode 42');
  await page.getByRole('button', { name: 'Skift adgangskode' }).click();
  await expect(page.getByText('Support kan ikke gøre dette, mens de er logget ind som annoncøren. Kun annoncøren kan.')).toBeVisible();
  await expect(page.getByLabel('Ny adgangskode')).toHaveValue('En helt ny adgangskode 42');

  // Stop: back on the advert in the support area; the advertiser session is gone.
  await banner.getByRole('button', { name: 'Stop' }).click();
  await expect(page).toHaveURL(new RegExp(`/support/adverts/${advertId}/$`));
  expect((await page.request.get('/api/backend/userprofile')).status()).toBe(401);

  // The history: started and stopped by the support user, the change by the support user as the advertiser.
  await page.goto(`/support/adverts/${advertId}/history/`);
  const started = page.locator('tr[data-history="impersonation.started"]');
  const change = page.locator('tr[data-history="blacklist.add"]');
  const stopped = page.locator('tr[data-history="impersonation.stopped"]');
  await expect(started).toHaveCount(1);
  await expect(started).toContainText(`Support: ${user.name}`);
  await expect(change).toContainText(`Supportbruger ${user.name} logget ind som annoncøren`);
  await expect(stopped).toContainText(`Support: ${user.name}`);
  await expect(change).toContainText('Tilføjede et nummer til sortlisten');
  await expect(page.getByRole('columnheader', { name: 'Udført af' })).toBeVisible();
  await checkA11y(page);

  // A link that does not work: the page stays and says so.
  await page.goto('/impersonate/?url=used-or-unknown');
  await expect(page.getByRole('status')).toHaveText('Det lykkedes ikke at logge ind som annoncøren.');
  await expect(page).toHaveURL(/\/impersonate\/\?url=used-or-unknown$/);
  await context.close();
});
