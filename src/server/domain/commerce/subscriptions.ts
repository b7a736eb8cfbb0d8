import { and, asc, desc, eq, gt, inArray, isNotNull, lte, or, isNull, ne, sql } from 'drizzle-orm';
import { adverts, orders, subscriptions } from '../../db/schema.ts';
import { PaymentProviderUnavailableError } from '../../adapters/types.ts';
import { SYSTEM, type DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { requireAdvertiserAccountId } from '../adverts/own-advert.ts';
import { noticeToAdvertiser } from '../moderation/statements.ts';
import { ORDER_STATUS } from './order-status.ts';
import { lockOrder, moveOrder } from './orders.ts';
import { SUBSCRIPTION_STATUS, type CommerceDeps } from './apply-payment-event.ts';
import { renewalReminderText, subscriptionCancelledText } from './commerce-texts.ts';

export type SubscriptionView = { id: number; status: number; nextChargeOn: string | null; cancelledAt: string | null };

const viewOf = (row: typeof subscriptions.$inferSelect): SubscriptionView => ({
  id: row.id,
  status: row.status,
  nextChargeOn: row.nextChargeOn?.toISOString() ?? null,
  cancelledAt: row.cancelledAt?.toISOString() ?? null,
});

/**
 * cancelsubscription (POST): the advertiser stops their renewing membership. The provider is asked first
 * to stop the next charge (if it cannot be reached: 503 and nothing changes); then the subscription is
 * marked cancelled; what is paid runs out as bought. Cancelling one already stopped changes nothing.
 */
export async function cancelSubscription(ctx: DomainContext, deps: CommerceDeps, input: { Id: number }): Promise<SubscriptionView> {
  const accountId = requireAdvertiserAccountId(ctx);
  const [subscription] = await ctx.db.select().from(subscriptions).where(and(eq(subscriptions.id, input.Id), eq(subscriptions.accountId, accountId)));
  if (!subscription) throw notFound('Subscription');
  if (subscription.status !== SUBSCRIPTION_STATUS.Active) return viewOf(subscription);
  const provider = deps.providers.byMethod('card');
  if (!provider?.cancelSubscription || provider.name !== subscription.provider) {
    throw new AppError('UNAVAILABLE', 'The card provider is not available to stop the renewal. Try again later or contact support.');
  }
  try {
    await provider.cancelSubscription(subscription.saleId);
  } catch (error) {
    if (error instanceof PaymentProviderUnavailableError) throw new AppError('UNAVAILABLE', 'The card provider cannot be reached. Try again later.', [], { cause: error });
    throw error;
  }
  const now = ctx.now();
  const updated = await ctx.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscription.id)).for('update');
    if (locked!.status !== SUBSCRIPTION_STATUS.Active) return locked!;
    const [row] = await tx
      .update(subscriptions)
      .set({ status: SUBSCRIPTION_STATUS.Cancelled, cancelledAt: now, updatedAt: now })
      .where(eq(subscriptions.id, subscription.id))
      .returning();
    await writeAudit({ ...ctx, db: tx }, { action: 'subscription.cancelled', targetType: 'subscription', targetId: subscription.id, before: { status: locked!.status }, after: { status: SUBSCRIPTION_STATUS.Cancelled }, reason: 'cancelled by the advertiser' });
    return row!;
  });
  const [advert] = subscription.advertId === null ? [] : await ctx.db.select({ expirationDate: adverts.expirationDate }).from(adverts).where(eq(adverts.id, subscription.advertId));
  await noticeToAdvertiser(ctx, accountId, subscriptionCancelledText(advert?.expirationDate ?? null), deps);
  return viewOf(updated);
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
 * The expiry of unpaid orders (a job): every Created or Pending order past its `expires_at` moves to
 * Expired (the system's move), each in its own transaction with the order locked; a payment arriving
 * later is a late payment (flagged, never credited). Answers how many expired.
 */
export async function expireUnpaidOrders(ctx: DomainContext, limit = 200): Promise<number> {
  const now = ctx.now();
  const due = await ctx.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(inArray(orders.status, [ORDER_STATUS.Created, ORDER_STATUS.Pending]), isNotNull(orders.expiresAt), lte(orders.expiresAt, now)))
    .orderBy(asc(orders.id))
    .limit(limit);
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
