/**
 * Support's SEO pages in a real browser (issue 17, "Landing pages (SEO)"; support routes landing-pages/ and
 * landing-pages/{id}/; spec §7 support "SEO pages"; the frontend's landingpagepage): an SEO user lands on
 * the list, finds the pages without text (a place's index page shows "no text yet" and opens a new text
 * for that place), finds an unmatched visitors' search term (unmatched-keywords/) and opens a new free page
 * for it ("make a landing page for this term") with its title and address filled in, is refused an address the site uses at the
 * field with the text kept, writes the Danish and English twins (reading time and preview as the public
 * page), uploads a generated PNG with its alt text, publishes both, asks for the rebuild (cleancache) and
 * finds the page public at its address with its picture and reading time and in /googlesitemap.xml, and
 * reached by a visitor's header search for the term (now a matched term). Then,
 * in English, the address changes and, after the rebuild, the old address answers 301 to the new one in
 * both languages.
 */
import sharp from 'sharp';
import { test, expect, createSupportUser, passAgeGate, signInSupport, unique } from './fixtures.ts';
import type { APIRequestContext } from '@playwright/test';

const words = (n: number) => Array.from({ length: n }, (_, i) => `ord${i}`).join(' ');

/** The built site's time, to see a rebuild finish. */
const builtAt = async (request: APIRequestContext) => ((await (await request.get('/readyz')).json()) as { site: { builtAt: string } }).site.builtAt;

/** Asks for a rebuild now (cleancache) and waits until a new build is served. */
async function rebuild(request: APIRequestContext): Promise<void> {
  const before = await builtAt(request);
  expect((await request.post('/api/frontend/cleancache')).status()).toBe(204);
  await expect.poll(() => builtAt(request), { timeout: 300_000, intervals: [1000, 2000, 5000] }).not.toBe(before);
}

test('SEO staff write a free page with an image, preview and publish it; after the rebuild it is public and in the sitemap, and a new address leaves a 301', async ({ page, context, baseURL, checkA11y }) => {
  test.setTimeout(900_000);
  // A visitors' search term of the demo's counts that has no page of its own.
  const term = 'massage vesterbro';
  const slug = 'massage-vesterbro';
  const newSlug = unique('sikker-booking');
  const seo = await createSupportUser(baseURL!, { permissions: ['SEO'] });
  expect((await signInSupport(page.context().request, seo)).status()).toBe(200);

  // SEO staff land on the landing pages; the pages without text include every place not written yet.
  await page.goto('/support/');
  await expect(page.getByRole('heading', { level: 1, name: 'Landingssider' })).toBeVisible();
  await page.getByRole('link', { name: 'Sider uden tekst' }).click();
  await expect(page).toHaveURL(/withoutText=true/);
  const unwritten = page.locator('tr[data-landing-page="unwritten"]');
  await expect(unwritten.first()).toContainText('Ingen tekst endnu');
  await checkA11y(page);
  const placeUrl = await unwritten.first().getAttribute('data-url');
  await unwritten.first().getByRole('link').click();
  await expect(page).toHaveURL(/\/support\/landing-pages\/new\/\?type=index&url=/);
  await expect(page.locator('#landing-url')).toHaveValue(placeUrl!);

  // A new free page from a visitors' search term (unmatched keywords: "make a landing page"): title and address filled in.
  await page.goto('/support/unmatched-keywords/');
  await page.locator(`tr[data-keyword="${term}"]`).getByRole('link', { name: `Lav en landingsside til »${term}«` }).click();
  await expect(page).toHaveURL(`/support/landing-pages/new/?term=${encodeURIComponent(term)}`);
  const titleDa = page.locator('#landing-title-da');
  await expect(titleDa).toHaveValue(term.charAt(0).toUpperCase() + term.slice(1));
  await expect(page.locator('#landing-url')).toHaveValue(slug);

  // An address the site uses is refused at its field; what was typed stays.
  const body = `Sådan booker du **trygt**.\n\n${words(445)}`;
  await page.locator('#landing-body-da').fill(body);
  await page.locator('#landing-url').fill('escort');
  await page.getByRole('button', { name: 'Gem', exact: true }).click();
  await expect(page.getByText('Adressen bruges af sitet selv. Vælg en anden.')).toBeVisible();
  await expect(page.locator('#landing-body-da')).toHaveValue(body);

  await page.locator('#landing-url').fill(slug);
  await page.locator('#landing-intro-da').fill('Kort om tryg booking.');
  await page.locator('#landing-title-en').fill(`Safe booking ${slug}`);
  await page.locator('#landing-body-en').fill(`How to book **safely**. ${words(150)}`);
  await expect(page.locator('[data-editor-reading-time="da"]')).toHaveText('Læsetid: 3 min. (200 ord i minuttet)');
  const previewDa = page.locator('[data-landing-preview="da"]');
  await expect(previewDa.locator('[data-reading-time]')).toHaveText('3 min. læsning');
  await expect(previewDa.locator('strong')).toHaveText('trygt');
  await expect(page.locator('[data-landing-preview="en"] [data-reading-time]')).toHaveText('1 min read');
  await page.getByRole('button', { name: 'Gem', exact: true }).click();
  await expect(page.getByText('Siden er oprettet som kladde.')).toBeVisible();
  await expect(page).toHaveURL(/\/support\/landing-pages\/\d+\/$/);

  // An image with its alt text, through the picture pipeline.
  const png = await sharp({ create: { width: 800, height: 500, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    .composite([{ input: { create: { width: 800, height: 160, channels: 3, background: { r: 240, g: 200, b: 70 } } }, top: 170, left: 0 }])
    .png()
    .toBuffer();
  await page.locator('#landing-image-file-da').setInputFiles({ name: 'baand.png', mimeType: 'image/png', buffer: png });
  await page.locator('#landing-image-alt-da').fill('Blå og gule bånd');
  await page.getByRole('button', { name: 'Tilføj billedet' }).first().click();
  await expect(page.getByText('Billedet er tilføjet.')).toBeVisible();
  await expect(previewDa.getByRole('img', { name: 'Blå og gule bånd' })).toBeVisible();
  await checkA11y(page);

  await page.getByRole('button', { name: 'Udgiv (Dansk)' }).click();
  await expect(page.locator('[data-twin-actions="da"] [data-published="true"]')).toContainText('Udgivet siden');
  await page.getByRole('button', { name: 'Udgiv (Engelsk)' }).click();
  await expect(page.locator('[data-twin-actions="en"] [data-published="true"]')).toContainText('Udgivet siden');

  // The rebuild: the page is public at its address, with its picture and reading time, and in the sitemap.
  await rebuild(page.request);
  await expect.poll(async () => (await page.request.get(`/${slug}/`)).status(), { timeout: 300_000, intervals: [1000, 2000, 5000] }).toBe(200);
  await passAgeGate(context, baseURL);
  await page.goto(`/${slug}/`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(term.charAt(0).toUpperCase() + term.slice(1));
  await expect(page.locator('[data-reading-time]')).toHaveText('3 min. læsning');
  await expect(page.getByRole('img', { name: 'Blå og gule bånd' })).toBeVisible();
  await checkA11y(page);
  const index = await (await page.request.get('/googlesitemap.xml')).text();
  let xml = '';
  for (const [, chunk] of index.matchAll(/<loc>([^<]+)<\/loc>/g)) xml += await (await page.request.get(new URL(chunk!).pathname)).text();
  expect(xml).toContain(`/${slug}/</loc>`);
  expect(xml).toContain(`/en/${slug}/</loc>`);

  // The visitors' search for the term now leads to the page (searchpagepagefreetext), and the term is matched.
  const headerSearch = async (text: string) => {
    await page.goto('/');
    const box = page.getByRole('banner').getByRole('searchbox', { name: 'Søg' });
    await box.fill(text);
    await box.press('Enter');
  };
  await headerSearch(term);
  await expect(page).toHaveURL(new RegExp(`/${slug}/$`));
  const matched = (await (await page.request.get('/api/support/matchedkeywords', { params: { Term: term } })).json()) as { items: { term: string; target: { url: string } }[] };
  expect(matched.items).toEqual([expect.objectContaining({ term, target: expect.objectContaining({ url: `/${slug}/` }) })]);

  // In English: a new address; after the rebuild the old one answers 301 to it, in both languages.
  const saved = (await (await page.request.get('/api/support/landingpages', { params: { Url: slug } })).json()) as { items: { id: number }[] };
  await page.goto(`/support/landing-pages/${saved.items[0]!.id}/`);
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Preview, Danish: as the public page shows it' })).toBeVisible();
  await page.locator('#landing-url').fill(newSlug);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('The page is saved. The public site shows it after the next rebuild.')).toBeVisible();
  await rebuild(page.request);
  await expect.poll(async () => (await page.request.get(`/${newSlug}/`)).status(), { timeout: 300_000, intervals: [1000, 2000, 5000] }).toBe(200);
  for (const [from, to] of [[`/${slug}/`, `/${newSlug}/`], [`/en/${slug}/`, `/en/${newSlug}/`]] as const) {
    const answer = await page.request.get(from, { maxRedirects: 0 });
    expect(answer.status(), from).toBe(301);
    expect(answer.headers()['location']).toBe(to);
  }
  await headerSearch(term);
  await expect(page).toHaveURL(new RegExp(`/${newSlug}/$`));
});
