/**
 * News for advertisers (issue 17): an Administration user (two-step sign-in on) writes a news item on
 * /support/news/new/ (a missing title is refused at its field and the text is kept; the Markdown preview
 * shows the text as advertisers will), pinned and out from today; a Danish advertiser finds it on the
 * dashboard marked new, opens it (bold text, no longer new, still read after a reload) and does not see the
 * English news; an English advertiser sees only that one. Then, in English, the Danish item is deleted
 * after a confirmation and is gone from the list.
 */
import type { SupportNewsItem } from '#lib/schemas/news.ts';
import { test, expect, createSupportUser, signInSupport } from './fixtures.ts';
import { createAdvertiser } from './advertisers.ts';

/** Today in Copenhagen, yyyy-MM-dd (as a date field takes it). */
const today = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Copenhagen' }).format(new Date());

test('Administration writes news; advertisers see it in their language, new until opened; it can be deleted', async ({ page, baseURL, checkA11y }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const danishTitle = `Nye priser ${stamp}`;
  const englishTitle = `New prices ${stamp}`;
  await createAdvertiser(page, { locale: 'da' });
  const admin = await createSupportUser(baseURL!, { permissions: ['Administration'], twoFactor: true });
  expect((await signInSupport(page.context().request, admin)).status()).toBe(200);

  await page.goto('/support/users/');
  await page.getByRole('navigation', { name: 'Menu for kundeservice' }).getByRole('link', { name: 'Nyheder' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Nyheder' })).toBeVisible();
  await page.getByRole('link', { name: 'Ny nyhed' }).click();
  await expect(page).toHaveURL(/\/support\/news\/new\/$/);

  // Without a title: refused at its field, and the text is kept.
  const body = page.getByRole('textbox', { name: 'Tekst', exact: true });
  await body.fill('Fra i dag er **alle** pakker billigere.\n\n- 7 dage\n- 30 dage');
  await page.getByRole('button', { name: 'Gem' }).click();
  await expect(page.getByText('Skal udfyldes.')).toBeVisible();
  await expect(body).toHaveValue(/alle\*\* pakker/);
  const preview = page.locator('[data-news-preview]');
  await expect(preview.locator('strong')).toHaveText('alle');
  await expect(preview.locator('li')).toHaveCount(2);
  await checkA11y(page);

  await page.getByLabel('Titel').fill(danishTitle);
  // Days are typed in Danish order (issue 31, item 9).
  await expect(page.getByLabel('Første dag')).toHaveAttribute('placeholder', 'dd-mm-åååå');
  await page.getByLabel('Første dag').fill(today().split('-').reverse().join('-'));
  await page.getByRole('checkbox', { name: /Fastgjort/ }).check();
  await page.getByRole('button', { name: 'Gem' }).click();
  await expect(page.getByText('Nyheden er oprettet.')).toBeVisible();
  await expect(page).toHaveURL(/\/support\/news\/\d+\/$/);
  await expect(page.locator('[data-news-state="published"]')).toContainText('Vises');
  await expect(page.getByLabel('Første dag')).toHaveValue(today().split('-').reverse().join('-'));

  // An English news item, out from today (through the call the screen uses).
  const english = await page.request.post('/api/support/news', {
    data: { LocaleId: 'en', Title: englishTitle, Body: 'All packages cost *less* from today.', PublishFrom: today(), EndsOn: '', Pinned: false },
  });
  expect(english.status()).toBe(200);

  // The list finds both by the stamp; the Danish one by language.
  await page.goto(`/support/news/?title=${stamp}&locale=da`);
  await expect(page.locator('tr[data-news]')).toHaveCount(1);
  await expect(page.locator('tr[data-news]')).toContainText(danishTitle);
  await expect(page.locator('tr[data-news]')).toContainText('Ja');
  await checkA11y(page);

  // The Danish advertiser: the Danish item is new until opened, and stays read.
  await page.goto('/backend/dashboard/');
  const news = page.locator('[data-news]');
  const item = news.locator('li', { hasText: danishTitle });
  await expect(item).toBeVisible();
  await expect(news).not.toContainText(englishTitle);
  await expect(item.locator('[data-unread]')).toHaveText('Ny');
  await expect(item).toContainText('Fastgjort');
  await checkA11y(page);
  await item.getByText(danishTitle).click();
  await expect(item.locator('strong')).toHaveText('alle');
  await expect(item.locator('[data-unread]')).toHaveCount(0);
  await page.reload();
  await expect(news.locator('li', { hasText: danishTitle }).locator('[data-unread]')).toHaveCount(0);

  // An English advertiser sees the English item only, marked new.
  await createAdvertiser(page, { locale: 'en' });
  await page.goto('/backend/dashboard/');
  await page.getByRole('button', { name: /^en/i }).click();
  const englishItem = news.locator('li', { hasText: englishTitle });
  await expect(englishItem.locator('[data-unread]')).toHaveText('New');
  await expect(news).not.toContainText(danishTitle);

  // In English: the Danish item is deleted after a confirmation.
  const saved = (await (await page.request.get('/api/support/news', { params: { Title: stamp, LocaleId: 'da' } })).json()) as { items: SupportNewsItem[] };
  await page.goto(`/support/news/${saved.items[0]!.id}/`);
  await expect(page.getByRole('heading', { level: 1, name: danishTitle })).toBeVisible();
  await page.getByRole('button', { name: 'Delete the news item' }).click();
  const question = page.getByRole('alertdialog');
  await expect(question).toContainText(`Delete the news item “${danishTitle}”?`);
  await question.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('The news item is deleted.')).toBeVisible();
  await expect(page).toHaveURL(/\/support\/news\/$/);
  await page.goto(`/support/news/?title=${stamp}`);
  await expect(page.locator('tr[data-news]')).toHaveCount(1);
  await expect(page.locator('tr[data-news]')).toContainText(englishTitle);
});
