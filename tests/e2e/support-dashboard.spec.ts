/**
 * The support dashboard (issue 6): the pending counts of each queue with the age of the oldest item, the
 * urgent reports flagged, each card linking to its queue.
 */
import { test, expect, signInAsSupportAdmin, siteBuildHeaders } from './fixtures.ts';
import { createAdvertiser } from './advertisers.ts';

type Counts = Record<'newAdverts' | 'verifications' | 'pendingChanges' | 'pendingMedia' | 'pendingReviews', { count: number; oldest: string | null }> & {
  reports: { count: number; oldest: string | null; urgent: number };
};

test('the dashboard counts a new advert and an urgent report, and links to the queues', async ({ page, baseURL, checkA11y }) => {
  await signInAsSupportAdmin(page.context(), baseURL);
  const before = (await (await page.request.get('/api/support/pendingcounts')).json()) as Counts;

  // A new advert (the advertiser's own session, through the API) and a report of a suspected minor.
  await createAdvertiser(page);
  const { items } = (await (await page.request.get('/api/frontend/fullprofiles', { params: { AfterId: '0', Take: '1', Locale: 'da' }, headers: siteBuildHeaders() })).json()) as {
    items: { id: number; url: string }[];
  };
  const reported = await page.request.post('/api/frontend/reportadvert', {
    data: { AdvertId: items[0]!.id, Reason: 'minor', Details: 'Looks very young (e2e test).', Url: items[0]!.url, GoodFaith: true },
  });
  expect(reported.ok(), await reported.text()).toBe(true);

  await page.goto('/support/dashboard/');
  await expect(page.getByRole('heading', { level: 1, name: 'Oversigt' })).toBeVisible();
  const newAdverts = page.locator('[data-queue="newAdverts"]');
  await expect(newAdverts).toContainText('Nye annoncer');
  await expect(newAdverts.locator('[data-count]')).toHaveText(/^\d+$/);
  expect(Number(await newAdverts.locator('[data-count]').textContent())).toBeGreaterThan(before.newAdverts.count);
  await expect(newAdverts).toContainText(/Ældste: (lige nu|for \d+ (minut|minutter|time|timer|dag|dage) siden)/);
  await expect(newAdverts).toHaveAttribute('href', '/support/review/');

  const reports = page.locator('[data-queue="reports"]');
  await expect(reports).toHaveAttribute('href', '/support/content-reports/');
  await expect(reports.locator('[data-urgent]')).toHaveText(/^\d+ haster \(mindreårige? eller menneskehandel\)$/);
  expect(Number(/\d+/.exec((await reports.locator('[data-urgent]').textContent()) ?? '')?.[0])).toBeGreaterThan(before.reports.urgent);
  await expect(page.locator('[data-dashboard-empty]')).toHaveCount(0);
  await checkA11y(page);

  await newAdverts.click();
  await expect(page).toHaveURL(/\/support\/review\/$/);
});
