import { randomBytes } from 'node:crypto';
import { and, desc, eq, type SQL, type WithSubquery } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orderEvents, orders, salesDocuments } from '../../db/schema.ts';
import { canMoveOrder, type OrderMover, type OrderStatus } from './order-status.ts';
import { issueSalesDocument, lineOf, type SalesDocumentRow } from './sales-documents.ts';

/** The order rows every commerce operation shares: references, the one way a status moves, documents. */

export type OrderRow = typeof orders.$inferSelect;

/** Our reference sent to the provider: 'PAY-…' for live providers, 'TEST-PAY-…' for test providers. */
export function newReference(test: boolean): string {
  return `${test ? 'TEST-PAY-' : 'PAY-'}${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x').toUpperCase()}`;
}

export const isTestReference = (reference: string | null | undefined) => (reference ?? '').startsWith('TEST-PAY-');

/** Locks an order row for the rest of the transaction (SELECT … FOR UPDATE). */
export async function lockOrder(tx: Db, where: SQL | undefined): Promise<OrderRow | null> {
  const [row] = await tx.select().from(orders).where(where).orderBy(desc(orders.id)).limit(1).for('update');
  return row ?? null;
}

/** Who moves an order, why (the postback that did, if any) and when. */
export type OrderMove = { mover: OrderMover; actorId?: number | null; paymentEventId?: number | null; reason?: string | null; now: Date };

/**
 * THE one way an order's status moves (docs/decisions/025-commerce.md): only along ORDER_TRANSITIONS for
 * that mover, with an order_events row; call it inside the transaction that locked the order.
 */
export async function moveOrder(
  tx: Db,
  order: OrderRow,
  to: OrderStatus,
  by: OrderMove,
  set: Partial<OrderRow> = {},
  /** Writes that belong with the move, run in its statement (a paid order's fulfilment: fulfilment.ts's `moveToPaid`). */
  alongWith: WithSubquery[] = [],
): Promise<OrderRow> {
  if (!canMoveOrder(order.status, to, by.mover)) throw new Error(`order ${order.id}: ${order.status} → ${to} is not a move for ${by.mover}`);
  // The history row rides along in the same statement (a data-modifying WITH runs whether or not it is read).
  const logged = tx.$with('logged').as(
    tx
      .insert(orderEvents)
      .values({
        orderId: order.id,
        fromStatus: order.status,
        toStatus: to,
        actorType: by.mover,
        actorId: by.actorId ?? null,
        paymentEventId: by.paymentEventId ?? null,
        reason: by.reason ?? null,
        createdAt: by.now,
      })
      .returning({ eventId: orderEvents.id }),
  );
  const [updated] = await tx
    .with(logged, ...alongWith)
    .update(orders)
    .set({ ...set, status: to, updatedAt: by.now })
    .where(eq(orders.id, order.id))
    .returning();
  return updated!;
}

/** The first line of every order's history: made by the buyer (buyproduct) or by the provider (a rebill). */
export async function recordOrderCreated(
  tx: Db,
  order: Pick<OrderRow, 'id' | 'status'> | Pick<OrderRow, 'id' | 'status'>[],
  by: { actorType: 'advertiser' | 'provider'; actorId?: number | null; reason?: string | null; now: Date },
): Promise<void> {
  const created = Array.isArray(order) ? order : [order];
  if (created.length === 0) return;
  await tx.insert(orderEvents).values(
    created.map((row) => ({
      orderId: row.id,
      fromStatus: null,
      toStatus: row.status,
      actorType: by.actorType,
      actorId: by.actorId ?? null,
      reason: by.reason ?? null,
      createdAt: by.now,
    })),
  );
}

/** A note on an order's history that is not a move (a flagged payment): from and to are the same status. */
export async function noteOrder(tx: Db, order: OrderRow, by: { mover: OrderMover; paymentEventId?: number | null; reason: string; now: Date }): Promise<void> {
  await tx.insert(orderEvents).values({
    orderId: order.id,
    fromStatus: order.status,
    toStatus: order.status,
    actorType: by.mover,
    paymentEventId: by.paymentEventId ?? null,
    reason: by.reason,
    createdAt: by.now,
  });
}

/** The audit entry a document is issued with, its number added under `numberAs` (see issueSalesDocument). */
export type DocumentAudit = Parameters<typeof issueSalesDocument>[2];

/** The receipt of a paid order: one line, the period bought, net and VAT split exactly. */
export function issueReceipt(tx: Db, order: OrderRow, now: Date, audit?: DocumentAudit): Promise<SalesDocumentRow> {
  return issueSalesDocument(
    tx,
    {
      kind: 'receipt',
      orderId: order.id,
      locale: order.locale,
      lines: [lineOf(order.productDescription, order.totalPriceOre, { start: order.periodStart, end: order.periodEnd })],
      now,
    },
    audit,
  );
}

/** The credit note of a refund or chargeback: the receipt's amounts, referring to it. */
export async function issueCreditNote(tx: Db, order: OrderRow, reason: string, now: Date, audit?: DocumentAudit): Promise<SalesDocumentRow> {
  const [receipt] = await tx
    .select({ id: salesDocuments.id })
    .from(salesDocuments)
    .where(and(eq(salesDocuments.orderId, order.id), eq(salesDocuments.kind, 'receipt')))
    .orderBy(desc(salesDocuments.id))
    .limit(1);
  return issueSalesDocument(tx, {
    kind: 'credit_note',
    orderId: order.id,
    refersTo: receipt?.id ?? null,
    locale: order.locale,
    lines: [lineOf(order.productDescription, order.totalPriceOre, { start: order.periodStart, end: order.periodEnd })],
    reason,
    now,
  }, audit);
}
