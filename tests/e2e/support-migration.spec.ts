/**
 * Moving adverts from the old site in the browser (issue 18; spec §2 support migrate-adverts/ and
 * migrate-adverts/{id}/), with export archives made here (docs/migration-format.md: adverts.jsonl and
 * abstract pictures drawn with sharp, never photos):
 * - Support uploads a file that is no archive (refused in words), then the export: the import's progress
 *   ends with the refused line's number and reason; the line whose phone is a demo advertiser's shows that
 *   advertiser among its possible duplicates; the good advert is found by its old id and opened (its old
 *   address, prices in DKK and pictures), and the invitation goes out after a confirmation. The advertiser
 *   opens the emailed link, takes the advert over (password, date of birth, terms), confirms the SMS code
 *   and lands in the dashboard; verifies with the TEST age provider, which support accepts; support
 *   approves the pictures and the advert; the old address then answers 301 to the public advert's page.
 * - An invitation to an address that has an account is refused, in words. Support refuses an imported
 *   advert with a reason (required, after a confirmation); its old address then answers 410 Gone.
 */
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { test, expect, passAgeGate, createSupportUser, signInSupport, supportAdminRequest, unique } from './fixtures.ts';
import { CREATE_PASSWORD, newPhone } from './advertisers.ts';
import { lastMessage, linkIn, smsCode } from './outbox.ts';
import { acceptTestAgeCheck } from './validation-queue.ts';
import { blocksJpeg, jsonLines, makeZip } from '../integration/migration-helpers.ts';

/**
 * An old id nobody else in the run uses (the old site's ids are whole numbers from 1; support's search by
 * old id takes at most 9 digits).
 */
const oldIdBase = () => 100_000_000 + Math.floor(Math.random() * 800_000_000);

/** A region and one of its cities, by the names an export writes. */
async function aPlace(request: APIRequestContext): Promise<{ region: string; city: string }> {
  const regions = (await (await request.get('/api/frontend/searchpageregions')).json()) as { id: number; name: string }[];
  const cities = (await (await request.get('/api/frontend/searchpagecities')).json()) as { city: string; regionId: number }[];
  const city = cities[0]!;
  return { region: regions.find((region) => region.id === city.regionId)!.name, city: city.city };
}

/** A demo advertiser's advert (read only): its id and phone. */
async function demoAdvert(request: APIRequestContext): Promise<{ id: number; phone: string }> {
  const answer = await request.get('/api/support/profiles', { params: { Email: 'demo-2@example.invalid' } });
  expect(answer.status(), await answer.text()).toBe(200);
  const { items } = (await answer.json()) as { items: { id: number; phone: string | null }[] };
  expect(items[0]?.phone).toBeTruthy();
  return { id: items[0]!.id, phone: items[0]!.phone! };
}

type OldAdvert = { oldId: number; name: string; slug: string; email: string; phone: string };

function oldAdvert(oldId: number, prefix: string): OldAdvert {
  const name = unique(prefix);
  return { oldId, name, slug: name.toLowerCase(), email: `${unique('gammel')}@example.invalid`, phone: newPhone() };
}

/** One line of adverts.jsonl for an old advert. */
function lineOf(advert: OldAdvert, place: { region: string; city: string }, extra: Record<string, unknown> = {}) {
  return {
    oldId: advert.oldId,
    kind: 'escort',
    name: advert.name,
    slug: advert.slug,
    title: 'Rolig aften i byen',
    introduction: 'Hej, jeg flytter med fra den gamle side.',
    description: 'En venlig og diskret annonce.',
    phone: `+45 ${advert.phone.slice(0, 2)} ${advert.phone.slice(2, 4)} ${advert.phone.slice(4, 6)} ${advert.phone.slice(6)}`,
    email: advert.email,
    region: place.region,
    city: place.city,
    age: 29,
    prices: [{ durationMinutes: 60, incallPrice: 1500, outcallPrice: '2000,50' }],
    ...extra,
  };
}

async function supportPage(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const user = await createSupportUser(baseURL, { permissions: ['Support'] });
  const context = await browser.newContext({ baseURL, locale: 'da-DK' });
  const signedIn = await signInSupport(context.request, user);
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  return { context, page: await context.newPage() };
}

/** Uploads an archive on migrate-adverts/ and waits for its import to finish; answers the import's id. */
async function importArchive(page: Page, archive: Buffer, fileName: string): Promise<number> {
  await page.goto('/support/migrate-adverts/');
  await expect(page.getByRole('heading', { level: 1, name: 'Flyt annoncer' })).toBeVisible();
  await page.getByLabel('Eksportfil (ZIP)').setInputFiles({ name: fileName, mimeType: 'application/zip', buffer: archive });
  await page.getByRole('button', { name: 'Upload og importér' }).click();
  await expect(page).toHaveURL(/\/support\/migrate-adverts\/\?import=\d+$/);
  const importId = Number(new URL(page.url()).searchParams.get('import'));
  await expect(page.locator('[data-import-status]')).toHaveText(/^Færdig/, { timeout: 60_000 });
  return importId;
}

/** The old address of an imported advert, without following the redirect. */
const oldAddress = (request: APIRequestContext, advert: OldAdvert) =>
  request.get(`/P/${advert.slug}--${advert.oldId}.html/`, { maxRedirects: 0 });

test('support imports an export, invites the advertiser, who takes the advert over, is verified and approved; the old address leads to it', async ({
  browser,
  baseURL,
  checkA11y,
}) => {
  test.setTimeout(240_000);
  const { context, page } = await supportPage(browser, baseURL!);
  const place = await aPlace(context.request);
  const demo = await demoAdvert(context.request);
  const base = oldIdBase();
  const good = oldAdvert(base, 'Flyttet');
  const bad = oldAdvert(base + 1, 'Ukendt');
  const samePhone = { ...oldAdvert(base + 2, 'Samme'), phone: demo.phone };
  const archive = await makeZip([
    {
      name: 'adverts.jsonl',
      bytes: jsonLines([
        lineOf(good, place, { pictures: ['pictures/a-1.jpg', 'pictures/a-2.jpg'] }),
        lineOf(bad, place, { city: 'Atlantis' }),
        lineOf(samePhone, place),
      ]),
    },
    { name: 'pictures/a-1.jpg', bytes: await blocksJpeg(base) },
    { name: 'pictures/a-2.jpg', bytes: await blocksJpeg(base + 7) },
  ]);

  // A file that is no export is refused, in words.
  await page.goto('/support/migrate-adverts/');
  await expect(page.getByRole('heading', { level: 1, name: 'Flyt annoncer' })).toBeVisible();
  await checkA11y(page);
  await page.getByRole('button', { name: 'Upload og importér' }).click();
  await expect(page.locator('#migration-file-error')).toHaveText('Skal udfyldes.');
  await page.getByLabel('Eksportfil (ZIP)').setInputFiles({ name: 'noter.zip', mimeType: 'application/zip', buffer: Buffer.from('Ikke en ZIP-fil.\n') });
  await page.getByRole('button', { name: 'Upload og importér' }).click();
  await expect(page.locator('#migration-file-error')).toHaveText('Filen er ikke en ZIP-fil, eller den er beskadiget.');
  await expect(page).toHaveURL(/\/support\/migrate-adverts\/$/);

  // The export: its progress ends with the refused line's number and reason.
  const importId = await importArchive(page, archive, 'eksport-1.zip');
  await expect(page.locator('[data-import-progress]')).toHaveText('3 af 3 linjer');
  await expect(page.locator('[data-import-imported]')).toHaveText('2');
  await expect(page.locator('[data-import-skipped]')).toHaveText('0');
  await expect(page.locator('[data-import-refused]')).toHaveText('1');
  const refusedLine = page.locator('tr[data-line-error="2"]');
  await expect(refusedLine).toContainText('Byen findes ikke hos os (i den angivne region).');
  await expect(refusedLine).toContainText('Atlantis');
  // The list shows the import's adverts, newest first.
  await expect(page.getByRole('searchbox', { name: 'Import nr.' })).toHaveValue(String(importId));
  const rows = page.locator('tr[data-migrated-advert]');
  await expect(rows).toHaveCount(2);
  const goodRow = rows.filter({ hasText: good.name });
  await expect(goodRow).toContainText('Importeret');
  await expect(goodRow).toContainText(String(good.oldId));
  await expect(goodRow).toContainText(good.email);
  await expect(goodRow).toContainText(good.phone);
  await expect(goodRow).toContainText(place.city);
  await expect(goodRow.locator('td').nth(5)).toHaveText('2');
  await checkA11y(page);

  // The line with the demo advertiser's phone: that advertiser is a possible duplicate, offered for a merge.
  await rows.filter({ hasText: samePhone.name }).getByRole('link', { name: samePhone.name }).click();
  await expect(page.getByRole('heading', { level: 1, name: `${samePhone.name} – gammelt nr. ${samePhone.oldId}` })).toBeVisible();
  const duplicate = page.locator(`tr[data-duplicate="advert-${demo.id}"]`);
  await expect(duplicate.locator('[data-matches]')).toHaveText('Samme telefonnummer');
  await expect(duplicate.getByRole('link')).toHaveAttribute('href', `/support/adverts/${demo.id}/`);
  await expect(page.getByRole('textbox', { name: 'Annonce nr.' })).toHaveValue(String(demo.id));
  // The imported advert's screen at both sizes (the demo has none for the walk of every screen, console.spec.ts).
  await checkA11y(page, { bothSizes: true });

  // Without an import chosen, the latest imports lead back to this one's progress.
  await page.goto('/support/migrate-adverts/');
  await page.getByRole('region', { name: 'Seneste importer' }).getByRole('link', { name: `Import nr. ${importId}`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`\\?import=${importId}$`));

  // The good advert, found by its old id.
  await page.goto(`/support/migrate-adverts/?import=${importId}`);
  await page.getByRole('searchbox', { name: 'Gammelt nr.' }).fill(String(good.oldId));
  await page.getByRole('button', { name: 'Søg' }).click();
  await expect(page).toHaveURL(new RegExp(`\\?oldId=${good.oldId}&import=${importId}$`));
  await expect(rows).toHaveCount(1);
  await rows.getByRole('link', { name: good.name }).click();
  await expect(page).toHaveURL(/\/support\/migrate-adverts\/\d+\/$/);
  const migratedId = Number(/\/(\d+)\/$/.exec(page.url())![1]);
  await expect(page.getByRole('heading', { level: 1, name: `${good.name} – gammelt nr. ${good.oldId}` })).toBeVisible();
  await expect(page.locator('[data-migration-state]')).toHaveText('Importeret');
  await expect(page.locator('[data-delete-on]')).toHaveText(/^\d{2}-\d{2}-\d{4}, hvis ingen har overtaget den inden$/);
  await expect(page.locator('[data-old-path]')).toHaveText(`/P/${good.slug}--${good.oldId}.html/`);
  const old = page.locator('[data-old-advert]');
  await expect(old.locator('tr[data-price="0"]')).toContainText('60 minutter');
  await expect(old.locator('tr[data-price="0"]')).toContainText('1.500,00 DKK');
  await expect(old.locator('tr[data-price="0"]')).toContainText('2.000,50 DKK');
  for (const n of [1, 2]) {
    const picture = old.getByRole('img', { name: `Billede ${n} af ${good.name}` });
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  }
  await expect(page.locator('[data-new-advert]')).toContainText('Ikke på den nye side endnu.');
  // Not yet claimed: the old address is not an advert anywhere.
  expect((await oldAddress(context.request, good)).status()).toBe(404);
  await checkA11y(page);

  // The invitation, after a confirmation.
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const question = page.getByRole('dialog', { name: 'Send invitationen?' });
  await expect(question).toContainText(good.email);
  await checkA11y(page);
  await question.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(new RegExp(`^Invitationen er sendt til ${good.email.replace(/[.]/g, '\\.')}\\. Linket virker til og med \\d{2}-\\d{2}-\\d{4}\\.$`))).toBeVisible();
  await expect(page.locator('[data-migration-state]')).toHaveText('Inviteret');
  await expect(page.getByRole('button', { name: 'Send ny invitation' })).toBeVisible();

  // The advertiser opens the emailed link and takes the advert over.
  const admin = await supportAdminRequest(baseURL!);
  const mail = await lastMessage(admin, good.email, '/create/?claim=');
  // The age provider sends the advertiser back to SITE_URL (localhost): the advertiser uses that address.
  const siteURL = baseURL!.replace('127.0.0.1', 'localhost');
  const advertiserContext = await browser.newContext({ baseURL: siteURL, locale: 'da-DK' });
  await passAgeGate(advertiserContext, siteURL);
  const advertiser = await advertiserContext.newPage();
  await advertiser.goto(linkIn(mail, '/create/?claim='));
  await expect(advertiser.getByRole('heading', { name: 'Overtag din annonce fra den gamle side' })).toBeVisible();
  await expect(advertiser.getByText(`Annoncen „${good.name}“ er klar til at flytte med`)).toBeVisible();
  await checkA11y(advertiser);
  await advertiser.getByLabel('Adgangskode').fill(CREATE_PASSWORD);
  await advertiser.getByLabel('Fødselsdato').fill('15-04-1995');
  await advertiser.getByRole('checkbox', { name: /mindst 18 år/ }).check();
  await advertiser.getByRole('button', { name: 'Overtag annoncen' }).click();
  await expect(advertiser.getByRole('heading', { name: 'Bekræft dit telefonnummer' })).toBeVisible();
  await advertiser.getByLabel('Kode fra sms').fill(await smsCode(admin, good.phone));
  await advertiser.getByRole('button', { name: 'Bekræft nummer' }).click();
  await expect(advertiser.getByRole('heading', { name: 'Din konto er klar' })).toBeVisible();
  await advertiser.getByRole('link', { name: 'Gå til din annonceprofil' }).click();
  await expect(advertiser).toHaveURL(/\/backend\/dashboard\/$/);
  await admin.dispose();

  // Support sees it claimed, as a new advert of the site.
  await page.reload();
  await expect(page.locator('[data-migration-state]')).toHaveText('Overtaget');
  const advertLink = page.locator('[data-new-advert]').getByRole('link', { name: /^Åbn annonce nr\. \d+$/ });
  const advertId = Number(/(\d+)$/.exec((await advertLink.textContent())!)![1]);
  await expect(advertLink).toHaveAttribute('href', `/support/adverts/${advertId}/`);
  await expect(page.getByRole('button', { name: 'Send ny invitation' })).toHaveCount(0);
  await expect(page.locator('[data-delete-on]')).toHaveCount(0);

  // The advertiser verifies with the TEST age provider; support accepts it.
  await advertiser.goto('/backend/verification/');
  await advertiser.getByRole('button', { name: 'Tjek min alder online' }).click();
  await advertiser.waitForURL(/\/test-age-provider\/[^/]+$/);
  await advertiser.getByRole('button', { name: /^Bestået/ }).click();
  await advertiser.waitForURL((url) => url.pathname === '/backend/dashboard/');
  await acceptTestAgeCheck(browser, baseURL!, good.name);

  // Support approves the imported pictures and the advert.
  await page.goto(`/support/review-adverts/${advertId}/`);
  await expect(page.getByRole('heading', { level: 1, name: `Gennemgang af ${good.name}` })).toBeVisible();
  await expect(page.locator('[data-verified]')).toContainText('Ja');
  const media = page.getByRole('region', { name: 'Ventende billeder og videoer' });
  await expect(media.locator('li[data-media]')).toHaveCount(2);
  for (const left of [1, 0]) {
    await media.getByRole('button', { name: /^Godkend Billede nr\. \d+$/ }).first().click();
    await expect(media.locator('li[data-media]')).toHaveCount(left);
  }
  await page.getByRole('button', { name: 'Godkend annonce' }).click();
  await expect(page.getByText('Annoncen er godkendt.')).toBeVisible();
  await expect(page.locator('[data-advert-status]')).toHaveText('Aktiv');

  // The old address now leads to the public advert (its page served before it is built, too).
  const moved = await oldAddress(context.request, good);
  expect(moved.status()).toBe(301);
  const target = moved.headers()['location']!;
  expect(target).toMatch(new RegExp(`^/annonce/[a-z0-9-]+-${advertId}/$`));
  const visitorContext = await browser.newContext({ baseURL, locale: 'da-DK' });
  await passAgeGate(visitorContext, baseURL);
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/P/${good.slug}--${good.oldId}.html/`);
  await expect(visitor).toHaveURL(new RegExp(`/annonce/[a-z0-9-]+-${advertId}/$`));
  await expect(visitor.getByRole('heading', { level: 1 })).toContainText(good.name);
  await visitorContext.close();

  // Support's screen of the import leads to the advert.
  await page.goto(`/support/migrate-adverts/${migratedId}/`);
  await expect(page.locator('[data-new-advert]')).toContainText(`Overtaget af annoncøren som annonce nr. ${advertId}.`);
  await advertiserContext.close();
  await context.close();
});

test('support refuses an imported advert with a reason; its old address answers 410 Gone', async ({ browser, baseURL, checkA11y }) => {
  test.setTimeout(120_000);
  const { context, page } = await supportPage(browser, baseURL!);
  const place = await aPlace(context.request);
  const base = oldIdBase();
  const refused = oldAdvert(base, 'Afvises');
  // A demo advertiser's email: that address has an account, so no invitation can go to it.
  const hasAccount = { ...oldAdvert(base + 1, 'Konto'), email: 'demo-3@example.invalid' };
  const archive = await makeZip([{ name: 'adverts.jsonl', bytes: jsonLines([lineOf(refused, place), lineOf(hasAccount, place)]) }]);
  const importId = await importArchive(page, archive, 'eksport-2.zip');
  await expect(page.locator('[data-import-imported]')).toHaveText('2');
  await expect(page.getByText('Ingen linjer blev afvist.')).toBeVisible();

  // The server's refusal of an invitation is said in words; nothing changes.
  await page.locator('tr[data-migrated-advert]').getByRole('link', { name: hasAccount.name }).click();
  await expect(page.getByRole('heading', { level: 1, name: `${hasAccount.name} – gammelt nr. ${hasAccount.oldId}` })).toBeVisible();
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByRole('dialog', { name: 'Send invitationen?' }).getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.locator('[data-invite-form]').getByRole('alert')).toHaveText(
    'Der findes allerede en konto med denne e-mailadresse. Læg annoncen sammen med kontoens annonce i stedet.',
  );
  await expect(page.locator('[data-migration-state]')).toHaveText('Importeret');
  await expect(page.locator('[data-duplicate^="account-"] [data-matches]')).toContainText('Samme e-mail');
  await checkA11y(page);
  await page.goto(`/support/migrate-adverts/?import=${importId}`);

  // Found by name with the state filter.
  await page.getByLabel('Navn').fill(refused.name);
  await page.getByLabel('Tilstand').selectOption({ label: 'Importeret' });
  await page.getByRole('button', { name: 'Søg' }).click();
  await expect(page).toHaveURL(/[?&]state=imported(&|$)/);
  const row = page.locator('tr[data-migrated-advert]');
  await expect(row).toHaveCount(1);
  await row.getByRole('link', { name: refused.name }).click();
  await expect(page.getByRole('heading', { level: 1, name: `${refused.name} – gammelt nr. ${refused.oldId}` })).toBeVisible();
  await expect(page.locator('[data-migration-state]')).toHaveText('Importeret');

  // The reason is required; then a confirmation.
  await page.getByRole('button', { name: 'Afvis annoncen' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.locator('#migration-refuse-reason-error')).toHaveText('Skal udfyldes.');
  const reason = 'Annoncøren har bedt om ikke at komme med.';
  await page.getByLabel('Begrundelse').fill(reason);
  await page.getByRole('button', { name: 'Afvis annoncen' }).click();
  const question = page.getByRole('dialog', { name: 'Afvis annoncen?' });
  await expect(question).toContainText(`${refused.name} (gammelt nr. ${refused.oldId})`);
  await checkA11y(page);
  await question.getByRole('button', { name: 'Afvis annoncen' }).click();
  await expect(page.getByText('Annoncen er afvist.')).toBeVisible();
  await expect(page.locator('[data-migration-state]')).toHaveText('Afvist');
  await expect(page.locator('[data-refused-reason]')).toHaveText(reason);
  await expect(page.getByRole('button', { name: 'Send invitation' })).toHaveCount(0);
  await expect(page.getByText('Annoncen er i tilstanden »Afvist«: der er ingen handlinger.')).toBeVisible();
  await checkA11y(page);

  // The old address is gone for good.
  expect((await oldAddress(context.request, refused)).status()).toBe(410);
  await page.goto(`/support/migrate-adverts/?import=${importId}&state=refused`);
  await expect(page.locator('tr[data-migrated-advert]')).toHaveCount(1);
  await expect(page.locator('tr[data-migrated-advert]')).toContainText('Afvist');
  await context.close();
});
