/**
 * The advertiser's receipt page calls (/api/backend/purchasehistoryreceipt, purchasehistoryinvoice) made from
 * the browser. A document's PDF is a plain download: its `pdfUrl` (add `&Locale=en` for English).
 */
import { createApiClient, type ClientOptions } from './client.ts';
import type { FullInvoiceAnswer, FullInvoiceRequestInput, PurchaseReceiptAnswer } from '../schemas/orders.ts';

export function createPurchaseReceiptsApi(options: ClientOptions = {}) {
  const client = createApiClient('backend', options);
  return {
    /** The own order and its documents; 404 for an order that is not the advertiser's. */
    receipt: (orderId: number, signal?: AbortSignal) =>
      client.get<PurchaseReceiptAnswer>('purchasehistoryreceipt', { searchParams: { Id: orderId }, ...(signal ? { signal } : {}) }),
    /** A full invoice for the order's receipt (201 new, 200 the one made before); 409 `noReceipt` without a receipt. */
    requestInvoice: (body: FullInvoiceRequestInput) => client.post<FullInvoiceAnswer>('purchasehistoryinvoice', { json: body }),
  };
}

export const purchaseReceiptsApi = createPurchaseReceiptsApi();
