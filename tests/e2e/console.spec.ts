/**
 * Consoles stay clean and axe finds nothing serious on a healthy site (issue 31, items 10 and the tests'
 * axe): an advertiser and a support user walk every screen of the backend and of support (screens.ts; the
 * visitor's public pages: console-public.spec.ts, also through nginx), and the browser reports no console
 * error or warning, no uncaught error and no failed request on any of them; axe runs on each at 1366 and
 * at 390 px. What the console caught: the Permissions-Policy feature `bluetooth` that Chromium does not know
 * (a warning on every page), and the 401 of the profile call on every anonymous visit to /login/ and
 * /support/login/.
 */
import { test, expect, passAgeGate, signInAsSupportAdmin } from './fixtures.ts';
import { createAdvertiser } from './advertisers.ts';
import { buyPackageByApi, passAgeCheck } from './commerce.ts';
import { walk, watch } from './console-watch.ts';
import { BACKEND_SCREENS, SUPPORT_SCREENS, stepsOf, unwalkedRoutes } from './screens.ts';

test('every route of the backend and of support is walked below, or says why not', () => {
  expect(unwalkedRoutes()).toEqual({ backend: [], support: [] });
});

test('an advertiser’s console stays clean and axe finds nothing serious on every backend screen, at both sizes', async ({ page, context, baseURL, checkA11y }) => {
  test.setTimeout(420_000);
  await passAgeGate(context, baseURL);
  await createAdvertiser(page);
  const order = await buyPackageByApi(page);
  const seen = watch(page);
  await walk(page, stepsOf(BACKEND_SCREENS, { order }), { axe: checkA11y });
  expect(seen).toEqual([]);
});

test('support’s console stays clean and axe finds nothing serious: the login screens signed out, then every screen of Administration, at both sizes', async ({
  page,
  context,
  browser,
  baseURL,
  request,
  checkA11y,
}) => {
  test.setTimeout(600_000);
  // What the demo has none of: a verification waiting (an advertiser passes the age check) and a report.
  const advertiser = await browser.newContext({ baseURL: baseURL! });
  await passAgeGate(advertiser, baseURL);
  const advertiserPage = await advertiser.newPage();
  await createAdvertiser(advertiserPage);
  await passAgeCheck(advertiserPage);
  await advertiser.close();
  const [advert] = ((await (await request.get('/api/frontend/frontpageprofiles')).json()) as { items: { id: number }[] }).items;
  const reported = await request.post('/api/frontend/reportadvert', {
    data: { AdvertId: advert!.id, Reason: 'spam', Details: 'Samme tekst som på mange andre annoncer.', Name: 'Test Anmelder', Email: 'anmelder@example.test', GoodFaith: true },
  });
  expect(reported.status(), await reported.text()).toBe(201);

  const seen = watch(page);
  await walk(page, ['/support/login/', '/support/login/forgot/'], { axe: checkA11y });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await signInAsSupportAdmin(context, baseURL);
  await walk(page, stepsOf(SUPPORT_SCREENS), { axe: checkA11y });
  expect(seen).toEqual([]);
});
