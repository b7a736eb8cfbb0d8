/**
 * The picture viewer of the advert page (issue 31, item 1): a click on a picture opens it large in a modal
 * viewer with its position, next and previous by buttons, arrow keys and a swipe, Escape and Back close it
 * and the focus returns to the picture; a picture's address opens the page with the viewer. On a phone the
 * carousel shows its position and is reached and scrolled with the keyboard. Danish at desktop size,
 * English at phone size, axe on each state.
 */
import type { APIRequestContext } from '@playwright/test';
import { test, expect, passAgeGate, siteBuildHeaders } from './fixtures.ts';

type Profile = { id: number; name: string; url: string; pictures: { id: number; variants: { width: number }[] }[] };

/** A public advert with at least three pictures (the demo's adverts have one to six). */
async function advertWithPictures(request: APIRequestContext): Promise<Profile> {
  let afterId: number | null = 0;
  while (afterId !== null) {
    const page = (await (await request.get('/api/frontend/fullprofiles', { params: { AfterId: String(afterId), Take: '500', Locale: 'da' }, headers: siteBuildHeaders() })).json()) as {
      items: Profile[];
      nextAfterId: number | null;
    };
    const found = page.items.find((profile) => profile.pictures.length >= 3);
    if (found) return found;
    afterId = page.nextAfterId;
  }
  throw new Error('no public advert with three pictures');
}

test('a picture opens large: position, next and previous, Escape and Back close it, and the focus returns', async ({ page, context, baseURL, request, checkA11y }) => {
  await passAgeGate(context, baseURL);
  await page.setViewportSize({ width: 1366, height: 900 });
  const advert = await advertWithPictures(request);
  const count = advert.pictures.length;
  await page.goto(advert.url);
  const gallery = page.getByRole('list', { name: 'Billeder' });
  const second = gallery.getByRole('link', { name: `Vis billede 2 af ${count} i stor størrelse` });
  await second.click();

  const viewer = page.getByRole('dialog', { name: `Billeder af ${advert.name}` });
  await expect(viewer).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${advert.url}#billede-2$`));
  const position = viewer.locator('[data-viewer-position]');
  await expect(position).toHaveText(`2 / ${count}`);
  await expect(position).toHaveAttribute('aria-live', 'polite');
  // The large copy: the viewer's picture is drawn much larger than its place in the gallery.
  const image = viewer.locator('img[data-viewer-image]');
  await expect(image).toHaveJSProperty('complete', true);
  const shown = await image.boundingBox();
  const inGallery = await second.boundingBox();
  expect(shown!.height).toBeGreaterThan(inGallery!.height * 1.5);
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(await second.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth) - 1);
  await expect(viewer.getByRole('button', { name: 'Luk' })).toBeFocused();
  await checkA11y(page);

  // Next and previous: the arrow keys and the buttons, round at the ends.
  await page.keyboard.press('ArrowRight');
  await expect(position).toHaveText(`3 / ${count}`);
  await expect(page).toHaveURL(new RegExp(`#billede-3$`));
  await viewer.getByRole('button', { name: 'Forrige billede' }).click();
  await expect(position).toHaveText(`2 / ${count}`);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(position).toHaveText(`${count} / ${count}`);
  await viewer.getByRole('button', { name: 'Næste billede' }).click();
  await expect(position).toHaveText(`1 / ${count}`);
  // The rest of the page cannot be reached while the viewer is open.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);

  // Escape closes it, the address loses the picture, and the focus is on the picture it ended on.
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`${advert.url}$`));
  await expect(gallery.getByRole('link', { name: `Vis billede 1 af ${count} i stor størrelse` })).toBeFocused();

  // Back closes it too, and the visitor stays on the advert.
  await second.click();
  await expect(viewer).toBeVisible();
  await page.goBack();
  await expect(viewer).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`${advert.url}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(advert.name);
  await expect(second).toBeFocused();

  // A picture's address opens the page with the viewer; Back then closes it.
  await page.goto('/');
  await page.goto(`${advert.url}#billede-3`);
  await expect(viewer).toBeVisible();
  await expect(position).toHaveText(`3 / ${count}`);
  await page.goBack();
  await expect(viewer).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`${advert.url}$`));
});

test('on a phone the carousel shows its position and scrolls with the keyboard; a swipe moves the viewer (English)', async ({ page, context, baseURL, request, checkA11y }) => {
  await passAgeGate(context, baseURL);
  await page.setViewportSize({ width: 390, height: 844 });
  const advert = await advertWithPictures(request);
  const count = advert.pictures.length;
  await page.goto(`/en${advert.url}`);
  const gallery = page.getByRole('list', { name: 'Pictures' });
  const position = page.locator('[data-gallery-position]');
  await expect(position).toBeVisible();
  await expect(position).toHaveText(`1 / ${count}`);
  // axe's scrollable-region-focusable: the carousel holds focusable pictures.
  await checkA11y(page);

  // The keyboard reaches the pictures in turn, and the carousel scrolls to each.
  const first = gallery.getByRole('link', { name: `Show picture 1 of ${count} full size` });
  const second = gallery.getByRole('link', { name: `Show picture 2 of ${count} full size` });
  await first.focus();
  await page.keyboard.press('Tab');
  await expect(second).toBeFocused();
  await expect(position).toHaveText(`2 / ${count}`);
  await expect(second).toBeInViewport({ ratio: 0.9 });

  await second.click();
  const viewer = page.getByRole('dialog', { name: `Pictures of ${advert.name}` });
  await expect(viewer).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`#picture-2$`));
  const viewerPosition = viewer.locator('[data-viewer-position]');
  await expect(viewerPosition).toHaveText(`2 / ${count}`);
  await checkA11y(page);

  // A swipe to the left shows the next picture, to the right the previous one.
  const stage = viewer.locator('img[data-viewer-image]');
  const box = (await stage.boundingBox())!;
  const swipe = async (fromX: number, toX: number) => {
    const y = box.y + box.height / 2;
    await stage.dispatchEvent('pointerdown', { pointerType: 'touch', clientX: fromX, clientY: y, isPrimary: true, bubbles: true });
    await stage.dispatchEvent('pointerup', { pointerType: 'touch', clientX: toX, clientY: y + 5, isPrimary: true, bubbles: true });
  };
  await swipe(box.x + box.width * 0.8, box.x + box.width * 0.2);
  await expect(viewerPosition).toHaveText(`3 / ${count}`);
  await swipe(box.x + box.width * 0.2, box.x + box.width * 0.8);
  await expect(viewerPosition).toHaveText(`2 / ${count}`);

  await viewer.getByRole('button', { name: 'Close' }).click();
  await expect(viewer).toBeHidden();
  await expect(second).toBeFocused();
});
