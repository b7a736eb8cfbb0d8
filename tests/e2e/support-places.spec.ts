/**
 * Regions and cities (issue 17): SEO staff open "Regioner og byer" from the menu, are refused a city the
 * region already has (at the field, the text kept), add a new city in Danish (its address made of the name:
 * ø → oe) with a link to write its page text; then, in English, rename it after a confirmation that says
 * the old addresses will redirect. After the rebuild the new city's search page answers with its name, and
 * the old address answers 301 to the new one (Danish and English).
 */
import type { RenamedCity } from '#lib/schemas/places.ts';
import { test, expect, createSupportUser, passAgeGate, signInSupport } from './fixtures.ts';

test('SEO staff add a city and rename it; after the rebuild the new address answers and the old one redirects', async ({ page, context, baseURL, checkA11y }) => {
  test.setTimeout(420_000);
  const stamp = Date.now().toString(36).slice(-6);
  const name = `Søby ${stamp}`;
  const newName = `Ærø Strand ${stamp}`;
  const oldSlug = `soeby-${stamp}`;
  const newSlug = `aeroe-strand-${stamp}`;
  const seo = await createSupportUser(baseURL!, { permissions: ['SEO'] });
  expect((await signInSupport(page.context().request, seo)).status()).toBe(200);

  await page.goto('/support/landing-pages/');
  await page.getByRole('navigation', { name: 'Menu for kundeservice' }).getByRole('link', { name: 'Regioner og byer' }).click();
  await expect(page).toHaveURL(/\/support\/places\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Regioner og byer' })).toBeVisible();

  // A city the region has (another case): refused at the name, and what was typed is kept.
  const add = page.getByRole('form', { name: 'Tilføj en by' });
  await add.getByRole('combobox', { name: /^Region/ }).selectOption({ label: 'Region Hovedstaden' });
  const cityName = add.getByRole('textbox', { name: /Byens navn/ });
  await cityName.fill('københavn');
  await add.getByRole('button', { name: 'Tilføj by' }).click();
  await expect(add.getByText('Regionen har allerede en by med dette navn eller denne adresse.')).toBeVisible();
  await expect(cityName).toHaveValue('københavn');

  await cityName.fill(name);
  await add.getByRole('button', { name: 'Tilføj by' }).click();
  await expect(page.getByText(`${name} er tilføjet til Region Hovedstaden.`)).toBeVisible();
  await expect(cityName).toHaveValue('');
  const region = page.locator('section[data-region="region-hovedstaden"]');
  const row = region.locator(`tr[data-city="${name}"]`);
  await expect(row.locator('[data-city-address]')).toHaveText(`/…/region-hovedstaden/${oldSlug}/`);
  await expect(row.locator('[data-public-adverts]')).toHaveText('0');
  // Its page text: a new index page for escort in the city, in the landing-page editor.
  await expect(row.getByRole('link', { name: `Skriv en tekst til Escort i ${name}` })).toHaveAttribute(
    'href',
    /^\/support\/landing-pages\/new\/\?type=index&kind=escort&regionId=\d+&cityId=\d+$/,
  );
  await checkA11y(page);

  // In English: renamed after a confirmation that says the old addresses redirect.
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Regions and cities' })).toBeVisible();
  await row.getByRole('button', { name: `Rename ${name}` }).click();
  const rename = page.getByRole('form', { name: `Rename ${name}` });
  await rename.getByRole('textbox', { name: /New name/ }).fill(newName);
  await rename.getByRole('button', { name: 'Rename', exact: true }).click();
  const question = page.getByRole('alertdialog');
  await expect(question).toContainText(`Rename ${name} to ${newName}?`);
  await expect(question).toContainText(`from /…/${oldSlug}/ to /…/${newSlug}/`);
  await expect(question).toContainText('the old addresses send visitors and search engines on to the new ones (301)');
  await checkA11y(page);
  const answer = page.waitForResponse((response) => response.url().endsWith('/api/support/renamecity'));
  await question.getByRole('button', { name: 'Yes, rename' }).click();
  const renamed = (await (await answer).json()) as RenamedCity;
  await expect(page.getByText(`${name} is now called ${newName}. The old addresses redirect to the new ones.`)).toBeVisible();
  const renamedRow = region.locator(`tr[data-city="${newName}"]`);
  await expect(renamedRow.locator('[data-city-address]')).toHaveText(`/…/region-hovedstaden/${newSlug}/`);
  await expect(region.locator(`tr[data-city="${name}"]`)).toHaveCount(0);

  const oldPath = `/escort/region-hovedstaden/${oldSlug}/`;
  const newPath = `/escort/region-hovedstaden/${newSlug}/`;
  expect(renamed.redirects).toContainEqual({ from: oldPath, to: newPath });
  expect(renamed.redirects).toContainEqual({ from: `/en${oldPath}`, to: `/en${newPath}` });

  // The change schedules a rebuild: the new city's search page is built.
  await expect
    .poll(async () => (await page.request.get(newPath, { maxRedirects: 0 })).status(), { timeout: 360_000, intervals: [1000, 2000, 5000] })
    .toBe(200);
  for (const [from, to] of [
    [oldPath, newPath],
    [`/en${oldPath}`, `/en${newPath}`],
  ] as const) {
    const visit = await page.request.get(from, { maxRedirects: 0 });
    expect(visit.status(), from).toBe(301);
    expect(visit.headers()['location']).toBe(to);
  }
  await passAgeGate(context, baseURL);
  await page.goto(oldPath);
  await expect(page).toHaveURL(new RegExp(`${newPath}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(newName);
});
