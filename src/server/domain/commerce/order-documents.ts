/**
 * An order's sales documents as the advertiser's receipt page and support read them, and one of them as a
 * PDF (docs/decisions/025-commerce.md). Reads only; documents are issued by `issueSalesDocument`.
 * No permission checks here: the callers (purchase-receipt.ts, support-orders.ts) check theirs.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import { orders, salesDocuments, type Order } from '../../db/schema.ts';
import { namesOfOrder, namesOfProducts } from './product-names.ts';
import type { OrderSummary, SalesDocumentAnswer, SalesDocumentKindName } from '#lib/schemas/orders.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../errors.ts';
import { asDocumentKind, asDocumentLocale, documentFileName, documentNumberText, renderSalesDocumentPdf, type DocumentLocale } from './receipt-pdf.ts';
import type { SalesDocumentRow } from './sales-documents.ts';

/** The address a document's PDF is downloaded from, for the area that reads it. */
export type PdfUrlOf = (document: Pick<SalesDocumentRow, 'id' | 'orderId'>) => string;

export function orderSummaryOf(order: Order): OrderSummary {
  return {
    id: order.id,
    productDescription: order.productDescription,
    productType: order.productType,
    days: order.days,
    totalPriceOre: order.totalPriceOre,
    vatOre: order.vatOre,
    status: order.status,
    paymentMethod: order.paymentMethod,
    transactionId: order.transactionId,
    createdAt: order.createdAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    periodStart: order.periodStart?.toISOString() ?? null,
    periodEnd: order.periodEnd?.toISOString() ?? null,
  };
}

/** Numbers of the documents that `rows` refer to, by id (they may belong to the same order or not). */
async function referredNumbers(db: Db, rows: readonly SalesDocumentRow[]): Promise<Map<number, number>> {
  const known = new Map(rows.map((row) => [row.id, row.number]));
  const missing = [...new Set(rows.map((row) => row.refersTo).filter((id): id is number => id !== null && !known.has(id)))];
  if (missing.length > 0) {
    const found = await db.select({ id: salesDocuments.id, number: salesDocuments.number }).from(salesDocuments).where(inArray(salesDocuments.id, missing));
    for (const row of found) known.set(row.id, row.number);
  }
  return known;
}

function answerOf(row: SalesDocumentRow, numbers: Map<number, number>, pdfUrlOf: PdfUrlOf): SalesDocumentAnswer {
  const referred = row.refersTo === null ? undefined : numbers.get(row.refersTo);
  return {
    id: row.id,
    kind: asDocumentKind(row.kind) as SalesDocumentKindName,
    number: row.number,
    numberText: documentNumberText(row.number),
    issuedAt: row.issuedAt.toISOString(),
    locale: row.locale,
    refersTo: row.refersTo !== null && referred !== undefined ? { id: row.refersTo, number: referred } : null,
    seller: row.seller,
    buyer: row.buyer ?? null,
    lines: row.lines,
    netOre: row.netOre,
    vatOre: row.vatOre,
    totalOre: row.totalOre,
    vatRateBp: row.vatRateBp,
    reason: row.reason,
    pdfUrl: pdfUrlOf(row),
  };
}

/** The documents of an order, oldest (lowest number) first. */
export async function listOrderDocumentRows(db: Db, orderId: number): Promise<SalesDocumentRow[]> {
  return db.select().from(salesDocuments).where(eq(salesDocuments.orderId, orderId)).orderBy(asc(salesDocuments.number));
}

/** Documents as answers, with the numbers of the documents they refer to. */
export async function documentAnswers(db: Db, rows: readonly SalesDocumentRow[], pdfUrlOf: PdfUrlOf): Promise<SalesDocumentAnswer[]> {
  const numbers = await referredNumbers(db, rows);
  return rows.map((row) => answerOf(row, numbers, pdfUrlOf));
}

export type DocumentPdf = { fileName: string; pdf: Buffer };

/**
 * One document as a PDF, in `locale` or else the document's own language, with its order's payment method
 * and transaction reference.
 */
export async function documentPdf(db: Db, document: SalesDocumentRow, locale: DocumentLocale | null): Promise<DocumentPdf> {
  const [order] = await db.select().from(orders).where(eq(orders.id, document.orderId)).limit(1);
  if (!order) throw notFound('Order');
  const numbers = await referredNumbers(db, [document]);
  const language = locale ?? asDocumentLocale(document.locale);
  const pdf = await renderSalesDocumentPdf({
    document: { ...document, lines: await linesIn(db, order, document.lines, language) },
    orderId: order.id,
    refersToNumber: document.refersTo === null ? null : (numbers.get(document.refersTo) ?? null),
    payment: { method: order.paymentMethod, transactionId: order.transactionId, referenceId: order.referenceId },
    locale: language,
  });
  return { fileName: documentFileName(document.kind, document.number, language), pdf };
}

/**
 * A document's lines in the PDF's language (issue 29: a Danish PDF of an English buyer's receipt named the
 * product in English): a line that names the order's product in one language is named in the other. A
 * line that names neither (the product renamed since) keeps its words, as the document does.
 */
async function linesIn(db: Db, order: Order, lines: SalesDocumentRow['lines'], language: DocumentLocale): Promise<SalesDocumentRow['lines']> {
  const names = namesOfOrder(order, await namesOfProducts(db, [order.productId]));
  if (!names) return lines;
  return lines.map((line) => (line.description === order.productDescription ? { ...line, description: names[language] } : line));
}

/** '' (not asked) → null; 'da' | 'en' → that language. */
export function askedLocale(value: '' | 'da' | 'en'): DocumentLocale | null {
  return value === '' ? null : value;
}
