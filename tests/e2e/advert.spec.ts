import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { test, expect, passAgeGate, islandsReady, signInAsSupportAdmin, siteBuildHeaders } from './fixtures.ts';

type FullProfile = {
  id: number;
  name: string;
  url: string;
  phone: string | null;
  hasWhatsapp: boolean;
  priceList: unknown[];
  schedule: unknown[];
  location: { city: string | null; citySlug: string | null; regionSlug: string | null };
  kind: string;
};

async function allProfiles(request: APIRequestContext, locale = 'da'): Promise<FullProfile[]> {
  const items: FullProfile[] = [];
  let afterId: number | null = 0;
  while (afterId !== null) {
    const page = (await (await request.get('/api/frontend/fullprofiles', { params: { AfterId: String(afterId), Take: '500', Locale: locale }, headers: siteBuildHeaders() })).json()) as {
      items: FullProfile[];
      nextAfterId: number | null;
    };
    items.push(...page.items);
    afterId = page.nextAfterId;
  }
  return items;
}

test('a visitor opens an advert from a landing page and reveals the phone number', async ({ page, context, baseURL, request, checkA11y }) => {
  await passAgeGate(context, baseURL);
  const profiles = await allProfiles(request);
  const withPhone = profiles.find((p) => p.phone && p.hasWhatsapp && p.location.citySlug) ?? profiles.find((p) => p.phone && p.location.citySlug)!;
  const { kind, location } = withPhone;
  const landing = `/${kind}/${location.regionSlug}/${location.citySlug}/`;
  const onLanding = (await (await request.get('/api/frontend/searchpageprofiles', { params: { Url: landing, PageSize: '24' } })).json()) as {
    items: { id: number }[];
  };
  expect(onLanding.items.map((item) => item.id)).toContain(withPhone.id);

  await page.goto(landing);
  await page.locator(`#main a[href="${withPhone.url}"]`).click();
  await expect(page).toHaveURL(new RegExp(`${withPhone.url}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(withPhone.name);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${withPhone.url}$`));
  await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute('href', new RegExp(`/en${withPhone.url}$`));
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  const breadcrumbs = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? '{}') as { '@type': string };
  expect(breadcrumbs['@type']).toBe('BreadcrumbList');
  await expect(page.getByText('Alle priser er i DKK og inkluderer 25 % moms.')).toBeVisible();
  // The location links to its city's landing page.
  await expect(page.getByRole('link', { name: new RegExp(location.city ?? '') }).last()).toHaveAttribute('href', landing);
  // The number is not in the page until the visitor asks for it.
  const digits = withPhone.phone!.replace(/\D/g, '').slice(-8);
  expect(await page.content()).not.toContain(digits);
  await checkA11y(page);

  await page.getByRole('button', { name: 'Vis nummer' }).click();
  const call = page.getByRole('link', { name: /^Ring / });
  await expect(call).toHaveAttribute('href', `tel:+45${digits}`);
  await expect(call).toBeFocused();
  if (withPhone.hasWhatsapp) {
    await expect(page.getByRole('link', { name: 'Skriv på WhatsApp' })).toHaveAttribute('href', `https://wa.me/45${digits}`);
  }
  await checkA11y(page);
});

test('the English twin of an advert', async ({ page, context, baseURL, request, checkA11y }) => {
  await passAgeGate(context, baseURL);
  const [profile] = await allProfiles(request, 'en');
  await page.goto(`/en${profile!.url}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(profile!.name);
  await expect(page.getByRole('heading', { name: 'Prices' })).toBeVisible();
  await expect(page.getByText('All prices are in DKK and include 25% VAT.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Report advert' })).toBeVisible();
  await expect(page.locator('link[rel="alternate"][hreflang="da"]')).toHaveAttribute('href', new RegExp(`[^n]${profile!.url}$`));
  await checkA11y(page);
  await page.getByRole('button', { name: /^Language/ }).click();
  await page.getByRole('link', { name: 'Dansk', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^[^?]*[^n]${profile!.url}$`));
  await expect(page.locator('html')).toHaveAttribute('lang', 'da');
});

test('sending a report: a rejected one keeps what was typed, an accepted one is acknowledged with its number', async ({
  page,
  context,
  baseURL,
  request,
  checkA11y,
}) => {
  await passAgeGate(context, baseURL);
  const [profile] = await allProfiles(request);
  await page.goto(profile!.url);
  await page.getByRole('button', { name: 'Anmeld annonce' }).click();
  const dialog = page.getByRole('dialog', { name: 'Anmeld annoncen' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Annoncens adresse')).toHaveValue(new RegExp(`${profile!.url}$`));
  await checkA11y(page);

  // Name and email are needed for this reason; nothing typed is lost.
  await dialog.getByLabel('Falsk eller vildledende annonce').check();
  await dialog.getByLabel('Beskriv, hvad du har set').fill('Billederne er fra en anden side.');
  await dialog.getByLabel('Jeg anmelder i god tro').check();
  await dialog.getByRole('button', { name: 'Send anmeldelse' }).click();
  await expect(dialog.getByLabel('Dit navn')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText('Skal udfyldes.').first()).toBeVisible();
  await expect(dialog.getByLabel('Beskriv, hvad du har set')).toHaveValue('Billederne er fra en anden side.');

  // For a suspected minor they are optional.
  await dialog.getByLabel('Mistanke om en mindreårig (under 18 år)').check();
  await expect(dialog.getByText('Dit navn (valgfrit)')).toBeVisible();

  // The server's field errors (problem+json) are shown at their fields, and the values stay.
  await dialog.getByLabel('Falsk eller vildledende annonce').check();
  await dialog.getByLabel('Dit navn').fill('Test Anmelder');
  await dialog.getByLabel('Din e-mail').fill('anmelder@example.test');
  await page.route('**/api/frontend/reportadvert', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/problem+json',
      body: JSON.stringify({ status: 400, title: 'Bad Request', errors: [{ field: 'Email', message: 'email' }] }),
    }),
  );
  await dialog.getByRole('button', { name: 'Send anmeldelse' }).click();
  await expect(dialog.getByText('Skriv en gyldig e-mailadresse.')).toBeVisible();
  await expect(dialog.getByLabel('Din e-mail')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Dit navn')).toHaveValue('Test Anmelder');
  await expect(dialog.getByLabel('Beskriv, hvad du har set')).toHaveValue('Billederne er fra en anden side.');
  await page.unroute('**/api/frontend/reportadvert');

  const sent = page.waitForResponse((response) => response.url().endsWith('/api/frontend/reportadvert'));
  await dialog.getByRole('button', { name: 'Send anmeldelse' }).click();
  const answer = (await (await sent).json()) as { id: number };
  expect((await sent).status()).toBe(201);
  await expect(dialog.getByRole('status')).toContainText(`Vi har modtaget din anmeldelse (nr. ${answer.id})`);
  await checkA11y(page);

  // Escape closes the dialog and gives the focus back to the button.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Anmeld annonce' })).toBeFocused();
});

test('the report and review forms load on the first click; one that cannot load reloads the page once, then says so, and the next click loads it', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  await passAgeGate(context, baseURL);
  const [profile] = await allProfiles(request);
  await page.goto(profile!.url);
  for (const [index, form] of [
    { chunk: '**/_astro/report-dialog.*.js', button: 'Anmeld annonce', dialog: 'Anmeld annoncen', error: '[data-report-error]' },
    { chunk: '**/_astro/review-dialog.*.js', button: 'Skriv en anmeldelse', dialog: /^Skriv en anmeldelse af /, error: '[data-review-error]' },
  ].entries()) {
    // The form's code cannot be fetched (the connection drops). The first such failure reloads the page
    // once (a deploy may have replaced the files: ReloadOnChunkError); after that the page says so.
    await page.route(form.chunk, (route) => route.abort());
    const opener = page.getByRole('button', { name: form.button });
    if (index === 0) {
      const reloaded = page.waitForEvent('load');
      await opener.click();
      await reloaded;
    }
    await opener.click();
    const failure = page.locator(form.error);
    await expect(failure).toHaveRole('alert');
    await expect(failure).toHaveText('Noget gik galt … Prøv igen.');
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(opener).not.toHaveAttribute('aria-busy', 'true');
    // With the connection back, the next click loads and opens it, and the failure is no longer said.
    await page.unroute(form.chunk);
    await opener.click();
    const dialog = page.getByRole('dialog', { name: form.dialog });
    await expect(dialog).toBeVisible();
    await expect(failure).toBeHidden();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
});

test('other URL forms of an advert redirect permanently to its canonical page, here and in the Netlify build', async ({ request, baseURL }) => {
  const [profile] = await allProfiles(request);
  const { id, url } = profile!;
  for (const [from, to] of [
    [`/annonce/${id}/`, url],
    [`/annonce/another-name-${id}/`, url],
    [`/en/annonce/${id}/`, `/en${url}`],
  ] as const) {
    const response = await request.get(from, { maxRedirects: 0 });
    expect(response.status(), from).toBe(301);
    expect(new URL(response.headers()['location'] ?? '', 'http://x').pathname, from).toBe(to);
  }
  const canonical = await request.get(url, { maxRedirects: 0 });
  expect(canonical.status()).toBe(200);
  expect(canonical.headers()['x-robots-tag']).toBeUndefined();

  // `npm run build:netlify` writes the bare ids of the built adverts to _redirects, read from the built
  // output itself (here the build the server serves, linked into a folder of its own for the file).
  const dataDir = process.env['E2E_DATA_DIR'];
  // The build of the server this run started (playwright.config.ts sets E2E_DATA_DIR), as the next test needs too.
  expect(dataDir && !process.env['E2E_BASE_URL'], 'needs the data directory of the server the tests started').toBeTruthy();
  const outDir = mkdtempSync(path.join(tmpdir(), 'netlify-out-'));
  try {
    const built = path.join(dataDir!, 'site', 'current');
    symlinkSync(path.join(built, 'annonce'), path.join(outDir, 'annonce'));
    mkdirSync(path.join(outDir, 'en'));
    symlinkSync(path.join(built, 'en', 'annonce'), path.join(outDir, 'en', 'annonce'));
    execFileSync(process.execPath, ['scripts/netlify-redirects.ts'], { env: { ...process.env, API_URL: baseURL, SITE_OUT_DIR: outDir } });
    const redirects = readFileSync(path.join(outDir, '_redirects'), 'utf8');
    expect(redirects).toContain(`/annonce/${id}/  ${url}  301\n`);
    expect(redirects).toContain(`/en/annonce/${id}/  /en${url}  301\n`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});

test('an advert whose page is not built yet is shown at once from the API, and prebuilt after the next build', async ({
  page,
  context,
  baseURL,
  request,
  checkA11y,
}) => {
  test.setTimeout(240_000);
  const dataDir = process.env['E2E_DATA_DIR'];
  // This test changes the served build, so it needs the server the test run started (not E2E_BASE_URL).
  expect(dataDir && !process.env['E2E_BASE_URL'], 'needs the data directory of the server the tests started').toBeTruthy();
  const profiles = await allProfiles(request);
  const builtPage = (url: string) => path.join(dataDir!, 'site', 'current', ...url.split('/').filter(Boolean), 'index.html');
  // A public demo advert with a built page, reserved for this test and of its project's own (both projects run
  // this file on one server: each removes a page of its own), so no other test looks at the page meanwhile.
  const candidates = test.info().project.name === 'public-through-nginx' ? [34, 33, 32] : [37, 36, 35];
  const profile = candidates.map((id) => profiles.find((p) => p.id === id)).find((p) => p !== undefined && existsSync(builtPage(p.url)))!;
  expect(profile, `a public demo advert with a built page among ${candidates.join(', ')}`).toBeDefined();
  // The situation of an advert approved after the last build: public in the API, no page in the build.
  const built = builtPage(profile.url);
  rmSync(built);

  await passAgeGate(context, baseURL);
  const response = await page.goto(profile.url);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['x-robots-tag']).toBe('noindex');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(profile.name);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(page.getByRole('heading', { name: 'Siden findes ikke' })).toBeHidden();
  await expect(page).toHaveTitle(new RegExp(profile.name));
  await expect(page.getByRole('heading', { name: 'Priser' })).toBeVisible();
  await checkA11y(page);
  if (profile.phone) {
    await page.getByRole('button', { name: 'Vis nummer' }).click();
    await expect(page.getByRole('link', { name: /^Ring / })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Anmeld annonce' }).click();
  await expect(page.getByRole('dialog', { name: 'Anmeld annoncen' })).toBeVisible();
  await page.keyboard.press('Escape');

  // The next build writes its page.
  await signInAsSupportAdmin(page.context(), baseURL);
  expect((await page.request.post('/api/frontend/cleancache')).status()).toBe(204);
  await expect
    .poll(async () => (await request.get(profile.url)).headers()['x-robots-tag'] ?? 'prebuilt', { timeout: 180_000, intervals: [1000, 2000, 5000] })
    .toBe('prebuilt');
  await page.goto(profile.url);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(profile.name);
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  await islandsReady(page);
});

test('a path that looks like an advert but is none shows the not-found text', async ({ page, context, baseURL, checkA11y }) => {
  await passAgeGate(context, baseURL);
  const response = await page.goto('/annonce/ingen-999999999/');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Siden findes ikke' })).toBeVisible();
  await checkA11y(page);
});
