/**
 * Support's orders (issue 16): support finds an order by its transaction id (the search stays in the
 * address), opens it and sees its receipt's number with a PDF link that downloads the receipt; the order's
 * status change and raw postbacks are on the same page. Uses a demo order with a receipt (the demo's oldest
 * orders get one, src/server/domain/commerce/demo-documents.ts); reads only.
 */
import { test, expect, createSupportUser, signInSupport } from './fixtures.ts';

type OrderRow = { id: number; transactionId: string | null; receiptNumber: number | null; productDescription: string };

test('support finds an order by transaction id, opens it and sees its receipt number', async ({ page, baseURL, checkA11y }) => {
  const user = await createSupportUser(baseURL!, { permissions: ['Support'] });
  expect((await signInSupport(page.context().request, user)).status()).toBe(200);
  const list = await page.request.get('/api/support/orders', { params: { Take: '200' } });
  expect(list.status()).toBe(200);
  const order = ((await list.json()) as { items: OrderRow[] }).items.find((o) => o.receiptNumber !== null && o.transactionId);
  if (!order) throw new Error('No demo order with a receipt and a transaction id');
  const receiptNumber = String(order.receiptNumber).padStart(6, '0');

  await page.goto('/support/orders/');
  await expect(page.getByRole('heading', { level: 1, name: 'Ordrer' })).toBeVisible();
  await page.getByLabel('Transaktions-id').fill(order.transactionId!);
  await page.getByRole('button', { name: 'Søg', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/support/orders/\\?transactionId=${order.transactionId}$`));
  const row = page.locator(`tr[data-order="${order.id}"]`);
  await expect(row).toContainText(order.productDescription);
  await expect(row).toContainText(receiptNumber);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await checkA11y(page);

  await row.getByRole('link', { name: `Ordre ${order.id}`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/support/orders/${order.id}/$`));
  await expect(page.getByRole('heading', { level: 1, name: `Ordre ${order.id}` })).toBeVisible();
  const documents = page.getByRole('region', { name: 'Ordrens bilag' });
  await expect(documents.getByRole('rowheader', { name: receiptNumber })).toBeVisible();
  await expect(documents).toContainText('Kvittering');
  await expect(page.getByTestId('order-status-change')).toBeVisible();
  await checkA11y(page);

  const pdfLink = documents.getByRole('link', { name: `Hent PDF ${receiptNumber}` });
  const pdf = await page.request.get((await pdfLink.getAttribute('href'))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect(pdf.headers()['content-disposition']).toBe(`attachment; filename="kvittering-${receiptNumber}.pdf"`);
});

/** A yyyy-MM-dd day as the screens show and take it, dd-mm-yyyy. */
const shown = (day: string) => day.split('-').reverse().join('-');
const copenhagenDay = (at: Date) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Copenhagen' }).format(at);

test('orders are searched by Danish days (dd-mm-yyyy), carried as yyyy-MM-dd in the address (issue 31, item 9)', async ({ page, baseURL, checkA11y }) => {
  const user = await createSupportUser(baseURL!, { permissions: ['Support'] });
  expect((await signInSupport(page.context().request, user)).status()).toBe(200);
  const today = copenhagenDay(new Date());
  await page.goto('/support/orders/');
  const from = page.getByLabel('Oprettet fra');
  const to = page.getByLabel('Oprettet til');
  // A text field in Danish order, not the browser's date picker (mm/dd/yyyy in an English Chromium).
  await expect(from).toHaveAttribute('type', 'text');
  await expect(from).toHaveAttribute('placeholder', 'dd-mm-åååå');

  // An impossible day is refused at its field and kept as typed.
  await from.fill('31-02-2026');
  await page.getByRole('button', { name: 'Søg', exact: true }).click();
  await expect(page.locator('#orders-search-from-error')).toHaveText('Skriv datoen som dd-mm-åååå.');
  await expect(from).toHaveValue('31-02-2026');
  await expect(page).toHaveURL(/\/support\/orders\/$/);

  await from.fill('01-01-2020');
  await to.fill(shown(today));
  await page.getByRole('button', { name: 'Søg', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/support/orders/\\?from=2020-01-01&to=${today}$`));
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Oprettet fra')).toHaveValue('01-01-2020');
  await expect(page.getByLabel('Oprettet til')).toHaveValue(shown(today));
  await checkA11y(page);
});

test("the bookkeeper's period defaults to this month on the Danish calendar, also just after Danish midnight (issue 31, item 9)", async ({ page, baseURL }) => {
  const user = await createSupportUser(baseURL!, { permissions: ['Support'] });
  expect((await signInSupport(page.context().request, user)).status()).toBe(200);
  // 23:30 UTC on 30 November is already 1 December in Copenhagen: the period is 1 December alone.
  await page.clock.setFixedTime(new Date('2026-11-30T23:30:00Z'));
  await page.goto('/support/orders/');
  const exportSection = page.getByRole('region', { name: 'Til bogholderiet' });
  await expect(exportSection.getByLabel('Fra')).toHaveValue('01-12-2026');
  await expect(exportSection.getByLabel('Til')).toHaveValue('01-12-2026');
  const byMonth = exportSection.getByRole('link', { name: 'Salg og moms pr. måned (CSV)' });
  await expect(byMonth).toHaveAttribute('href', '/api/support/ordersvatcsv?From=2026-12-01&To=2026-12-01');

  // A period typed in Danish order; an end before the start offers no download.
  await exportSection.getByLabel('Fra').fill('1-11-2026');
  await expect(byMonth).toHaveAttribute('href', '/api/support/ordersvatcsv?From=2026-11-01&To=2026-12-01');
  const csv = await page.request.get((await byMonth.getAttribute('href'))!);
  expect(csv.status()).toBe(200);
  await exportSection.getByLabel('Til').fill('31-10-2026');
  await expect(byMonth).toHaveCount(0);

  // In English the fields say which order to type.
  await page.getByRole('button', { name: /^en/i }).click();
  await expect(page.getByLabel('Created from')).toHaveAttribute('placeholder', 'dd-mm-yyyy');
});
