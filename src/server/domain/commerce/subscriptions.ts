import { and, asc, desc, eq, gt, inArray, isNotNull, lte, or, isNull, ne, sql } from 'drizzle-orm';
import { orders, subscriptions } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { SYSTEM, type DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requireAdvertiserAccountId } from '../adverts/own-advert.ts';
import { noticeToAdvertiser } from '../moderation/statements.ts';
import { ORDER_STATUS } from './order-status.ts';
import { lockOrder, moveOrder } from './orders.ts';
import { SUBSCRIPTION_STATUS, type CommerceDeps } from './apply-payment-event.ts';
import { renewalReminderText } from './commerce-texts.ts';

export type SubscriptionView = { id: number; status: number; nextChargeOn: string | null; cancelledAt: string | null };

const viewOf = (row: typeof subscriptions.$inferSelect): SubscriptionView => ({
  id: row.id,
  status: row.status,
  nextChargeOn: row.nextChargeOn?.toISOString() ?? null,
  cancelledAt: row.cancelledAt?.toISOString() ?? null,
});

/**
 * cancelsubscription (POST): the advertiser asks to stop their renewing membership. The renewal is
 * stopped at the provider, on its own page in the advertiser's browser (FlexPay's signed cancel page,
 * decision 038): the answer carries that address (`cancelUrl`) for the screen to open, shown to the
 * subscription's owner only. The subscription counts as cancelled when the provider's cancel postback
 * arrives (apply-payment-event.ts), and the advertiser is told then; what is paid runs out as bought.
 * One already stopped changes nothing (no address).
 */
export async function cancelSubscription(ctx: DomainContext, deps: CommerceDeps, input: { Id: number }): Promise<SubscriptionView & { cancelUrl: string | null }> {
  const accountId = requireAdvertiserAccountId(ctx);
  const [subscription] = await ctx.db.select().from(subscriptions).where(and(eq(subscriptions.id, input.Id), eq(subscriptions.accountId, accountId)));
  if (!subscription) throw notFound('Subscription');
  if (subscription.status !== SUBSCRIPTION_STATUS.Active) return { ...viewOf(subscription), cancelUrl: null };
  const provider = deps.providers.byMethod('card');
  if (!provider?.cancelSubscriptionUrl || provider.name !== subscription.provider) {
    throw new AppError('UNAVAILABLE', 'The card provider is not available to stop the renewal. Try again later or contact support.');
  }
  await writeAudit(ctx, { action: 'subscription.cancel.requested', targetType: 'subscription', targetId: subscription.id, before: { status: subscription.status }, after: { status: subscription.status }, reason: "sent to the provider's cancel page" });
  return { ...viewOf(subscription), cancelUrl: provider.cancelSubscriptionUrl(subscription.saleId) };
}

/** The renewal reminder goes out this long before the next charge. */
export const REMINDER_DAYS = 3;

/**
 * The renewal reminders (a job): for every active subscription charged again within REMINDER_DAYS, once
 * per charge (`reminded_for` is claimed in one UPDATE, so two instances never both send it): a notification
 * and an email in the advertiser's language, with a one-click cancel link to the backend.
 */
export async function sendRenewalReminders(ctx: DomainContext, deps: CommerceDeps): Promise<number> {
  const now = ctx.now();
  const horizon = new Date(now.getTime() + REMINDER_DAYS * 86_400_000);
  const claimed = await ctx.db
    .update(subscriptions)
    .set({ remindedFor: sql`${subscriptions.nextChargeOn}`, updatedAt: now })
    .where(
      and(
        eq(subscriptions.status, SUBSCRIPTION_STATUS.Active),
        isNotNull(subscriptions.nextChargeOn),
        gt(subscriptions.nextChargeOn, now),
        lte(subscriptions.nextChargeOn, horizon),
        or(isNull(subscriptions.remindedFor), ne(subscriptions.remindedFor, subscriptions.nextChargeOn)),
      ),
    )
    .returning();
  for (const subscription of claimed) {
    const [last] = await ctx.db.select().from(orders).where(eq(orders.subscriptionId, subscription.id)).orderBy(desc(orders.id)).limit(1);
    if (!last) continue;
    const text = renewalReminderText({ description: last.productDescription, totalOre: last.totalPriceOre, chargeOn: subscription.nextChargeOn!, subscriptionId: subscription.id, siteUrl: deps.siteUrl });
    await noticeToAdvertiser({ ...ctx, actor: SYSTEM }, subscription.accountId, text, deps);
  }
  return claimed.length;
}

/**
 * The open orders past their `expires_at`, the oldest first, along the partial index of open orders
 * (orders_open_expiry_idx): the look-up reads only the orders that are due, however many open orders wait
 * (it read them all, 75-360 ms a minute with 100,000 open orders on PostgreSQL: issue 29's bench).
 */
export function dueUnpaidOrders(db: Db, now: Date, limit: number) {
  return db
    .select({ id: orders.id })
    .from(orders)
    .where(and(inArray(orders.status, [ORDER_STATUS.Created, ORDER_STATUS.Pending]), isNotNull(orders.expiresAt), lte(orders.expiresAt, now)))
    .orderBy(asc(orders.expiresAt), asc(orders.id))
    .limit(limit);
}

/**
 * The expiry of unpaid orders (a job): every Created or Pending order past its `expires_at` moves to
 * Expired (the system's move), each in its own transaction with the order locked; a payment arriving
 * later is a late payment (flagged, never credited). Answers how many expired.
 */
export async function expireUnpaidOrders(ctx: DomainContext, limit = 200): Promise<number> {
  const now = ctx.now();
  const due = await dueUnpaidOrders(ctx.db, now, limit);
  let expired = 0;
  for (const { id } of due) {
    const moved = await ctx.db.transaction(async (tx) => {
      const order = await lockOrder(tx, eq(orders.id, id));
      if (!order || (order.status !== ORDER_STATUS.Created && order.status !== ORDER_STATUS.Pending)) return false;
      await moveOrder(tx, order, ORDER_STATUS.Expired, { mover: 'system', reason: 'not paid in time', now });
      return true;
    });
    if (moved) expired += 1;
  }
  return expired;
}
