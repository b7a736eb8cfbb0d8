/**
 * The advertiser's pictures and videos screens and the pictures of /create, in the browser, on fresh
 * advertisers. The files are made in the test: placeholder pictures (shapes and gradients) with sharp,
 * a 2-second test clip with ffmpeg (lavfi), a text file named .jpg. Pictures: two uploaded at once are
 * listed as pending, the text file is refused with its message, keyboard reorder, primary, offline and
 * delete are kept after a reload, the English twin speaks English. Videos: the clip shows "converting"
 * and then, without a reload (the notification hub), the poster and the player; the hub's state is shown.
 * /create: a picture added before the account exists is in /backend/pictures/ afterwards.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { visitorTest as test, expect, islandsReady, unique, supportAdminRequest } from './fixtures.ts';
import { CREATE_WORDS, confirmSignUpInBrowser, createAdvertiser, fillCreateForm, newPhone, outboxInbox } from './advertisers.ts';
import { writePlaceholderPicture, writeTestClip } from './media-files.ts';
import { scratchFolder } from './scratch.ts';

const scratch = scratchFolder('backend-media-e2e');
test.afterAll(() => scratch.remove());

/** A placeholder picture: a gradient with a circle and a square, no people. */
const makePicture = (name: string, format: 'jpeg' | 'png', hue: number) => writePlaceholderPicture(scratch.file(name), format, hue);

/** A 2-second 320×240 test clip (H.264/AAC in MP4). */
const makeClip = (name: string) => writeTestClip(scratch.file(name));

/** A tiny silent WebM (VP8) longer than the 3-minute limit: the browser reads its duration before sending. */
function makeLongClip(name: string): string {
  const file = scratch.file(name);
  execFileSync('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', 'color=c=teal:size=32x32:rate=1:duration=190',
    '-c:v', 'libvpx', '-b:v', '20k', file,
  ]);
  return file;
}

/** The picture ids in the order the list shows them. */
const pictureOrder = (page: Page) => page.locator('[data-picture-id]').evaluateAll((items) => items.map((item) => item.getAttribute('data-picture-id')));

const picture = (page: Page, n: number) => page.locator('[data-picture-id]').nth(n - 1);

test('an advertiser uploads pictures, is told why a bad file is refused, reorders by keyboard, sets primary, takes one offline and deletes one', async ({ page, checkA11y }) => {
  const [first, second] = await Promise.all([makePicture('strand.jpg', 'jpeg', 200), makePicture('have.png', 'png', 30)]);
  const fake = scratch.file('ikke-et-billede.jpg');
  writeFileSync(fake, 'Dette er en tekstfil, ikke et billede.\n');
  await createAdvertiser(page);

  await page.goto('/backend/pictures/');
  await expect(page.getByRole('heading', { level: 1, name: 'Billeder' })).toBeVisible();
  await expect(page.getByTestId('pictures-empty')).toHaveText('Du har ikke tilføjet nogen billeder endnu.');
  await checkA11y(page);

  // Two at once: each gets its own result, and both are listed as pending.
  await page.getByLabel('Vælg billeder').setInputFiles([first, second]);
  const uploads = page.getByTestId('pictures-uploads').locator('li');
  await expect(uploads).toHaveCount(2);
  await expect(uploads.filter({ hasText: 'strand.jpg' })).toContainText('Tilføjet – venter på godkendelse.');
  await expect(uploads.filter({ hasText: 'have.png' })).toContainText('Tilføjet – venter på godkendelse.');
  await expect(page.locator('[data-picture-id]')).toHaveCount(2);
  await expect(page.locator('[data-picture-id] [data-moderation="pending"]')).toHaveCount(2);
  await expect(picture(page, 1)).toContainText('Venter på godkendelse');
  // The first picture of an advert becomes its primary one.
  await expect(picture(page, 1).getByTestId('primary-marker')).toHaveText('Primært billede');
  await expect(picture(page, 2).getByTestId('primary-marker')).toHaveCount(0);
  await expect(picture(page, 1).locator('img')).toHaveJSProperty('complete', true);
  expect(await picture(page, 1).locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // A text file named .jpg: refused, with the reason in Danish; nothing is added.
  await page.getByLabel('Vælg billeder').setInputFiles(fake);
  await expect(page.getByTestId('pictures-uploads').locator('li', { hasText: 'ikke-et-billede.jpg' })).toContainText(
    'Filen er ikke et billede, vi kan bruge.',
  );
  await expect(page.locator('[data-picture-id]')).toHaveCount(2);
  await checkA11y(page);

  // Over 25 MB: refused in the browser, nothing sent.
  const big = scratch.file('stort-billede.jpg');
  writeFileSync(big, Buffer.alloc(26 * 1024 * 1024));
  let sent = 0;
  page.on('request', (request) => {
    if (request.url().includes('/profilepictureuploader')) sent += 1;
  });
  await page.getByLabel('Vælg billeder').setInputFiles(big);
  await expect(page.getByTestId('pictures-uploads').locator('li', { hasText: 'stort-billede.jpg' })).toContainText(
    'Billedet fylder mere end 25 MB. Vælg et mindre billede.',
  );
  expect(sent).toBe(0);

  // Keyboard: "move down" on picture 1 moves it to the second place, says so, and keeps the focus.
  const before = await pictureOrder(page);
  await page.getByRole('button', { name: 'Flyt ned: Billede 1' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('reorder-status')).toHaveText('Billedet er flyttet til plads 2 af 2.');
  await expect.poll(() => pictureOrder(page)).toEqual([before[1], before[0]]);
  await expect(page.getByRole('button', { name: 'Flyt op: Billede 2' })).toBeFocused();
  await page.reload();
  await expect.poll(() => pictureOrder(page)).toEqual([before[1], before[0]]);

  // Primary: after the move the primary picture is second; picture 1 becomes the primary one, and stays so.
  await expect(picture(page, 2).getByTestId('primary-marker')).toBeVisible();
  await page.getByRole('button', { name: 'Gør Billede 1 til primært billede' }).click();
  await expect(picture(page, 1).getByTestId('primary-marker')).toHaveText('Primært billede');
  await expect(picture(page, 2).getByTestId('primary-marker')).toHaveCount(0);
  await page.reload();
  await expect(picture(page, 1).getByTestId('primary-marker')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Gør Billede 2 til primært billede' })).toBeVisible();

  // Offline: picture 2 is hidden from the advert, and stays so.
  await expect(picture(page, 2).getByLabel('Vis i annoncen')).toBeChecked();
  await picture(page, 2).getByLabel('Vis i annoncen').uncheck();
  await expect(page.getByText('Billedet er skjult fra annoncen.')).toBeVisible();
  await page.reload();
  await expect(picture(page, 2).getByLabel('Vis i annoncen')).not.toBeChecked();
  await expect(picture(page, 1).getByLabel('Vis i annoncen')).toBeChecked();

  // Delete after a confirmation: cancelling keeps it, confirming removes it.
  const keep = await picture(page, 1).getAttribute('data-picture-id');
  await page.getByRole('button', { name: 'Slet Billede 2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Vil du slette billedet?' });
  await expect(dialog).toBeVisible();
  await checkA11y(page);
  await dialog.getByRole('button', { name: 'Annuller' }).click();
  await expect(page.locator('[data-picture-id]')).toHaveCount(2);
  await page.getByRole('button', { name: 'Slet Billede 2' }).click();
  await dialog.getByRole('button', { name: 'Slet billede' }).click();
  await expect(page.locator('[data-picture-id]')).toHaveCount(1);
  await page.reload();
  await expect(page.locator('[data-picture-id]')).toHaveCount(1);
  expect(await pictureOrder(page)).toEqual([keep]);

  // The English twin.
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Pictures' })).toBeVisible();
  await expect(picture(page, 1)).toContainText('Waiting for approval');
  await expect(picture(page, 1)).toContainText('Primary picture');
  await expect(picture(page, 1).getByLabel('Show on the advert')).toBeChecked();
  await expect(page.getByRole('button', { name: 'Delete Picture 1' })).toBeVisible();
  await page.getByLabel('Choose pictures').setInputFiles(fake);
  await expect(page.getByTestId('pictures-uploads').locator('li', { hasText: 'ikke-et-billede.jpg' })).toContainText(
    'The file is not a picture we can use.',
  );
  await checkA11y(page);

  // Desktop: a picture dropped on the drop zone is added too.
  const dropped = [...(await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 40, g: 120, b: 90 } } }).png().toBuffer())];
  const transfer = await page.evaluateHandle((bytes) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(bytes)], 'trukket.png', { type: 'image/png' }));
    return data;
  }, dropped);
  await page.getByTestId('pictures-drop-zone').dispatchEvent('dragover', { dataTransfer: transfer });
  await page.getByTestId('pictures-drop-zone').dispatchEvent('drop', { dataTransfer: transfer });
  await expect(page.getByTestId('pictures-uploads').locator('li', { hasText: 'trukket.png' })).toContainText('Added – waiting for approval.');
  await expect(page.locator('[data-picture-id]')).toHaveCount(2);
  await page.getByRole('button', { name: /^da/i }).click();
});

test('a video shows "converting", then the poster and the player without a reload, and the hub connection is shown', async ({ page, checkA11y }) => {
  test.setTimeout(120_000);
  const clip = makeClip('klip.mp4');
  await createAdvertiser(page);

  await page.goto('/backend/videos/');
  await expect(page.getByRole('heading', { level: 1, name: 'Videoer' })).toBeVisible();
  await expect(page.getByTestId('videos-empty')).toBeVisible();
  await expect(page.getByTestId('hub-state')).toHaveAttribute('data-state', 'connected');
  await expect(page.getByTestId('hub-state')).toHaveText('Forbundet: videoer opdateres automatisk, når de er klar.');
  await checkA11y(page);

  // Every state the item passes through, and a marker that a reload would wipe.
  await page.evaluate(() => {
    const w = window as unknown as { seenStates: string[]; notReloaded: boolean };
    w.notReloaded = true;
    w.seenStates = [];
    const record = () =>
      document.querySelectorAll('[data-video-id]').forEach((item) => {
        const state = item.getAttribute('data-processing') ?? '';
        if (w.seenStates.at(-1) !== state) w.seenStates.push(state);
      });
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-processing'] });
  });

  // Longer than 3 minutes: the browser reads the duration and refuses it before sending.
  let videoCalls = 0;
  page.on('request', (request) => {
    if (request.url().includes('/profilevideouploader')) videoCalls += 1;
  });
  await page.getByLabel('Vælg en video').setInputFiles(makeLongClip('langt-klip.webm'));
  await expect(page.getByTestId('video-upload-result')).toHaveText('Videoen er længere end 3 minutter. Klip den kortere, og prøv igen.');
  expect(videoCalls).toBe(0);
  await expect(page.getByTestId('videos-empty')).toBeVisible();

  await page.getByLabel('Vælg en video').setInputFiles(clip);
  await expect(page.getByTestId('video-upload-result')).toHaveText('Videoen er sendt. Vi konverterer den nu – den bliver opdateret her, når den er klar.');
  const item = page.locator('[data-video-id]');
  await expect(item).toHaveCount(1);
  await expect(item).toHaveAttribute('data-processing', 'ready', { timeout: 60_000 });
  const player = item.locator('video');
  await expect(player).toHaveAttribute('preload', 'none');
  await expect(player).toHaveAttribute('controls', '');
  const poster = await player.getAttribute('poster');
  expect(poster).toBeTruthy();
  const posterAnswer = await page.request.get(poster!);
  expect(posterAnswer.ok()).toBe(true);
  expect(posterAnswer.headers()['content-type']).toMatch(/^image\//);
  const videoAnswer = await page.request.get((await player.getAttribute('src'))!);
  expect(videoAnswer.ok()).toBe(true);
  expect(videoAnswer.headers()['content-type']).toMatch(/^video\/mp4/);
  const seen = await page.evaluate(() => {
    const w = window as unknown as { seenStates: string[]; notReloaded?: boolean };
    return { notReloaded: w.notReloaded, seenStates: w.seenStates };
  });
  expect(seen.notReloaded).toBe(true);
  expect(seen.seenStates[0]).toBe('converting');
  expect(seen.seenStates.at(-1)).toBe('ready');
  await expect(item).toContainText('Venter på godkendelse');
  await checkA11y(page);

  // Offline, kept after a reload; the English twin; delete after a confirmation.
  await item.getByLabel('Vis i annoncen').uncheck();
  await expect(page.getByText('Videoen er skjult fra annoncen.')).toBeVisible();
  await page.reload();
  await expect(page.locator('[data-video-id]').getByLabel('Vis i annoncen')).not.toBeChecked();
  await expect(page.locator('[data-video-id] video')).toHaveAttribute('poster', poster!);

  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Videos' })).toBeVisible();
  await expect(page.getByTestId('hub-state')).toHaveText('Connected: videos update by themselves when they are ready.');
  await expect(page.locator('[data-video-id]')).toContainText('Waiting for approval');
  await page.getByRole('button', { name: /^da/i }).click();

  await page.getByRole('button', { name: 'Slet Video 1' }).click();
  await page.getByRole('dialog', { name: 'Vil du slette videoen?' }).getByRole('button', { name: 'Slet video' }).click();
  await expect(page.getByTestId('videos-empty')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('videos-empty')).toBeVisible();
});

test('a picture added on /create is in the new advert\'s pictures after the account is created', async ({ page, baseURL, checkA11y }) => {
  const photo = await makePicture('opret.jpg', 'jpeg', 280);
  const spare = await makePicture('fortryd.png', 'png', 90);
  await page.goto('/create/');
  await islandsReady(page);
  await expect(page.getByRole('heading', { name: 'Billeder (valgfrit)' })).toBeVisible();

  // Two added, one removed again: only the kept one is attached.
  await page.getByLabel('Vælg billeder').setInputFiles([photo, spare]);
  const previews = page.getByTestId('create-pictures-list').locator('li');
  await expect(previews).toHaveCount(2);
  await checkA11y(page);
  await page.getByRole('button', { name: 'Fjern Billede 2' }).click();
  await expect(previews).toHaveCount(1);

  // The sign-up, confirmed by the emailed link with the password: then the advert is the owner's to see.
  const email = `${unique('opret-billede')}@example.invalid`;
  await fillCreateForm(page, { email, phone: newPhone(), name: 'Billedtest' });
  await page.getByRole('button', { name: 'Opret konto og annonce' }).click();
  const support = await supportAdminRequest(baseURL!);
  await confirmSignUpInBrowser(page, outboxInbox(support), email, CREATE_WORDS.da);
  await support.dispose();

  await page.goto('/backend/pictures/');
  await expect(page.getByRole('heading', { level: 1, name: 'Billeder' })).toBeVisible();
  await expect(page.locator('[data-picture-id]')).toHaveCount(1);
  await expect(page.locator('[data-picture-id]')).toContainText('Venter på godkendelse');
});
