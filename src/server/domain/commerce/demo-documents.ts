/**
 * Receipts for the demo's paid orders (issue 16 "Demo content": past orders with receipts), made once after
 * the demo seed (the database layer may not issue documents itself). Only demo orders (`TEST-PAY-DEMO-…`)
 * without a receipt, the oldest `limit` of them, each with the period its promotion ran. Then the demo's
 * refund (`refundDemoOrder`): its old search promotion refunded by support two days after it was paid.
 */
import { and, asc, eq, isNull, like, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders, promotions, salesDocuments } from '../../db/schema.ts';
import { ORDER_STATUS } from './order-status.ts';
import { issueSalesDocument, lineOf } from './sales-documents.ts';
import { issueCreditNote, lockOrder, moveOrder } from './orders.ts';

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

/**
 * The demo's refund: the paid demo order `TEST-PAY-DEMO-…-R` (seed-demo.ts), once it has its receipt, moved
 * to Refunded by support with a credit note referring to the receipt, dated two days after the payment (its
 * promotion was cut short then by the seed). Answers whether it refunded one (false when done already).
 */
export async function refundDemoOrder(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, and(like(orders.referenceId, 'TEST-PAY-DEMO-%-R'), eq(orders.status, ORDER_STATUS.Paid)));
    if (!order) return false;
    const [receipt] = await tx
      .select({ id: salesDocuments.id })
      .from(salesDocuments)
      .where(and(eq(salesDocuments.orderId, order.id), eq(salesDocuments.kind, 'receipt')))
      .limit(1);
    if (!receipt) return false;
    const at = new Date((order.paidAt ?? order.createdAt).getTime() + 2 * 86_400_000);
    const reason = 'Annoncøren fortrød købet inden for 14 dage (demo).';
    const moved = await moveOrder(tx, order, ORDER_STATUS.Refunded, { mover: 'support', reason, now: at });
    await issueCreditNote(tx, moved, reason, at);
    return true;
  });
}
