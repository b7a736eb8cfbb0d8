/**
 * Verification of advertisers in the browser (issue 6), on fresh advertisers:
 * - an ID document and a selfie (placeholder pictures made here with sharp: shapes, never people) → waiting
 *   for support; support sees both pictures in /support/validation/, declines with a reason; the
 *   advertiser reads the reason and sends new files; support accepts; the advertiser is verified;
 * - the built-in TEST age provider: "Check my age online" → its page → Fail → back through
 *   callback-age-verification → a new provider page (retry) → Pass → the dashboard says the check passed
 *   and waits for support (issue 15): not verified, not public, no badge; support sees the TEST mark and
 *   accepts in /support/validation/ (allowed outside production); then the advertiser is verified;
 * - the QR hand-off: the link from the screen opened in a browser without a session, a file sent there,
 *   seen on the first page after a reload; a link that does not work says so;
 * - the verification page in English.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { visitorTest as test, expect, passAgeGate, createSupportUser, signInSupport, unique, type SupportUser } from './fixtures.ts';
import { createAdvertiser, verifyPhoneByApi } from './advertisers.ts';
import { writePlaceholderPicture } from './media-files.ts';
import { scratchFolder } from './scratch.ts';
import { openValidation } from './validation-queue.ts';
import { oneCopenhagenDay } from '#tests/support/days.ts';

const scratch = scratchFolder('verification-e2e');
test.afterAll(() => scratch.remove());

/** A placeholder JPEG: two colours, a card-like rectangle and a circle (no people). */
async function makeJpeg(name: string, hue: number): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="600">
    <rect width="900" height="600" fill="hsl(${hue},60%,55%)"/>
    <rect x="120" y="140" width="520" height="320" rx="24" fill="hsl(${(hue + 180) % 360},50%,35%)"/>
    <circle cx="720" cy="300" r="110" fill="hsl(${(hue + 90) % 360},70%,70%)"/>
  </svg>`;
  const file = scratch.file(name);
  await sharp(Buffer.from(svg)).jpeg().toFile(file);
  return file;
}

async function supportPage(browser: Browser, user: SupportUser, baseURL: string | undefined): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, locale: 'da-DK' });
  const signedIn = await signInSupport(context.request, user);
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  return { context, page: await context.newPage() };
}

const slot = (page: Page, kind: 'document' | 'selfie' | 'video') => page.locator(`[data-verification-slot="${kind}"]`);
const stateOf = (page: Page) => page.locator('[data-verification-state]');

/** Sends the document and the selfie from the verification page and waits until both are sent. */
async function sendDocumentAndSelfie(page: Page, document: string, selfie: string) {
  await slot(page, 'document').locator('input[type=file]').setInputFiles(document);
  await expect(slot(page, 'document').getByRole('status')).toHaveText(`${path.basename(document)} er sendt.`);
  await expect(stateOf(page)).toHaveAttribute('data-verification-state', 'collecting');
  await page.getByLabel('Vælg en selfie med dokumentet').setInputFiles(selfie);
  await expect(slot(page, 'selfie').getByRole('status')).toHaveText(`${path.basename(selfie)} er sendt.`);
  await expect(stateOf(page)).toContainText('Tak! Din verifikation venter på vores support.');
}

/** Opens the support user's queue and the verification of the advert named `name`. */
async function openInQueue(page: Page, name: string) {
  await page.goto('/support/validation/');
  await expect(page.getByRole('heading', { level: 1, name: 'Validering' })).toBeVisible();
  await page.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Verifikation nr\. \d+$/ })).toBeVisible();
}

test('ID document and selfie: support declines with a reason, the advertiser sends again, support accepts', async ({ page, browser, baseURL, checkA11y }) => {
  test.setTimeout(150_000);
  const name = unique('Verifikation');
  await createAdvertiser(page, { name });
  const [document, selfie, document2, selfie2] = await Promise.all([
    makeJpeg('id-dokument.jpg', 210),
    makeJpeg('selfie.jpg', 30),
    makeJpeg('id-dokument-2.jpg', 120),
    makeJpeg('selfie-2.jpg', 300),
  ]);

  await page.goto('/backend/verification/');
  await expect(page.getByRole('heading', { level: 1, name: 'Verifikation' })).toBeVisible();
  await expect(page.getByText('Kun voksne på 18 år eller derover må annoncere her.')).toBeVisible();
  await expect(page.getByText(/slettes 30 dage efter afgørelsen/)).toBeVisible();
  await expect(stateOf(page)).toContainText('Du er ikke verificeret endnu.');
  await checkA11y(page);

  await page.getByLabel('Vælg et foto af dit ID-dokument').setInputFiles(document);
  await expect(slot(page, 'document').getByRole('status')).toHaveText('id-dokument.jpg er sendt.');
  await expect(stateOf(page)).toContainText('Du er i gang');
  // The uploaded file opens in a new tab (for its owner only).
  const view = slot(page, 'document').getByRole('link', { name: /Se: Foto af dit ID-dokument/ });
  await expect(view).toHaveAttribute('target', '_blank');
  const file = await page.request.get((await view.getAttribute('href'))!);
  expect(file.status()).toBe(200);
  expect(file.headers()['content-type']).toBe('image/jpeg');
  // A wrong file is refused with its reason, in words.
  await page.getByLabel('Vælg en selfie med dokumentet').setInputFiles({ name: 'noter.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('Ikke et billede.\n') });
  await expect(slot(page, 'selfie').getByRole('status')).toContainText(/Filen er ikke et billede, vi kan bruge|Filens indhold passer ikke til dens navn eller type/);
  await page.getByLabel('Vælg en selfie med dokumentet').setInputFiles(selfie);
  await expect(slot(page, 'selfie').getByRole('status')).toHaveText('selfie.jpg er sendt.');
  await expect(stateOf(page)).toContainText('Tak! Din verifikation venter på vores support.');
  await checkA11y(page);

  // Support finds it in the queue and sees both pictures beside the advert's data.
  const supportUser = await createSupportUser(baseURL!, { permissions: ['Support'] });
  const support = await supportPage(browser, supportUser, baseURL);
  const s = support.page;
  await openInQueue(s, name);
  await expect(s.getByText('Hver åbning af disse filer bliver registreret.')).toBeVisible();
  for (const alt of [/^ID-dokument til verifikation nr\./, /^Selfie med dokumentet til verifikation nr\./]) {
    const image = s.getByRole('img', { name: alt });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  }
  await expect(s.locator('[data-date-of-birth]')).toHaveText('01-01-1990');
  await checkA11y(s);

  // Decline with a reason: the advertiser may try again.
  await s.getByLabel(/^Godkend ikke/).check();
  await s.getByLabel('Regel i betingelserne').selectOption('terms.identity');
  const reason = 'Dokumentet er uskarpt. Tag et nyt foto i godt lys.';
  await s.getByLabel('Begrundelse (annoncøren ser den)').fill(reason);
  await s.getByRole('button', { name: 'Gem afgørelse' }).click();
  await expect(s.locator('[data-outcome]')).toContainText('Ikke godkendt');
  await expect(s.locator('[data-outcome]')).toContainText(reason);

  // The advertiser reads the reason and sends new files.
  await page.reload();
  await expect(stateOf(page)).toContainText('Vores support kunne ikke godkende din verifikation.');
  await expect(page.locator('[data-verification-reason]')).toHaveText(reason);
  await checkA11y(page);
  await sendDocumentAndSelfie(page, document2, selfie2);

  // Support accepts the new one.
  await openInQueue(s, name);
  await s.getByLabel(/^Godkend –/).check();
  await s.getByRole('button', { name: 'Gem afgørelse' }).click();
  await expect(s.locator('[data-outcome]')).toContainText('Godkendt');
  await support.context.close();

  await page.reload();
  await expect(stateOf(page)).toContainText('Du er verificeret.');
  await expect(page.getByRole('button', { name: 'Tjek min alder online' })).toHaveCount(0);
});

test('the test age provider: fail, retry, pass; it waits for support, not verified nor public, until support accepts', async ({ browser, baseURL, checkA11y }) => {
  test.setTimeout(120_000);
  // The provider sends the browser back to SITE_URL (localhost): the advertiser uses that address throughout.
  const siteURL = baseURL!.replace('127.0.0.1', 'localhost');
  const context = await browser.newContext({ baseURL: siteURL, locale: 'da-DK' });
  await passAgeGate(context, siteURL);
  const page = await context.newPage();
  const name = unique('Alderstjek');
  await createAdvertiser(page, { name });
  const { advertId } = (await (await page.request.get('/api/backend/userprofile')).json()) as { advertId: number };

  await page.goto('/backend/verification/');
  await page.getByRole('button', { name: 'Tjek min alder online' }).click();
  await page.waitForURL(/\/test-age-provider\/[^/]+$/);
  await expect(page.getByRole('note')).toContainText('TEST-udbyder: her bekræftes ingen alder');
  const first = page.url();
  await page.getByRole('button', { name: /^Ikke bestået/ }).click();
  // Back through callback-age-verification, which sends the browser to a new provider page to try again.
  await page.waitForURL((url) => url.pathname.startsWith('/test-age-provider/') && url.href !== first);
  await page.getByRole('button', { name: /^Bestået/ }).click();
  await page.waitForURL((url) => url.pathname === '/backend/dashboard/' && url.searchParams.get('ageVerify') === 'true');
  // Honest: the check passed and waits for support; it does not say verified.
  await expect(page.getByText('Dit alderstjek er bestået. Vores support bekræfter nu din verifikation, før din annonce kan gå online.')).toBeVisible();
  await expect(page.getByText('Din alder er bekræftet. Tak!')).toHaveCount(0);
  await checkA11y(page);

  await page.goto('/backend/verification/');
  await expect(stateOf(page)).toContainText('Tak! Din verifikation venter på vores support.');
  await expect(page.getByRole('button', { name: 'Tjek min alder online' })).toHaveCount(0);
  // Not public, and no validated badge: the public profile is not served.
  expect((await page.request.get('/api/frontend/fullprofile', { params: { Id: advertId } })).status()).toBe(404);
  await checkA11y(page);

  // Support sees the TEST mark in the queue and on the item, and accepts (allowed outside production).
  const { context: supportContext, page: s } = await openValidation(browser, baseURL!, name);
  await expect(s.locator('[data-provider="test"]')).toContainText('Ingen alder blev tjekket');
  await expect(s.locator('[data-provider="test"] [data-test-provider]')).toHaveText('TEST-udbyder — ikke et rigtigt alderstjek');
  await checkA11y(s);
  await s.getByLabel(/^Godkend –/).check();
  await s.getByRole('button', { name: 'Gem afgørelse' }).click();
  await expect(s.locator('[data-outcome]')).toContainText('Godkendt');
  await supportContext.close();

  await page.reload();
  await expect(stateOf(page)).toContainText('Du er verificeret.');
  await context.close();
});

test('the QR hand-off: the link works on a phone without a session, and the file shows on the computer', async ({ page, browser, checkA11y }) => {
  await createAdvertiser(page);
  const document = await makeJpeg('telefon-dokument.jpg', 160);
  await page.goto('/backend/verification/');
  await page.getByRole('button', { name: 'Vis QR-kode' }).click();
  await expect(page.getByRole('img', { name: 'QR-kode, der åbner denne side på din telefon' })).toBeVisible();
  await expect(page.getByText(/Linket virker indtil \d{2}-\d{2}-\d{4}/)).toBeVisible();
  const link = (await page.locator('[data-handoff-link]').getAttribute('href'))!;
  expect(link).toMatch(/\/backend\/verification\/\?handoff=[\w-]{20,}$/);
  await checkA11y(page);

  // The phone: no session, the link's own address.
  const phone = await browser.newContext({ locale: 'da-DK' });
  await passAgeGate(phone, new URL(link).origin);
  const p = await phone.newPage();
  await p.goto(link);
  await expect(p.getByRole('heading', { level: 1, name: 'Verifikation' })).toBeVisible();
  expect(new URL(p.url()).pathname).toBe('/backend/verification/');
  await expect(p.getByRole('button', { name: 'Tjek min alder online' })).toHaveCount(0);
  await p.getByLabel('Vælg et foto af dit ID-dokument').setInputFiles(document);
  await expect(slot(p, 'document').getByRole('status')).toHaveText('telefon-dokument.jpg er sendt.');
  await checkA11y(p);

  // A link that does not work says so.
  await p.goto(`${new URL(link).origin}/backend/verification/?handoff=ikke-et-gyldigt-link`);
  await expect(p.getByRole('alert')).toContainText('Linket er udløbet eller brugt. Scan en ny QR-kode på din computer.');
  await phone.close();

  await page.reload();
  await expect(slot(page, 'document')).toHaveAttribute('data-uploaded', 'true');
  await expect(slot(page, 'selfie')).toHaveAttribute('data-uploaded', 'false');
});

test('the dashboard says a passed age check waits for support, since when and what comes next, in both languages on a phone and a desktop', async ({ browser, baseURL, checkA11y }) => {
  test.setTimeout(120_000);
  const siteURL = baseURL!.replace('127.0.0.1', 'localhost');
  const context = await browser.newContext({ baseURL: siteURL, locale: 'da-DK' });
  await passAgeGate(context, siteURL);
  const page = await context.newPage();
  const today = await oneCopenhagenDay(90_000);
  const sent = today.split('-').reverse().join('-');
  // Everything else on the checklist done (phone, a picture), so the status card speaks of the verification.
  const advertiser = await createAdvertiser(page);
  await verifyPhoneByApi(page, advertiser);
  const upload = await page.request.post('/api/backend/profilepictureuploader', {
    multipart: { files: { name: 'flade.jpg', mimeType: 'image/jpeg', buffer: readFileSync(await writePlaceholderPicture(scratch.file('flade.jpg'), 'jpeg', 120)) } },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  await page.goto('/backend/verification/');
  await page.getByRole('button', { name: 'Tjek min alder online' }).click();
  await page.waitForURL(/\/test-age-provider\/[^/]+$/);
  await page.getByRole('button', { name: /^Bestået/ }).click();
  await page.waitForURL((url) => url.pathname === '/backend/dashboard/');

  const next = page.locator('[data-next-step]');
  const item = page.locator('[data-item="identityVerification"]');
  for (const size of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await page.goto('/backend/dashboard/');
    // Not "verify your age … go to verification" any more: it waits for support, since today, and what comes next.
    await expect(next).toHaveAttribute('data-next-step', 'waitForVerification');
    await expect(next).toHaveText(`Support kontrollerer din verifikation, som du sendte ${sent}. Du skal ikke gøre noget imens. Når den er godkendt, gennemgår support din annonce, og du får besked her.`);
    await expect(page.locator('[data-status]')).toHaveText('Afventer godkendelse');
    await expect(page.getByRole('link', { name: 'Se status for din verifikation' })).toBeVisible();
    await expect(page.getByText('Bekræft din alder og identitet, før annoncen kan vises.')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Gå til verifikation' })).toHaveCount(0);
    await expect(item).toHaveAttribute('data-state', 'waiting');
    await expect(item).toContainText('Venter på support');
    await expect(item).not.toContainText('Mangler');
    await expect(item.locator('[data-waiting-since]')).toHaveText(`Sendt ${sent}`);
    await checkA11y(page);
  }

  await page.getByRole('button', { name: /^en/i }).click();
  await expect(next).toHaveText(`Support is checking the verification you sent on ${sent}. You need not do anything meanwhile. Once it is approved, support reviews your advert, and you are told here.`);
  await expect(page.getByRole('link', { name: 'See the status of your verification' })).toBeVisible();
  await expect(item).toContainText('Waiting for support');
  await expect(item.locator('[data-waiting-since]')).toHaveText(`Sent ${sent}`);
  await page.setViewportSize({ width: 1366, height: 900 });
  await expect(item).toContainText('Waiting for support');
  await expect(page.getByRole('link', { name: 'Go to verification' })).toHaveCount(0);
  await checkA11y(page);
  await context.close();
});

test('the verification page in English', async ({ page, checkA11y }) => {
  await createAdvertiser(page);
  await page.goto('/backend/verification/');
  await expect(page.getByRole('heading', { level: 1, name: 'Verifikation' })).toBeVisible();
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Verification' })).toBeVisible();
  await expect(stateOf(page)).toContainText('You have not been verified yet.');
  await expect(page.getByRole('button', { name: 'Check my age online' })).toBeVisible();
  await page.getByLabel('Choose a video').setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: Buffer.from('not a video at all\n') });
  await expect(slot(page, 'video').getByRole('status')).toContainText('The file is not a video we can use.');
  await checkA11y(page);
});
