/**
 * Administration's products (issue 16): an Administration user (two-step sign-in on) finds the products in
 * the menu, sees each with its price incl. VAT and the VAT, changes a price typed in kroner (a price that is
 * not an amount is refused and kept as typed), and the advertiser's buy page offers the new price while an
 * order bought before keeps the old one; then, in English, retires the product after a confirmation, and it
 * is no longer offered.
 *
 * Products are shared by every test on the server: this one changes the 90-day package, which no other
 * browser test buys or looks for (they use the 30-day one), and puts it back as it was at the end.
 */
import type { ProductItem } from '#lib/schemas/orders.ts';
import { test, expect, createSupportUser, signInSupport } from './fixtures.ts';
import { createAdvertiser } from './advertisers.ts';
import { buyPaidProduct } from './commerce.ts';

const CODE = 'membership-90';

test('Administration changes a price and retires a product; the buy page follows and an earlier order keeps its price', async ({ page, baseURL, checkA11y }) => {
  test.setTimeout(120_000);
  // An advertiser buys the package at today's price (their session is on the page's context).
  await createAdvertiser(page);
  const earlier = await buyPaidProduct(page, CODE);

  // An Administration user (their session cookie is another one, on the same browser).
  const admin = await createSupportUser(baseURL!, { permissions: ['Administration'], twoFactor: true });
  expect((await signInSupport(page.context().request, admin)).status()).toBe(200);
  const original = ((await (await page.request.get('/api/support/products')).json()) as ProductItem[]).find((product) => product.code === CODE)!;
  expect(original).toMatchObject({ nameDa: 'Annonce i 90 dage', priceOre: 119_900, active: true });

  try {
    await page.goto('/support/users/');
    await page.getByRole('navigation', { name: 'Menu for kundeservice' }).getByRole('link', { name: 'Produkter' }).click();
    await expect(page).toHaveURL(/\/support\/products\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Produkter' })).toBeVisible();
    await expect(page.getByText('ordrer beholder den pris, de blev købt til')).toBeVisible();
    const row = page.locator(`tr[data-product="${CODE}"]`);
    await expect(row).toContainText('Advert for 90 days');
    await expect(row).toContainText('Annoncepakke');
    await expect(row.locator('[data-price]')).toHaveText('1.199,00 DKK');
    await expect(row).toContainText('239,80 DKK');
    await expect(row).toContainText('Sælges');
    await checkA11y(page);

    // A price that is not an amount is refused at its field and kept as typed.
    await row.getByRole('link', { name: 'Ret Annonce i 90 dage' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Annonce i 90 dage' })).toBeVisible();
    await expect(page.locator('[data-keeps-price]')).toContainText('Ordrer beholder den pris');
    const price = page.getByLabel('Pris i kr. inkl. moms');
    await expect(price).toHaveValue('1.199,00');
    await price.fill('1.299,505');
    await page.getByRole('button', { name: 'Gem' }).click();
    await expect(page.getByText('Skriv et tal.')).toBeVisible();
    await expect(price).toHaveValue('1.299,505');
    await checkA11y(page);

    await price.fill('1.299,50');
    await page.getByRole('button', { name: 'Gem' }).click();
    await expect(page.getByText('Produktet er gemt.')).toBeVisible();
    await expect(page.locator('[data-product-facts]')).toContainText('1.299,50 DKK inkl. moms (259,90 DKK moms)');
    await expect(price).toHaveValue('1.299,50');

    // The advertiser is offered the new price; the order bought before keeps the old one.
    await page.goto('/backend/buy-advert-package/');
    await expect(page.getByRole('radio', { name: /^Annonce i 90 dage.*1\.299,50 DKK/ })).toBeVisible();
    await page.goto('/backend/purchase-history/');
    await expect(page.locator(`tr[data-order="${earlier}"]`)).toContainText('1.199,00 DKK');

    // In English: the product is retired after a confirmation.
    await page.goto(`/support/products/${original.id}/`);
    await page.getByRole('button', { name: /^en/i }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Advert for 90 days' })).toBeVisible();
    await expect(page.locator('[data-keeps-price]')).toContainText('Orders keep the price');
    await page.getByRole('checkbox', { name: /^On sale/ }).uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    const question = page.getByRole('alertdialog');
    await expect(question).toContainText('Retire Advert for 90 days?');
    await checkA11y(page);
    await question.getByRole('button', { name: 'Retire' }).click();
    await expect(page.getByText('The product is saved.')).toBeVisible();
    await expect(page.locator('[data-product-facts]')).toContainText('Retired');

    // No longer offered.
    // The screen is in English now (the language chosen above): so are the products' names (issue 29).
    await page.goto('/backend/buy-advert-package/');
    await expect(page.getByRole('heading', { level: 1, name: 'Buy advert package' })).toBeVisible();
    await expect(page.getByRole('radio', { name: /^Advert for 30 days(?!,)/ })).toBeVisible();
    await expect(page.getByRole('radio', { name: /Advert for 90 days/ })).toHaveCount(0);
  } finally {
    const { id, nameDa, nameEn, priceOre, days, active } = original;
    const restored = await page.request.post('/api/support/product', { data: { Id: id, NameDa: nameDa, NameEn: nameEn, PriceOre: priceOre, Days: days, Active: active } });
    expect(restored.status(), await restored.text()).toBe(200);
  }
});
