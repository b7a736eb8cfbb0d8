/**
 * Receipts for the demo's paid orders (issue 16 "Demo content": past orders with receipts), made once after
 * the demo seed (the database layer may not issue documents itself). Only demo orders (`TEST-PAY-DEMO-…`)
 * without a receipt, the oldest `limit` of them, each with the period its promotion ran.
 */
import { and, asc, eq, isNull, like, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders, promotions, salesDocuments } from '../../db/schema.ts';
import { ORDER_STATUS } from './order-status.ts';
import { issueSalesDocument, lineOf } from './sales-documents.ts';

export async function issueDemoReceipts(db: Db, options: { limit: number }): Promise<number> {
  const rows = await db
    .select({ order: orders, startsAt: promotions.startsAt, endsAt: promotions.endsAt })
    .from(orders)
    .leftJoin(promotions, eq(promotions.orderId, orders.id))
    .leftJoin(salesDocuments, and(eq(salesDocuments.orderId, orders.id), eq(salesDocuments.kind, 'receipt')))
    .where(and(like(orders.referenceId, 'TEST-PAY-DEMO-%'), eq(orders.status, ORDER_STATUS.Paid), isNull(salesDocuments.id)))
    .orderBy(asc(sql`coalesce(${orders.paidAt}, ${orders.createdAt})`), asc(orders.id))
    .limit(options.limit);
  await db.transaction(async (tx) => {
    for (const { order, startsAt, endsAt } of rows) {
      await issueSalesDocument(tx, {
        kind: 'receipt',
        orderId: order.id,
        locale: order.locale,
        lines: [lineOf(order.productDescription, order.totalPriceOre, { start: order.periodStart ?? startsAt, end: order.periodEnd ?? endsAt })],
        now: order.paidAt ?? order.createdAt,
      });
    }
  });
  return rows.length;
}
