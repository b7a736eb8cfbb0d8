/**
 * The advertiser's price list and schedule screens, on fresh advertisers (their advert drafts need not be
 * public): prices, extras, services and payment options kept after a reload, price items reordered by
 * keyboard and by drag, a bad price refused at its field with everything typed kept; opening hours and
 * days off kept after a reload.
 */
import type { Locator, Page } from '@playwright/test';
import { visitorTest as test, expect } from './fixtures.ts';
import { createAdvertiser } from './advertisers.ts';

/** The durations of the price items, in the order the screen lists them. */
async function itemOrder(page: Page): Promise<string[]> {
  const names = await page.locator('[data-price-item] p.font-semibold').allTextContents();
  return names.map((name) => name.trim());
}

/** Adds a price item and waits until the list shows it (the form is emptied for the next one). */
async function addPriceItem(page: Page, form: Locator, minutes: string, incall: string, outcall: string) {
  const before = await page.locator('[data-price-item]').count();
  await form.getByLabel('Varighed i minutter').fill(minutes);
  await form.getByLabel('Pris for incall (DKK)').fill(incall);
  await form.getByLabel('Pris for outcall (DKK)').fill(outcall);
  await form.getByRole('button', { name: 'Tilføj pris' }).click();
  await expect(page.locator('[data-price-item]')).toHaveCount(before + 1);
  await expect(form.getByLabel('Varighed i minutter')).toHaveValue('');
}

test('an advertiser builds a price list, reorders it by keyboard and by drag, and finds it all kept after a reload', async ({ page, checkA11y }) => {
  await createAdvertiser(page);
  await page.goto('/backend/price-list/');
  await expect(page.getByRole('heading', { level: 1, name: 'Priser og services' })).toBeVisible();
  await expect(page.getByText('Du har ikke tilføjet nogen priser endnu.')).toBeVisible();
  await checkA11y(page);

  const addForm = page.locator('form', { has: page.getByRole('heading', { name: 'Tilføj en pris' }) });
  await addPriceItem(page, addForm, '60', '1500', '');
  await expect(page.locator('[data-price-item]')).toHaveCount(1);
  await expect(page.locator('[data-price-item]').first()).toContainText('Incall: 1.500,00 DKK inkl. moms');
  await expect(page.locator('[data-price-item]').first()).toContainText('Outcall: tilbydes ikke');
  await expect(page.getByText('Dine ændringer er gemt.')).toBeVisible();
  // The form is empty again for the next item.
  await expect(addForm.getByLabel('Varighed i minutter')).toHaveValue('');
  await addPriceItem(page, addForm, '120', '2800', '3200,50');
  await addPriceItem(page, addForm, '30', '900', '');
  await expect(page.locator('[data-price-item]')).toHaveCount(3);
  await expect(page.locator('[data-price-item]').nth(1)).toContainText('Outcall: 3.200,50 DKK inkl. moms');
  expect(await itemOrder(page)).toEqual(['60 min', '120 min', '30 min']);

  // A bad price: the notice, the message at the field, and everything typed kept.
  await addForm.getByLabel('Varighed i minutter').fill('45');
  await addForm.getByLabel('Pris for incall (DKK)').fill('mange penge');
  await addForm.getByRole('button', { name: 'Tilføj pris' }).click();
  await expect(addForm.getByRole('alert')).toHaveText('Nogle obligatoriske felter mangler.');
  await expect(addForm.getByText('Skriv et tal.')).toBeVisible();
  await expect(addForm.getByLabel('Pris for incall (DKK)')).toHaveValue('mange penge');
  await expect(addForm.getByLabel('Varighed i minutter')).toHaveValue('45');
  await expect(page.locator('[data-price-item]')).toHaveCount(3);
  await checkA11y(page);
  await addForm.getByLabel('Varighed i minutter').fill('');
  await addForm.getByLabel('Pris for incall (DKK)').fill('');

  // Keyboard: the focused "move down" button moves 60 min one place down and says so.
  await page.getByRole('button', { name: 'Flyt ned: 60 min' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('reorder-status')).toHaveText('60 min er flyttet til plads 2 af 3.');
  await expect.poll(() => itemOrder(page)).toEqual(['120 min', '60 min', '30 min']);
  await expect(page.getByRole('button', { name: 'Flyt ned: 60 min' })).toBeFocused();

  // Drag: 30 min dropped on the first item takes its place.
  await page.locator('[data-price-item]', { hasText: '30 min' }).dragTo(page.locator('[data-price-item]', { hasText: '120 min' }));
  await expect.poll(() => itemOrder(page)).toEqual(['30 min', '120 min', '60 min']);
  await expect(page.getByTestId('reorder-status')).toHaveText('30 min er flyttet til plads 1 af 3.');

  // An extra price item.
  const extraForm = page.locator('form', { has: page.getByRole('heading', { name: 'Tilføj et tillæg' }) });
  await extraForm.getByLabel('Hvad tillægget dækker').fill('Overnatning');
  await extraForm.getByLabel('Pris for tillægget (DKK)').fill('5000');
  await extraForm.getByRole('button', { name: 'Tilføj tillæg' }).click();
  await expect(page.locator('[data-extra-item]')).toContainText('Overnatning');
  await expect(page.locator('[data-extra-item]')).toContainText('5.000,00 DKK inkl. moms');

  // Services (a new advert's choice applies at once) and payment options.
  const gfe = page.getByRole('group', { name: 'Kæresteoplevelse' });
  const firstService = gfe.getByRole('checkbox').nth(0);
  const secondService = gfe.getByRole('checkbox').nth(1);
  await firstService.check();
  await secondService.check();
  await page.getByRole('button', { name: 'Gem ydelser' }).click();
  await expect(page.getByText(/Dine ændringer er gemt/)).toBeVisible();
  const payments = page.getByRole('group', { name: 'Betalingsmuligheder' });
  await payments.getByLabel('Kontant').check();
  await payments.getByLabel('MobilePay').check();
  await page.getByRole('button', { name: 'Gem betalingsmuligheder' }).click();
  await expect(page.getByText('Dine ændringer er gemt.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Gem betalingsmuligheder' })).toBeEnabled();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Priser og services' })).toBeVisible();
  await expect.poll(() => itemOrder(page)).toEqual(['30 min', '120 min', '60 min']);
  await expect(page.locator('[data-extra-item]')).toContainText('Overnatning');
  await expect(page.getByRole('group', { name: 'Kæresteoplevelse' }).getByRole('checkbox').nth(0)).toBeChecked();
  await expect(page.getByRole('group', { name: 'Kæresteoplevelse' }).getByRole('checkbox').nth(1)).toBeChecked();
  await expect(payments.getByLabel('Kontant')).toBeChecked();
  await expect(payments.getByLabel('MobilePay')).toBeChecked();
  await expect(payments.getByLabel('PayPal')).not.toBeChecked();

  // Changing an item, then deleting one.
  await page.getByRole('button', { name: 'Rediger 60 min' }).click();
  const editForm = page.locator('form', { has: page.getByRole('heading', { name: 'Rediger 60 min' }) });
  await expect(editForm.getByLabel('Pris for incall (DKK)')).toHaveValue('1500');
  await editForm.getByLabel('Pris for incall (DKK)').fill('1650');
  await editForm.getByRole('button', { name: 'Gem' }).click();
  await expect(page.locator('[data-price-item]', { hasText: '60 min' })).toContainText('Incall: 1.650,00 DKK inkl. moms');
  // Deleting asks first: cancelling keeps the item, confirming deletes it.
  await page.getByRole('button', { name: 'Slet 120 min' }).click();
  const confirm = page.getByRole('dialog', { name: 'Vil du slette prisen?' });
  await expect(confirm).toContainText('120 min fjernes fra din prisliste.');
  await confirm.getByRole('button', { name: 'Annuller' }).click();
  await expect(confirm).toBeHidden();
  await expect.poll(() => itemOrder(page)).toEqual(['30 min', '120 min', '60 min']);
  await page.getByRole('button', { name: 'Slet 120 min' }).click();
  await confirm.getByRole('button', { name: 'Slet prisen' }).click();
  await expect.poll(() => itemOrder(page)).toEqual(['30 min', '60 min']);

  // In English.
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Prices and services' })).toBeVisible();
  await expect(page.locator('[data-price-item]').first()).toContainText('Incall: 900,00 DKK incl. VAT');
  await expect(page.getByRole('button', { name: 'Move down: 30 min' })).toBeVisible();
  await page.getByRole('button', { name: /^da/i }).click();
});

test('an advertiser sets opening hours and days off, sees "open now", and finds them kept after a reload', async ({ page, checkA11y }) => {
  await createAdvertiser(page);
  await page.goto('/backend/schedule/');
  await expect(page.getByRole('heading', { level: 1, name: 'Tider' })).toBeVisible();
  // A new advert has no hours yet: every day is a day off, and the preview says closed.
  await expect(page.getByTestId('open-now')).toHaveText('Lukket nu');
  await checkA11y(page);

  const day = (name: string) => page.getByRole('group', { name });
  await day('Mandag').getByLabel('Fridag').uncheck();
  await day('Mandag').getByLabel('Fra').fill('10:00');
  await day('Mandag').getByLabel('Til').fill('18:00');
  await day('Tirsdag').getByLabel('Fridag').uncheck();
  await day('Tirsdag').getByLabel('Fra').fill('20:00');
  await day('Tirsdag').getByLabel('Til').fill('02:00');
  // A day opened without times is refused at its fields, the rest kept.
  await day('Onsdag').getByLabel('Fridag').uncheck();
  await page.getByRole('button', { name: 'Gem', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Nogle obligatoriske felter mangler.');
  await expect(day('Onsdag').getByText('Fra: Skriv tidspunktet som tt:mm.')).toBeVisible();
  await expect(day('Mandag').getByLabel('Fra')).toHaveValue('10:00');
  await checkA11y(page);
  // Wednesday stays a day off after all.
  await day('Onsdag').getByLabel('Fridag').check();
  await page.getByRole('button', { name: 'Gem', exact: true }).click();
  await expect(page.getByText('Dine ændringer er gemt.')).toBeVisible();
  await expect(page.getByTestId('open-now')).toHaveText(/^(Åben nu|Lukket nu)$/);

  await page.reload();
  await expect(day('Mandag').getByLabel('Fra')).toHaveValue('10:00');
  await expect(day('Mandag').getByLabel('Til')).toHaveValue('18:00');
  await expect(day('Tirsdag').getByLabel('Fra')).toHaveValue('20:00');
  await expect(day('Tirsdag').getByLabel('Til')).toHaveValue('02:00');
  await expect(day('Onsdag').getByLabel('Fridag')).toBeChecked();
  await expect(day('Søndag').getByLabel('Fridag')).toBeChecked();

  // Monday becomes a day off.
  await day('Mandag').getByLabel('Fridag').check();
  await page.getByRole('button', { name: 'Gem', exact: true }).click();
  await expect(page.getByText('Dine ændringer er gemt.')).toBeVisible();
  await page.reload();
  await expect(day('Mandag').getByLabel('Fridag')).toBeChecked();
  await expect(day('Tirsdag').getByLabel('Fridag')).not.toBeChecked();
  await expect(day('Tirsdag').getByLabel('Fra')).toHaveValue('20:00');
});

test('on a live advert a change of services waits for support, and the screen says which', async ({ page, checkA11y }) => {
  // Demo advert 58 (Active, public) is reserved for this test.
  const response = await page.request.post('/api/frontend/login', { data: { Email: 'demo-58@example.invalid', Password: 'demo-password' } });
  expect(response.ok()).toBe(true);
  await page.goto('/backend/price-list/');
  await expect(page.getByRole('heading', { level: 1, name: 'Priser og services' })).toBeVisible();
  await expect(page.getByTestId('services-pending')).toHaveCount(0);

  const unchecked = page.locator('fieldset input[id^="service-"]:not(:checked)').first();
  const id = await unchecked.getAttribute('id');
  const name = (await page.locator(`label[for="${id}"]`).textContent())!.trim();
  await unchecked.check();
  await page.getByRole('button', { name: 'Gem ydelser' }).click();
  await expect(page.getByText('Dine ændringer er gemt og venter på godkendelse fra support.')).toBeVisible();
  await expect(page.getByTestId('services-pending')).toContainText('Venter på godkendelse');
  await expect(page.getByTestId('services-pending')).toContainText(name);
  await checkA11y(page);

  await page.reload();
  await expect(page.getByTestId('services-pending')).toContainText(name);
  await expect(page.locator(`#${id}`)).toBeChecked();
});
