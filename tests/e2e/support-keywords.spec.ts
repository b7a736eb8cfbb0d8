/**
 * Visitors' search terms for SEO staff (issue 17; spec §2 support unmatched-keywords/, unmatched-keywords/
 * {keyword}/, paired-keywords/; spec §6 search keywords: GET lists, POST insert, remove pair), on the demo's
 * 30 days of invented counts: an SEO user finds an unmatched term that always finds nothing ("hot stone"),
 * opens its screen (a chart per day and the numbers), where "make a landing page" leads to the editor with
 * the term; the demo's pair "kbh" → København is removed after a confirmation, and a visitor's search for
 * "kbh" then no longer finds what København finds; paired again on the term's screen (a term paired with
 * itself refused at its field, the text kept), the visitor's search for "kbh" finds København's adverts.
 * In English, the paired list says what "kbh" is paired with.
 */
import type { SearchResult } from '#lib/schemas/public-advert.ts';
import { test, expect, createSupportUser, signInSupport, passAgeGate } from './fixtures.ts';

const idsOf = (result: SearchResult) => result.items.map((item) => item.id).sort((a, b) => a - b);

test('SEO staff find an unmatched term and pair "kbh" with København; a visitor’s search for kbh follows', async ({ page, context, baseURL, request, checkA11y }) => {
  test.setTimeout(120_000);
  const freeText = async (text: string) =>
    (await (await request.get('/api/frontend/searchpageprofileswithfreetext', { params: { Text: text, Locale: 'da', PageSize: '60' } })).json()) as SearchResult;
  // What "kbh" and "København" find, asked at the same moment: other tests make adverts public or hide them
  // meanwhile, so each comparison is between two searches of the same moment, polled until it holds.
  const kbhAndCopenhagen = async () => {
    const [kbh, copenhagen] = await Promise.all([freeText('kbh'), freeText('København')]);
    return { kbh: idsOf(kbh), copenhagen: idsOf(copenhagen) };
  };
  const kbhFindsCopenhagen = async () => {
    const found = await kbhAndCopenhagen();
    return found.copenhagen.length > 0 && JSON.stringify(found.kbh) === JSON.stringify(found.copenhagen);
  };
  const seo = await createSupportUser(baseURL!, { permissions: ['SEO'] });
  expect((await signInSupport(page.context().request, seo)).status()).toBe(200);

  // Unmatched terms, most often finding nothing first.
  await page.goto('/support/unmatched-keywords/');
  await expect(page.getByRole('heading', { level: 1, name: 'Umatchede søgeord' })).toBeVisible();
  await page.getByLabel('Periode').selectOption('90');
  await page.getByLabel('Rækkefølge').selectOption('noResults');
  await page.getByRole('button', { name: 'Vis' }).click();
  await expect(page).toHaveURL(/\?days=90&sort=noResults$/);
  const hotStone = page.locator('tr[data-keyword="hot stone"]');
  await expect(hotStone).toContainText('100 %');
  await expect(hotStone.getByRole('link', { name: 'Lav en landingsside til »hot stone«' })).toHaveAttribute('href', '/support/landing-pages/new/?term=hot%20stone');
  await checkA11y(page);

  // The term's own screen: a chart per day, the numbers, and the way to a landing page with the term.
  await hotStone.getByRole('link', { name: 'hot stone', exact: true }).click();
  await expect(page).toHaveURL(/\/support\/unmatched-keywords\/hot%20stone\/\?days=90$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Søgeordet »hot stone«' })).toBeVisible();
  await expect(page.locator('[data-keyword-list="unmatched"]')).toContainText('100 % fandt intet');
  await expect(page.locator('[data-keyword-chart] canvas')).toBeVisible();
  await page.getByText('Tallene pr. dag').click();
  await expect(page.getByRole('table', { name: 'Søgninger pr. dag' }).locator('tbody tr')).toHaveCount(30);
  await checkA11y(page);

  // The demo's pair kbh → København, removed after a confirmation: a search for kbh no longer finds København's adverts.
  await expect.poll(kbhFindsCopenhagen, { message: 'kbh finds what København finds' }).toBe(true);
  await page.goto('/support/paired-keywords/');
  const kbh = page.locator('tr[data-keyword="kbh"]');
  await expect(kbh).toContainText('koebenhavn');
  await kbh.getByRole('button', { name: 'Fjern parret for »kbh«' }).click();
  const question = page.getByRole('dialog', { name: 'Fjern parret?' });
  await expect(question).toContainText('Søgninger på »kbh« finder igen kun det, ordet selv finder.');
  await question.getByRole('button', { name: 'Fjern par' }).click();
  await expect(page.getByText('Parret for »kbh« er fjernet.')).toBeVisible();
  await expect(kbh).toHaveCount(0);
  const unpaired = await kbhAndCopenhagen();
  expect(unpaired.copenhagen.length).toBeGreaterThan(0);
  expect(unpaired.kbh).not.toEqual(unpaired.copenhagen);

  // Paired again on its screen; itself refused at the field, the text kept.
  await page.goto('/support/unmatched-keywords/kbh/');
  await expect(page.locator('[data-keyword-list="unmatched"]')).toBeVisible();
  const other = page.getByLabel('Et andet søgeord');
  await other.fill('KBH');
  await page.getByRole('button', { name: 'Par', exact: true }).click();
  await expect(page.getByText('Et søgeord kan ikke parres med sig selv.')).toBeVisible();
  await expect(other).toHaveValue('KBH');
  await other.fill('København');
  await page.getByRole('button', { name: 'Par', exact: true }).click();
  await expect(page.getByText('»kbh« er parret med koebenhavn.')).toBeVisible();
  await expect(page.locator('[data-keyword-list="paired"] [data-paired-with]')).toHaveText('koebenhavn');

  // A visitor's header search for kbh finds København's adverts.
  await passAgeGate(context, baseURL);
  await expect.poll(kbhFindsCopenhagen, { message: 'kbh finds what København finds' }).toBe(true);
  await page.goto('/search/kbh/');
  await expect(page.locator('#main').getByText('København').first()).toBeVisible();
  // The free-text page is never indexed and never puts the visitor's words in its title.
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  expect((await page.title()).toLowerCase()).not.toContain('kbh');

  // In English: the paired list says with what.
  await page.goto('/support/paired-keywords/');
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Paired keywords' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Paired with' })).toBeVisible();
  await expect(page.locator('tr[data-keyword="kbh"]')).toContainText('koebenhavn');
  await checkA11y(page);
});
