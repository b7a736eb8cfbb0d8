import { and, asc, eq, isNull, type WithSubquery } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adverts, orders, promotions, type Advert } from '../../db/schema.ts';
import { ORDER_STATUS, PRODUCT_TYPE } from './order-status.ts';
import { moveOrder, type OrderMove, type OrderRow } from './orders.ts';

/**
 * What a paid order gives and what a refund takes back (docs/decisions/025-commerce.md), inside the
 * transaction that moves the order (the move to Paid with its fulfilment is `moveToPaid`). The arithmetic
 * is in pure functions (unit-tested); the writes lock the advert row so a holiday or another order cannot
 * interleave.
 */

const DAY = 86_400_000;

/** The advert's clock an order of this product type moves. */
export type ClockColumn = 'expirationDate' | 'frontPageBoostUntil' | 'searchBoostUntil';

export function clockOf(productType: number): ClockColumn {
  if (productType === PRODUCT_TYPE.FrontpageBoost) return 'frontPageBoostUntil';
  if (productType === PRODUCT_TYPE.SearchBoost) return 'searchBoostUntil';
  return 'expirationDate';
}

const later = (...dates: (Date | null | undefined)[]): Date =>
  new Date(Math.max(...dates.filter((date): date is Date => date instanceof Date).map((date) => date.getTime())));

/**
 * The period an order of `days` buys: from the later of now and the running period of the same kind (a
 * membership from the current expiry, a boost from the end of a running boost), and never before a
 * running holiday ends (decision 011: the holiday's days are given back, so what is bought during one
 * starts when the advertiser is back).
 */
export function periodOf(input: { days: number; now: Date; runningUntil: Date | null; holidayUntil: Date | null }): { start: Date; end: Date } {
  const start = later(input.now, input.runningUntil, input.holidayUntil);
  return { start, end: new Date(start.getTime() + input.days * DAY) };
}

/**
 * What a refund or chargeback takes back: the part of the order's period not yet used (all of it when it
 * has not started, none when it is over). The clock moves back by that much, never to before now.
 */
export function takenBackOf(input: { periodStart: Date | null; periodEnd: Date | null; now: Date; clock: Date | null }): { unusedMs: number; clock: Date | null } {
  if (!input.periodStart || !input.periodEnd || !input.clock) return { unusedMs: 0, clock: input.clock };
  const unusedMs = Math.max(0, input.periodEnd.getTime() - Math.max(input.now.getTime(), input.periodStart.getTime()));
  if (unusedMs === 0) return { unusedMs, clock: input.clock };
  const moved = input.clock.getTime() - unusedMs;
  return { unusedMs, clock: new Date(Math.max(moved, Math.min(input.now.getTime(), input.clock.getTime()))) };
}

/** The advert's clocks (its row locked for the rest of the transaction): only what a payment reads. */
async function lockAdvert(tx: Db, advertId: number): Promise<Pick<Advert, 'id' | ClockColumn | 'holidayUntil' | 'approvedAt'>> {
  const [advert] = await tx
    .select({
      id: adverts.id,
      expirationDate: adverts.expirationDate,
      frontPageBoostUntil: adverts.frontPageBoostUntil,
      searchBoostUntil: adverts.searchBoostUntil,
      holidayUntil: adverts.holidayUntil,
      approvedAt: adverts.approvedAt,
    })
    .from(adverts)
    .where(eq(adverts.id, advertId))
    .for('update');
  if (!advert) throw new Error(`order's advert ${advertId} is missing`);
  return advert;
}

export type Fulfilment = { advertId: number; column: ClockColumn; before: Date | null; after: Date; start: Date; end: Date };

/**
 * The period of a paid order and its writes (the advert's clock and a promotions row) as WITH clauses for
 * the move to Paid; locks the advert. Only for `moveToPaid`: the writes never leave this module.
 */
async function fulfilOrder(
  tx: Db,
  order: { id: number; advertId: number | null; productType: number; days: number },
  now: Date,
): Promise<(Fulfilment & { writes: WithSubquery[] }) | null> {
  if (order.advertId === null) return null;
  const advert = await lockAdvert(tx, order.advertId);
  const column = clockOf(order.productType);
  // A package for an advert that was never public (new, unverified, not yet approved) waits: its days
  // start when the advert first goes public (startWaitingPackages, at support's first approval).
  if (column === 'expirationDate' && advert.approvedAt === null) return null;
  const { start, end } = periodOf({ days: order.days, now, runningUntil: advert[column], holidayUntil: advert.holidayUntil });
  const promoted = tx.$with('promoted').as(
    tx
      .insert(promotions)
      .values({ advertId: advert.id, orderId: order.id, type: order.productType, startsAt: start, endsAt: end, createdAt: now })
      .returning({ promotionId: promotions.id }),
  );
  const clock = tx.$with('clock').as(tx.update(adverts).set({ [column]: end }).where(eq(adverts.id, advert.id)).returning({ advertId: adverts.id }));
  return { advertId: advert.id, column, before: advert[column], after: end, start, end, writes: [promoted, clock] };
}

/**
 * The move of a locked order to Paid with what it gives (docs/decisions/025-commerce.md), in the caller's
 * transaction: locks the advert, computes the period (`periodOf`, from `by.now`) and moves the order by
 * `moveOrder` with `set`, the period and fulfilled_at, the advert's clock and the promotions row all in
 * the move's one statement (the busiest path: docs/decisions/027-payment-speed-on-postgresql.md).
 * Answers the paid row and the fulfilment (null for an order without an advert, which only moves).
 */
export async function moveToPaid(
  tx: Db,
  order: OrderRow,
  by: OrderMove,
  set: Partial<OrderRow> = {},
): Promise<{ paid: OrderRow; fulfilment: Fulfilment | null }> {
  const fulfilled = await fulfilOrder(tx, order, by.now);
  if (!fulfilled) return { paid: await moveOrder(tx, order, ORDER_STATUS.Paid, by, set), fulfilment: null };
  const { writes, ...fulfilment } = fulfilled;
  const paid = await moveOrder(tx, order, ORDER_STATUS.Paid, by, { ...set, periodStart: fulfilment.start, periodEnd: fulfilment.end, fulfilledAt: by.now }, writes);
  return { paid, fulfilment };
}

/** The packages paid for an advert that wait for its first approval: Paid, a membership, not yet fulfilled. */
export const waitingPackagesOf = (advertId: number) =>
  and(eq(orders.advertId, advertId), eq(orders.status, ORDER_STATUS.Paid), eq(orders.productType, PRODUCT_TYPE.Membership), isNull(orders.fulfilledAt));

/**
 * The advert goes public for the first time (support's first approval): the packages paid while it could
 * not be shown start now, one after the other, in the order they were paid, after a running holiday
 * (decision 011), each with its period, fulfilled_at and promotions row; the advert's expiration is the end
 * of the last. Answers that expiration, or null when no package waited. In the caller's transaction.
 */
export async function startWaitingPackages(tx: Db, advertId: number, now: Date): Promise<Date | null> {
  const advert = await lockAdvert(tx, advertId);
  const waiting = await tx
    .select({ id: orders.id, days: orders.days, productType: orders.productType })
    .from(orders)
    .where(waitingPackagesOf(advertId))
    .orderBy(asc(orders.paidAt), asc(orders.id))
    .for('update');
  if (waiting.length === 0) return null;
  let runningUntil = advert.expirationDate;
  for (const order of waiting) {
    const { start, end } = periodOf({ days: order.days, now, runningUntil, holidayUntil: advert.holidayUntil });
    await tx.update(orders).set({ periodStart: start, periodEnd: end, fulfilledAt: now, updatedAt: now }).where(eq(orders.id, order.id));
    await tx.insert(promotions).values({ advertId, orderId: order.id, type: order.productType, startsAt: start, endsAt: end, createdAt: now });
    runningUntil = end;
  }
  await tx.update(adverts).set({ expirationDate: runningUntil }).where(eq(adverts.id, advertId));
  return runningUntil;
}

/** The days of packages paid for the advert that wait for it to go public for the first time. */
export async function waitingPackageDays(db: Db, advertId: number): Promise<number> {
  const rows = await db
    .select({ days: orders.days })
    .from(orders)
    .where(waitingPackagesOf(advertId));
  return rows.reduce((total, row) => total + row.days, 0);
}

export type TakeBack = { advertId: number; column: ClockColumn; before: Date | null; after: Date | null; unusedMs: number };

/**
 * A refunded or charged-back order stops giving time: the advert's clock moves back by the unused part of
 * the order's period, and its promotion ends now (or never started).
 */
export async function takeBackOrder(
  tx: Db,
  order: { id: number; advertId: number | null; productType: number; periodStart: Date | null; periodEnd: Date | null },
  now: Date,
): Promise<TakeBack | null> {
  if (order.advertId === null) return null;
  const advert = await lockAdvert(tx, order.advertId);
  const column = clockOf(order.productType);
  const { unusedMs, clock } = takenBackOf({ periodStart: order.periodStart, periodEnd: order.periodEnd, now, clock: advert[column] });
  if (unusedMs > 0) {
    await tx.update(adverts).set({ [column]: clock }).where(eq(adverts.id, advert.id));
    const [promotion] = await tx.select().from(promotions).where(and(eq(promotions.orderId, order.id), eq(promotions.advertId, advert.id)));
    if (promotion) {
      const endsAt = promotion.startsAt > now ? promotion.startsAt : now < promotion.endsAt ? now : promotion.endsAt;
      await tx.update(promotions).set({ endsAt }).where(eq(promotions.id, promotion.id));
    }
  }
  return { advertId: advert.id, column, before: advert[column], after: clock, unusedMs };
}
