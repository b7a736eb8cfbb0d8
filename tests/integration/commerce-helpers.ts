/**
 * Orders and sales documents made directly in the database for tests of the calls that read them
 * (purchasehistoryreceipt, support's orders, the bookkeeper's CSV): a paid order with its status move, a
 * stored postback and its receipt (issueSalesDocument), and a credit note for a refund. The order core's
 * own tests buy through the providers; these stand in for a purchase where only its result matters.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { orderEvents, orders, paymentEvents, products, type Order } from '#server/db/schema.ts';
import { ORDER_STATUS } from '#server/domain/commerce/order-status.ts';
import { issueSalesDocument, lineOf, type SalesDocumentRow } from '#server/domain/commerce/sales-documents.ts';
import { vatOf } from '#lib/money.ts';

const DAY = 86_400_000;

export type PaidOrder = { order: Order; receipt: SalesDocumentRow };

/** A paid order for the account's advert, with a stored postback and a receipt. Defaults: the product 'membership-30'. */
export async function createPaidOrder(
  db: Db,
  input: { accountId: number; advertId: number; productCode?: string; locale?: string; paidAt?: Date; transactionId?: string; paymentMethod?: string },
): Promise<PaidOrder> {
  const [product] = await db.select().from(products).where(eq(products.code, input.productCode ?? 'membership-30')).limit(1);
  if (!product) throw new Error(`no product ${input.productCode ?? 'membership-30'} (the reference seed makes them)`);
  const paidAt = input.paidAt ?? new Date();
  const locale = input.locale ?? 'da';
  const description = locale === 'en' ? product.nameEn : product.nameDa;
  const transactionId = input.transactionId ?? `TX-${randomUUID().slice(0, 8)}`;
  return db.transaction(async (tx) => {
    const [order] = await tx
      .insert(orders)
      .values({
        accountId: input.accountId,
        advertId: input.advertId,
        productId: product.id,
        productType: product.type,
        days: product.days,
        productDescription: description,
        totalPriceOre: product.priceOre,
        vatOre: vatOf(product.priceOre),
        status: ORDER_STATUS.Paid,
        transactionId,
        referenceId: `TEST-PAY-${randomUUID()}`,
        paymentMethod: input.paymentMethod ?? 'card',
        paymentProvider: 'cardbilling',
        locale,
        periodStart: paidAt,
        periodEnd: new Date(paidAt.getTime() + product.days * DAY),
        fulfilledAt: paidAt,
        createdAt: new Date(paidAt.getTime() - 60_000),
        paidAt,
      })
      .returning();
    const [postback] = await tx
      .insert(paymentEvents)
      .values({
        provider: 'cardbilling',
        eventKey: `test:${randomUUID()}`,
        orderId: order!.id,
        method: 'GET',
        rawQuery: `saleID=${transactionId}&referenceID=${order!.referenceId}&event=initial&signature=test`,
        signature: 'test',
        kind: 'paid',
        outcome: 'applied',
        receivedAt: paidAt,
      })
      .returning();
    await tx.insert(orderEvents).values({ orderId: order!.id, fromStatus: ORDER_STATUS.Created, toStatus: ORDER_STATUS.Paid, actorType: 'provider', paymentEventId: postback!.id, createdAt: paidAt });
    const receipt = await issueSalesDocument(tx, {
      kind: 'receipt',
      orderId: order!.id,
      locale,
      lines: [lineOf(description, product.priceOre, { start: order!.periodStart, end: order!.periodEnd })],
      now: paidAt,
    });
    return { order: order!, receipt };
  });
}

/** The order refunded: its status moved, with a credit note for the whole receipt. */
export async function refundOrder(db: Db, paid: PaidOrder, input: { reason?: string; at?: Date } = {}): Promise<SalesDocumentRow> {
  const at = input.at ?? new Date();
  return db.transaction(async (tx) => {
    await tx.update(orders).set({ status: ORDER_STATUS.Refunded, updatedAt: at }).where(eq(orders.id, paid.order.id));
    await tx.insert(orderEvents).values({ orderId: paid.order.id, fromStatus: ORDER_STATUS.Paid, toStatus: ORDER_STATUS.Refunded, actorType: 'support', reason: input.reason ?? 'Refusion', createdAt: at });
    return issueSalesDocument(tx, {
      kind: 'credit_note',
      orderId: paid.order.id,
      refersTo: paid.receipt.id,
      locale: paid.receipt.locale,
      lines: paid.receipt.lines,
      reason: input.reason ?? 'Refusion',
      now: at,
    });
  });
}
