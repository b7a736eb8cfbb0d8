/**
 * The advertiser's own order's documents (purchasehistoryreceipt: receipt, full invoices, credit notes as
 * JSON or one as a PDF) and the full invoice made on request (purchasehistoryinvoice). Another account's
 * order is answered as a missing one (404), so order ids tell nothing.
 */
import { and, eq } from 'drizzle-orm';
import type { FullInvoiceAnswer, FullInvoiceRequestInput, PurchaseReceiptAnswer } from '#lib/schemas/orders.ts';
import { orders, type Order } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { requireAdvertiser } from '../permissions.ts';
import { writeAudit } from '../audit.ts';
import { askedLocale, documentAnswers, documentPdf, listOrderDocumentRows, orderSummaryOf, type DocumentPdf, type PdfUrlOf } from './order-documents.ts';
import { issueSalesDocument, type SalesDocumentRow } from './sales-documents.ts';
import { namesOfOrder, namesOfProducts } from './product-names.ts';

const advertiserPdfUrl: PdfUrlOf = (document) => `/api/backend/purchasehistoryreceipt?Id=${document.orderId}&DocumentId=${document.id}&Format=pdf`;

/** The signed-in advertiser's order, or 404 (also for another account's order). */
async function requireOwnOrder(ctx: DomainContext, orderId: number, db: Db = ctx.db, lock = false): Promise<Order> {
  requireAdvertiser(ctx.actor);
  const query = db.select().from(orders).where(and(eq(orders.id, orderId), eq(orders.accountId, ctx.actor.accountId))).limit(1);
  const [order] = lock ? await query.for('update') : await query;
  if (!order) throw notFound('Order');
  return order;
}

/** The receipt of the order and the full invoice made for it, if any. */
function receiptAndInvoice(rows: readonly SalesDocumentRow[]): { receipt: SalesDocumentRow | null; invoice: SalesDocumentRow | null } {
  const receipt = rows.find((row) => row.kind === 'receipt') ?? null;
  const invoice = receipt ? (rows.find((row) => row.kind === 'invoice' && row.refersTo === receipt.id) ?? null) : null;
  return { receipt, invoice };
}

/** purchasehistoryreceipt (JSON): the order and its documents, oldest first. */
export async function getPurchaseReceipt(ctx: DomainContext, orderId: number): Promise<PurchaseReceiptAnswer> {
  const order = await requireOwnOrder(ctx, orderId);
  const rows = await listOrderDocumentRows(ctx.db, order.id);
  const { receipt, invoice } = receiptAndInvoice(rows);
  return {
    order: { ...orderSummaryOf(order), productNames: namesOfOrder(order, await namesOfProducts(ctx.db, [order.productId])) },
    documents: await documentAnswers(ctx.db, rows, advertiserPdfUrl),
    canRequestInvoice: receipt !== null && invoice === null,
  };
}

/** purchasehistoryreceipt (PDF): one document of the order (`documentId`), else its receipt. */
export async function getPurchaseDocumentPdf(
  ctx: DomainContext,
  input: { orderId: number; documentId: number | null; locale: '' | 'da' | 'en' },
): Promise<DocumentPdf> {
  const order = await requireOwnOrder(ctx, input.orderId);
  const rows = await listOrderDocumentRows(ctx.db, order.id);
  const document = input.documentId === null ? receiptAndInvoice(rows).receipt : rows.find((row) => row.id === input.documentId);
  if (!document) throw notFound('Document');
  return documentPdf(ctx.db, document, askedLocale(input.locale));
}

/**
 * purchasehistoryinvoice: a full invoice with the buyer's name and address, a new document referring to
 * the order's receipt (the receipt itself never changes). One per receipt: asked again, the one made before
 * is answered (`created: false`), whatever name it carries; the order row is locked so two requests at
 * once make one invoice.
 */
export async function requestFullInvoice(ctx: DomainContext, input: FullInvoiceRequestInput): Promise<FullInvoiceAnswer> {
  const result = await ctx.db.transaction(async (tx) => {
    const order = await requireOwnOrder(ctx, input.Id, tx, true);
    const rows = await listOrderDocumentRows(tx, order.id);
    const { receipt, invoice } = receiptAndInvoice(rows);
    if (!receipt) {
      throw new AppError('CONFLICT', 'The order has no receipt yet', [{ field: 'Id', message: 'noReceipt' }]);
    }
    if (invoice) return { created: false, document: invoice };
    const document = await issueSalesDocument(tx, {
      kind: 'invoice',
      orderId: order.id,
      refersTo: receipt.id,
      locale: receipt.locale,
      buyer: { name: input.Name, address: input.Address, zipCity: input.ZipCity },
      lines: receipt.lines,
      now: ctx.now(),
    });
    await writeAudit(
      { ...ctx, db: tx },
      { action: 'order.invoice_issued', targetType: 'order', targetId: order.id, after: { document: document.id, number: document.number, refersTo: receipt.id } },
    );
    return { created: true, document };
  });
  const [document] = await documentAnswers(ctx.db, [result.document], advertiserPdfUrl);
  return { created: result.created, document: document! };
}
