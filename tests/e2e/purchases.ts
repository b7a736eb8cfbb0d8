/**
 * Purchases for browser tests: the signed-in advertiser of the page buys a product by card through the API
 * and approves it on the TEST card provider's page (the postback before the return), as a buyer would, so
 * the order is paid with its receipt when this returns.
 */
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

type ProductOffer = { id: number; code: string };
type Bought = { orderId: number; next: { kind: 'redirect'; url: string } | { kind: 'form'; action: string } };

/** Buys and pays the product with this code (one of the offers of its type: 1 package, 2 and 3 boosts); answers the order's id. */
export async function buyPaidProduct(page: Page, code: string, typeId = 1): Promise<number> {
  const offers = (await (await page.request.get('/api/backend/promotions', { params: { TypeId: String(typeId) } })).json()) as { products: ProductOffer[] };
  const product = offers.products.find((offer) => offer.code === code);
  if (!product) throw new Error(`${code} is not offered`);
  const buy = await page.request.post('/api/backend/buyproduct', { data: { ProductId: product.id, PaymentMethod: 'card' } });
  expect(buy.status(), await buy.text()).toBe(200);
  const bought = (await buy.json()) as Bought;
  const providerPage = new URL(bought.next.kind === 'redirect' ? bought.next.url : bought.next.action).pathname;
  const approved = await page.request.post(providerPage, { form: { outcome: 'approve', timing: 'before-return' }, maxRedirects: 0 });
  expect(approved.status()).toBe(303);
  return bought.orderId;
}
