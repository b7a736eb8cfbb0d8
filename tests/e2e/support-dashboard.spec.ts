/**
 * The support dashboard (issue 6): the pending counts of each queue with the age of the oldest item, the
 * urgent reports flagged, each card linking to its queue.
 */
import { test, expect, signInAsSupportAdmin, siteBuildHeaders, unique } from './fixtures.ts';
import { createAdvertiser } from './advertisers.ts';
import { findInPagedList } from './paged-lists.ts';

type Counts = Record<'newAdverts' | 'verifications' | 'pendingChanges' | 'pendingMedia' | 'pendingReviews', { count: number; oldest: string | null }> & {
  reports: { count: number; oldest: string | null; urgent: number };
};

test('the dashboard counts a new advert and an urgent report, and links to the queues', async ({ page, baseURL, checkA11y }) => {
  await signInAsSupportAdmin(page.context(), baseURL);

  // A new advert (the advertiser's own session, through the API) and a report of a suspected minor.
  await createAdvertiser(page, { name: unique('Oversigt') });
  const { advertId } = (await (await page.request.get('/api/backend/userprofile')).json()) as { advertId: number };
  const { items } = (await (await page.request.get('/api/frontend/fullprofiles', { params: { AfterId: '0', Take: '1', Locale: 'da' }, headers: siteBuildHeaders() })).json()) as {
    items: { id: number; url: string }[];
  };
  const reported = await page.request.post('/api/frontend/reportadvert', {
    data: { AdvertId: items[0]!.id, Reason: 'minor', Details: 'Looks very young (e2e test).', Url: items[0]!.url, GoodFaith: true },
  });
  expect(reported.ok(), await reported.text()).toBe(true);
  const { id: reportId } = (await reported.json()) as { id: number };

  // Both wait in their queues (what the counts count); no other test decides them. Other workers approve
  // adverts and decide reports meanwhile, so the counts are checked against the page's own answer.
  await findInPagedList<{ advertId: number }>(page.request, '/api/support/reviewqueue', (item) => item.advertId === advertId, {
    params: { Kind: 'new' },
    what: `the new advert ${advertId}`,
  });
  const report = await findInPagedList<{ id: number; priority: number }>(page.request, '/api/support/contentreports', (item) => item.id === reportId, {
    params: { Status: 'open' },
    what: `report ${reportId}`,
  });
  expect(report.priority, 'a suspected minor is urgent').toBe(2);

  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/support/pendingcounts' && response.request().method() === 'GET');
  await page.goto('/support/dashboard/');
  const counts = (await (await answered).json()) as Counts;
  // The page's answer counts this test's advert and report.
  expect(counts.newAdverts.count).toBeGreaterThanOrEqual(1);
  expect(counts.reports.urgent).toBeGreaterThanOrEqual(1);
  await expect(page.getByRole('heading', { level: 1, name: 'Oversigt' })).toBeVisible();
  const newAdverts = page.locator('[data-queue="newAdverts"]');
  await expect(newAdverts).toContainText('Nye annoncer');
  await expect(newAdverts.locator('[data-count]')).toHaveText(String(counts.newAdverts.count));
  await expect(newAdverts).toContainText(/Ældste: (lige nu|for \d+ (minut|minutter|time|timer|dag|dage) siden)/);
  await expect(newAdverts).toHaveAttribute('href', '/support/review/');

  const reports = page.locator('[data-queue="reports"]');
  await expect(reports).toHaveAttribute('href', '/support/content-reports/');
  await expect(reports.locator('[data-count]')).toHaveText(String(counts.reports.count));
  await expect(reports.locator('[data-urgent]')).toHaveText(
    `${counts.reports.urgent} haster (${counts.reports.urgent === 1 ? 'mindreårig' : 'mindreårige'} eller menneskehandel)`,
  );
  await expect(page.locator('[data-dashboard-empty]')).toHaveCount(0);
  await checkA11y(page);

  await newAdverts.click();
  await expect(page).toHaveURL(/\/support\/review\/$/);
});
