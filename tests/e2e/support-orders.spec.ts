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
