/**
 * Support refunds an order and the advertiser sees the credit note (issue 16): a fresh advertiser buys a
 * 30-day package with the TEST card provider (approved, the postback before the return), support finds the
 * order by its number, marks it refunded with a reason (a blank reason is refused and what was chosen
 * stays), confirms, and the order shows Refunded with the credit note and its PDF link; the advertiser
 * then reads the credit note in purchasehistoryreceipt (JSON and PDF).
 */
import { test, expect, createSupportUser, signInSupport } from './fixtures.ts';
import { createAdvertiser } from './advertisers.ts';
import { buyPackageByApi } from './commerce.ts';

type ReceiptAnswer = { order: { status: number }; documents: { kind: string; number: number; numberText: string; refersTo: { number: number } | null; pdfUrl: string }[] };

test('support refunds an order with a reason and the advertiser sees the credit note', async ({ page, baseURL, checkA11y }) => {
  // The advertiser buys a package (their session is on the page's context).
  await createAdvertiser(page);
  const orderId = await buyPackageByApi(page);
  const paid = (await (await page.request.get('/api/backend/purchasehistoryreceipt', { params: { Id: String(orderId) } })).json()) as ReceiptAnswer;
  expect(paid.order.status).toBe(1);
  const receipt = paid.documents.find((document) => document.kind === 'receipt')!;

  // Support (their session cookie is another one, on the same browser) finds the order and refunds it.
  const user = await createSupportUser(baseURL!, { permissions: ['Support'] });
  expect((await signInSupport(page.context().request, user)).status()).toBe(200);
  await page.goto('/support/orders/');
  await page.getByLabel('Ordrenummer').fill(String(orderId));
  await page.getByRole('button', { name: 'Søg', exact: true }).click();
  await page.locator(`tr[data-order="${orderId}"]`).getByRole('link', { name: `Ordre ${orderId}`, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Ordre ${orderId}` })).toBeVisible();

  const change = page.getByTestId('order-status-change');
  await change.getByLabel(/^Refunderet/).check();
  await change.getByRole('button', { name: 'Skift status' }).click();
  await expect(change.getByText('Skal udfyldes.')).toBeVisible();
  await expect(change.getByLabel(/^Refunderet/)).toBeChecked();
  await checkA11y(page);

  await change.getByLabel('Begrundelse').fill('Annoncøren fortrød købet inden for 14 dage.');
  await change.getByRole('button', { name: 'Skift status' }).click();
  await expect(change.getByRole('alertdialog')).toContainText(`Markér ordre ${orderId} som refunderet?`);
  await change.getByRole('button', { name: 'Bekræft statusskift' }).click();

  await expect(page.getByText('Status er skiftet. Kreditnotaen ligger under Bilag.')).toBeVisible();
  await expect(change).toContainText('Kun en betalt ordre kan refunderes');
  const documents = page.getByRole('region', { name: 'Ordrens bilag' });
  await expect(documents).toContainText('Kreditnota');
  const creditRow = documents.locator('tr', { hasText: 'Kreditnota' });
  await expect(creditRow).toContainText(receipt.numberText);
  const pdfLink = creditRow.getByRole('link', { name: /^Hent PDF/ });
  const supportPdf = await page.request.get((await pdfLink.getAttribute('href'))!);
  expect(supportPdf.status()).toBe(200);
  expect(supportPdf.headers()['content-type']).toBe('application/pdf');
  await expect(page.locator('section[aria-labelledby="order-events"]')).toContainText('Annoncøren fortrød købet inden for 14 dage.');
  await checkA11y(page);

  // The advertiser reads the credit note with the receipt, and downloads it.
  const after = (await (await page.request.get('/api/backend/purchasehistoryreceipt', { params: { Id: String(orderId) } })).json()) as ReceiptAnswer;
  expect(after.order.status).toBe(4);
  const creditNote = after.documents.find((document) => document.kind === 'credit_note');
  expect(creditNote?.refersTo?.number).toBe(receipt.number);
  const pdf = await page.request.get(creditNote!.pdfUrl);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
});
