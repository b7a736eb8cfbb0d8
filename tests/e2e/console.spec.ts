/**
 * Consoles stay clean on a healthy site (issue 31, item 10): an advertiser and a support user walk the
 * backend and support (the visitor's public pages: console-public.spec.ts, also through nginx), and the
 * browser reports no console error or warning, no uncaught error and no failed request on any of them.
 * What they caught: the Permissions-Policy feature `bluetooth` that Chromium does not know (a warning on
 * every page), and the 401 of the profile call on every anonymous visit to /login/ and /support/login/.
 */
import { test, expect, passAgeGate, signInAsSupportAdmin } from './fixtures.ts';
import { createAdvertiser } from './advertisers.ts';
import { walk, watch } from './console-watch.ts';

test('an advertiser’s console stays clean on the backend screens', async ({ page, context, baseURL }) => {
  test.setTimeout(150_000);
  await passAgeGate(context, baseURL);
  await createAdvertiser(page);
  const seen = watch(page);
  await walk(page, [
    '/backend/dashboard/',
    '/backend/basic/',
    '/backend/personal/',
    '/backend/pictures/',
    '/backend/videos/',
    '/backend/price-list/',
    '/backend/schedule/',
    '/backend/reviews/',
    '/backend/verification/',
    '/backend/close-advert/',
    '/backend/advert-package/',
    '/backend/buy-advert-package/',
    '/backend/front-page-promotion/',
    '/backend/search-promotion/',
    '/backend/purchase-history/',
    '/backend/blacklist/',
  ]);
  expect(seen).toEqual([]);
});

test('support’s console stays clean: the login screen signed out, then the screens of Administration', async ({ page, context, baseURL }) => {
  test.setTimeout(150_000);
  const seen = watch(page);
  await walk(page, ['/support/login/', '/support/login/forgot/']);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await signInAsSupportAdmin(context, baseURL);
  await walk(page, [
    '/support/dashboard/',
    '/support/review/',
    '/support/validation/',
    '/support/adverts/',
    '/support/review-adverts/',
    '/support/pending-reviews/',
    '/support/content-reports/',
    '/support/appeals/',
    '/support/orders/',
    '/support/statistics/',
    '/support/products/',
    '/support/users/',
    '/support/landing-pages/',
    '/support/news/',
    '/support/places/',
    '/support/risk-words/',
    '/support/migrate-adverts/',
    '/support/two-factor/',
  ]);
  expect(seen).toEqual([]);
});
