/**
 * Support's orders (spec §7 orders: Skip, Take, TransactionId, Id, ProfileId, ProductDescription,
 * TotalPrice; plus status, a period and the orders flagged for refund): search and page, one order with its status moves, its raw
 * postbacks and its documents, and a document as PDF. Permission: Support (`orders:manage:any`).
 * Moving an order's status is the order core's (`changeOrderStatus`), not this file's.
 */
import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, lt, type SQL } from 'drizzle-orm';
import { kronerToOre } from '#lib/money.ts';
import type { SupportOrderDetail, SupportOrderItem, SupportOrdersQueryInput } from '#lib/schemas/orders.ts';
import { accounts, adverts, orderEvents, orders, paymentEvents, salesDocuments, type Order } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { askedLocale, documentAnswers, documentPdf, listOrderDocumentRows, orderSummaryOf, type DocumentPdf, type PdfUrlOf } from './order-documents.ts';
import { startOfCopenhagenDay, dayAfter } from './copenhagen-days.ts';
import { containing } from '../../db/like.ts';

const supportPdfUrl: PdfUrlOf = (document) => `/api/support/orderdocument?Id=${document.id}`;


function conditionsOf(query: SupportOrdersQueryInput): SQL[] {
  const where: SQL[] = [];
  if (query.Id !== '') where.push(eq(orders.id, query.Id));
  if (query.TransactionId) where.push(eq(orders.transactionId, query.TransactionId));
  if (query.ProfileId !== '') where.push(eq(orders.advertId, query.ProfileId));
  if (query.ProductDescription) where.push(ilike(orders.productDescription, containing(query.ProductDescription)));
  const price = kronerToOre(query.TotalPrice);
  if (price !== null) where.push(eq(orders.totalPriceOre, price));
  if (query.Status !== '') where.push(eq(orders.status, query.Status));
  if (query.From) where.push(gte(orders.createdAt, startOfCopenhagenDay(query.From)));
  if (query.To) where.push(lt(orders.createdAt, startOfCopenhagenDay(dayAfter(query.To))));
  if (query.RefundFlagged) where.push(isNotNull(orders.refundFlaggedAt));
  return where;
}

function itemOf(order: Order, receiptNumber: number | null): SupportOrderItem {
  return {
    ...orderSummaryOf(order),
    profileId: order.advertId,
    accountId: order.accountId,
    referenceId: order.referenceId,
    paymentProvider: order.paymentProvider,
    refundFlagged: order.refundFlaggedAt !== null,
    receiptNumber,
  };
}

/** The receipt numbers of some orders, by order id. */
async function receiptNumbersOf(ctx: DomainContext, orderIds: number[]): Promise<Map<number, number>> {
  if (orderIds.length === 0) return new Map();
  const rows = await ctx.db
    .select({ orderId: salesDocuments.orderId, number: salesDocuments.number })
    .from(salesDocuments)
    .where(and(inArray(salesDocuments.orderId, orderIds), eq(salesDocuments.kind, 'receipt')))
    .orderBy(asc(salesDocuments.number));
  const numbers = new Map<number, number>();
  for (const row of rows) if (!numbers.has(row.orderId)) numbers.set(row.orderId, row.number);
  return numbers;
}

/** orders: every key given must match; newest first; paged. */
export async function listSupportOrders(ctx: DomainContext, query: SupportOrdersQueryInput): Promise<{ total: number; items: SupportOrderItem[] }> {
  requirePermission(ctx.actor, 'orders:manage:any');
  const where = and(...conditionsOf(query));
  const [counted] = await ctx.db.select({ total: count() }).from(orders).where(where);
  const rows = await ctx.db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).limit(query.Take).offset(query.Skip);
  const numbers = await receiptNumbersOf(ctx, rows.map((row) => row.id));
  return { total: Number(counted?.total ?? 0), items: rows.map((row) => itemOf(row, numbers.get(row.id) ?? null)) };
}

/** order: one order with its advert and account, status moves, raw postbacks (as stored) and documents. */
export async function getSupportOrder(ctx: DomainContext, id: number): Promise<SupportOrderDetail> {
  requirePermission(ctx.actor, 'orders:manage:any');
  const [row] = await ctx.db
    .select({ order: orders, advertName: adverts.name, accountEmail: accounts.email })
    .from(orders)
    .leftJoin(adverts, eq(adverts.id, orders.advertId))
    .leftJoin(accounts, eq(accounts.id, orders.accountId))
    .where(eq(orders.id, id))
    .limit(1);
  if (!row) throw notFound('Order');
  const { order } = row;
  const [events, postbacks, documentRows] = await Promise.all([
    ctx.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id)),
    ctx.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, id)).orderBy(asc(paymentEvents.id)),
    listOrderDocumentRows(ctx.db, id),
  ]);
  const documents = await documentAnswers(ctx.db, documentRows, supportPdfUrl);
  return {
    ...itemOf(order, documentRows.find((doc) => doc.kind === 'receipt')?.number ?? null),
    advertName: row.advertName,
    accountEmail: row.accountEmail,
    productId: order.productId,
    locale: order.locale,
    expiresAt: order.expiresAt?.toISOString() ?? null,
    fulfilledAt: order.fulfilledAt?.toISOString() ?? null,
    refundFlaggedAt: order.refundFlaggedAt?.toISOString() ?? null,
    refundFlagReason: order.refundFlagReason,
    events: events.map((event) => ({
      id: event.id,
      fromStatus: event.fromStatus,
      toStatus: event.toStatus,
      actorType: event.actorType,
      actorId: event.actorId,
      reason: event.reason,
      paymentEventId: event.paymentEventId,
      createdAt: event.createdAt.toISOString(),
    })),
    paymentEvents: postbacks.map((event) => ({
      id: event.id,
      provider: event.provider,
      eventKey: event.eventKey,
      method: event.method,
      rawQuery: event.rawQuery,
      rawBody: event.rawBody,
      signature: event.signature,
      kind: event.kind,
      outcome: event.outcome,
      reason: event.reason,
      receivedAt: event.receivedAt.toISOString(),
    })),
    documents,
  };
}

/** orderdocument: any order's document as a PDF (in `locale`, else the document's own language). */
export async function getSupportDocumentPdf(ctx: DomainContext, input: { id: number; locale: '' | 'da' | 'en' }): Promise<DocumentPdf> {
  requirePermission(ctx.actor, 'orders:manage:any');
  const [document] = await ctx.db.select().from(salesDocuments).where(eq(salesDocuments.id, input.id)).limit(1);
  if (!document) throw notFound('Document');
  return documentPdf(ctx.db, document, askedLocale(input.locale));
}
