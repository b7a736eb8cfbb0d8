/**
 * Administration's statistics (issue 18; spec §2 support route statistics/): a visitor reports a public demo
 * advert ("other", a reason no other browser test gives); an Administration user (two-step sign-in on)
 * opens Statistik from the menu in Danish, sees the charts, the 7-day rule and the report counted today
 * among the reports by reason, downloads the per-day CSV (its header and today's row), switches to months
 * and downloads that CSV; reads the transparency report (a range ending before it starts is refused at its
 * field, before the call and by the call), for today with the report among the notices, and its CSV. Then
 * the same screen in English. A Support-only user is sent away from the screen.
 */
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Download } from '@playwright/test';
import type { StatisticsAnswer } from '#lib/schemas/statistics.ts';
import { test, expect, createSupportUser, signInSupport } from './fixtures.ts';
import { oneCopenhagenDay } from '#tests/support/days.ts';

const ddMMyyyy = (day: string) => day.split('-').reverse().join('-');

const CANDIDATES = [58, 57, 56, 55, 50];

async function publicDemoAdvert(request: APIRequestContext): Promise<number> {
  for (const n of CANDIDATES) {
    if ((await request.get('/api/frontend/fullprofile', { params: { Id: String(n), Locale: 'da' } })).ok()) return n;
  }
  throw new Error('No public demo advert among the candidates');
}

/** A downloaded CSV file's lines, each split at its commas (the statistics files hold no quoted fields). */
async function csvLines(download: Download): Promise<string[][]> {
  const text = readFileSync(await download.path(), 'utf8');
  return text
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

const number = (text: string | null) => Number((text ?? '').replace(/\./g, ''));

test('Administration reads the statistics in both languages and downloads the CSV', async ({ page, baseURL, request, checkA11y }) => {
  // The server, the screen and this test each say which day is "today" (and which month is "this month"):
  // the test runs within one Copenhagen day (near midnight it starts once the next day has begun).
  test.setTimeout(360_000);
  const day = await oneCopenhagenDay(180_000);
  const admin = await createSupportUser(baseURL!, { permissions: ['Administration'], twoFactor: true });
  expect((await signInSupport(page.context().request, admin)).status()).toBe(200);

  // Something this test causes today: a visitor's report of a public advert, for "other".
  const perDay = async () => (await (await page.request.get('/api/support/statisticsperday')).json()) as StatisticsAnswer;
  const before = (await perDay()).rows.find((row) => row.period === day)?.['reports.other'] ?? 0;
  const reported = await request.post('/api/frontend/reportadvert', {
    data: { AdvertId: await publicDemoAdvert(request), Reason: 'other', Details: 'Statistik-test (e2e).', Name: 'Test Anmelder', Email: 'anmelder@example.test', GoodFaith: true },
  });
  expect(reported.status(), await reported.text()).toBe(201);
  const expected = before + 1;

  // In Danish, from the menu: the charts, the 7-day rule, and today's report among the reports by reason.
  await page.goto('/support/users/');
  await page.getByRole('navigation', { name: 'Menu for kundeservice' }).getByRole('link', { name: 'Statistik' }).click();
  await expect(page).toHaveURL(/\/support\/statistics\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Statistik' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Pr. dag (de sidste 90 dage)' })).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('[data-statistics-group="adverts"] [data-statistics-chart] canvas')).toBeVisible();
  await expect(page.locator('[data-statistics-group="reportTimes"] [data-statistics-chart="hours"]')).toHaveAttribute('aria-label', /Tid fra anmeldelse til afgørelse/);
  await expect(page.locator('[data-seven-day-rule]')).toContainText('Anmeldelser afgjort inden for 7 dage');
  // Green only when something was decided (issue 31, item 8): with nothing to measure it says so, neutrally.
  const rule = page.locator('[data-seven-day-rule]');
  if ((await rule.getAttribute('data-seven-day-rule')) === 'nothing') await expect(rule).toContainText('Intet at måle');
  else await expect(rule).not.toContainText('Intet at måle');
  // The demo's approved adverts went live in the last 90 days: the figure agrees with the public site.
  const adverts = page.getByRole('table', { name: 'Annoncer: nu, før og i alt' });
  expect(number(await adverts.locator('tr[data-column="advertsLive"] [data-total]').textContent())).toBeGreaterThan(0);
  // At 1366 px the summary table has room: no column squeezed below its numbers.
  await page.setViewportSize({ width: 1366, height: 900 });
  expect(await adverts.evaluate((table) => table.getBoundingClientRect().width)).toBeGreaterThan(560);
  expect(await adverts.evaluate((table) => table.parentElement!.scrollWidth <= table.parentElement!.clientWidth)).toBe(true);
  await expect(page.locator('[data-generated-at]')).toContainText(`${ddMMyyyy(day)} er stadig i gang.`);
  const reasons = page.getByRole('table', { name: 'Modtagne anmeldelser efter grund: nu, før og i alt' });
  await expect(reasons.getByRole('columnheader', { name: 'I dag (i gang)' })).toBeVisible();
  const other = reasons.locator('tr[data-column="reports.other"]');
  await expect(other.getByRole('rowheader')).toHaveText('Andet');
  await expect(other.locator('[data-current]')).toHaveText(String(expected));
  // Every day's numbers, newest first, today marked as still going on.
  const group = page.locator('[data-statistics-group="reportReasons"]');
  await group.getByText('Tallene pr. dag').click();
  const days = group.getByRole('table', { name: 'Modtagne anmeldelser efter grund pr. dag' });
  await expect(days.locator('tbody tr')).toHaveCount(90);
  await expect(days.locator('tbody tr').first()).toContainText(`${ddMMyyyy(day)} (i dag, i gang)`);
  await checkA11y(page);

  // The per-day CSV: the header and today's row with the report.
  const [dayCsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Hent CSV (pr. dag)' }).click()]);
  expect(dayCsv.suggestedFilename()).toMatch(/^statistics-per-day-.*\.csv$/);
  const dayLines = await csvLines(dayCsv);
  expect(dayLines[0]!.slice(0, 3)).toEqual(['period', 'advertsCreated', 'advertsLive']);
  expect(dayLines).toHaveLength(91);
  const todayRow = dayLines.at(-1)!;
  expect(todayRow[0]).toBe(day);
  expect(Number(todayRow[dayLines[0]!.indexOf('reports.other')])).toBe(expected);

  // Per month: this month holds today's report; its CSV ends with this month.
  await page.getByRole('link', { name: 'Pr. måned (de sidste 24 måneder)' }).click();
  await expect(page).toHaveURL(/\/support\/statistics\/\?unit=month$/);
  const monthReasons = page.getByRole('table', { name: 'Modtagne anmeldelser efter grund: nu, før og i alt' });
  await expect(monthReasons.getByRole('columnheader', { name: 'Denne måned (i gang)' })).toBeVisible();
  expect(number(await monthReasons.locator('tr[data-column="reports.other"] [data-current]').textContent())).toBeGreaterThanOrEqual(expected);
  await expect(page.locator('[data-statistics-group="revenue"] [data-statistics-chart="ore"] canvas')).toBeVisible();
  const [monthCsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Hent CSV (pr. måned)' }).click()]);
  const monthLines = await csvLines(monthCsv);
  expect(monthLines[0]![0]).toBe('period');
  expect(monthLines).toHaveLength(25);
  expect(monthLines.at(-1)![0]).toBe(day.slice(0, 7));
  await checkA11y(page);

  // The transparency report: an end before the start is refused at its field; then today, with the report.
  const from = page.getByLabel('Fra og med');
  const to = page.getByLabel('Til og med');
  // Days are typed in Danish order and carried as yyyy-MM-dd in the address (issue 31, item 9).
  await expect(from).toHaveAttribute('placeholder', 'dd-mm-åååå');
  await from.fill(ddMMyyyy(day));
  await to.fill('01-01-2020');
  await page.getByRole('button', { name: 'Vis rapporten' }).click();
  await expect(page.locator('#transparency-to-error')).toHaveText('Slutdatoen skal ligge på eller efter startdatoen.');
  await expect(to).toHaveAttribute('aria-invalid', 'true');
  await expect(from).toHaveValue(ddMMyyyy(day));
  await to.fill('2020-13-01');
  await page.getByRole('button', { name: 'Vis rapporten' }).click();
  await expect(page.locator('#transparency-to-error')).toHaveText('Skriv datoen som dd-mm-åååå.');
  await to.fill(ddMMyyyy(day));
  await page.getByRole('button', { name: 'Vis rapporten' }).click();
  await expect(page).toHaveURL(new RegExp(`\\?unit=month&from=${day}&to=${day}$`));
  await expect(page.getByRole('heading', { name: `Rapport for ${ddMMyyyy(day)} – ${ddMMyyyy(day)}` })).toBeVisible();
  const notices = page.getByRole('table', { name: `Anmeldelser efter type og udfald, ${ddMMyyyy(day)} – ${ddMMyyyy(day)}` });
  await expect(notices.locator('tr[data-notice="other"] th')).toHaveText('Andet');
  await expect(notices.locator('tr[data-notice="other"] [data-received]')).toHaveText(String(expected));
  await expect(page.getByRole('heading', { name: 'Klager i det interne klagesystem (artikel 20)' })).toBeVisible();
  await checkA11y(page);
  const [reportCsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Hent rapporten som CSV' }).click()]);
  expect(reportCsv.suggestedFilename()).toBe(`transparency-report-${day}-${day}.csv`);
  const reportLines = await csvLines(reportCsv);
  expect(reportLines[0]).toEqual(['section', 'item', 'value']);
  expect(reportLines).toContainEqual(['notices', 'other.received', String(expected)]);

  // A range typed into the address is refused by the call, at its field.
  await page.goto(`/support/statistics/?from=${day}&to=2020-01-01`);
  await expect(page.locator('#transparency-to-error')).toHaveText('Slutdatoen skal ligge på eller efter startdatoen.');
  await expect(page.getByLabel('Fra og med')).toHaveValue(ddMMyyyy(day));
  await expect(page.getByLabel('Til og med')).toHaveValue('01-01-2020');

  // The same screen in English, switched in place.
  await page.goto(`/support/statistics/?unit=month&from=${day}&to=${day}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Statistik' })).toBeVisible();
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Statistics' })).toBeVisible();
  const english = page.getByRole('table', { name: 'Reports received by reason: now, before and in total' });
  await expect(english.getByRole('columnheader', { name: 'This month (still going on)' })).toBeVisible();
  await expect(english.locator('tr[data-column="reports.other"] th')).toHaveText('Other');
  await expect(page.getByRole('link', { name: 'Download CSV (per month)' })).toHaveAttribute('href', '/api/support/statisticspermonth?Format=csv');
  await expect(page.getByRole('heading', { level: 2, name: 'Transparency report' })).toBeVisible();
  await expect(page.getByRole('table', { name: `Notices by type and outcome, ${ddMMyyyy(day)} – ${ddMMyyyy(day)}` }).locator('tr[data-notice="other"] [data-received]')).toHaveText(String(expected));
  await expect(page.getByLabel('To (inclusive)')).toHaveAttribute('placeholder', 'dd-mm-yyyy');
  await page.getByLabel('To (inclusive)').fill('01-01-2020');
  await page.getByRole('button', { name: 'Show the report' }).click();
  await expect(page.locator('#transparency-to-error')).toHaveText('The end date must be on or after the start date.');
  await checkA11y(page);
});

test('a Support-only user is sent away from the statistics', async ({ page, baseURL }) => {
  const support = await createSupportUser(baseURL!, { permissions: ['Support'] });
  expect((await signInSupport(page.context().request, support)).status()).toBe(200);
  await page.goto('/support/statistics/');
  await expect(page).toHaveURL(/\/support\/dashboard\/$/);
  await expect(page.getByRole('navigation', { name: 'Menu for kundeservice' }).getByRole('link', { name: 'Statistik' })).toHaveCount(0);
  expect((await page.request.get('/api/support/statisticsperday')).status()).toBe(403);
});
