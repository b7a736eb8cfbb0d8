/**
 * Support changes an order's status (spec §4 "Support can … change order status", §7 order status change;
 * docs/decisions/025-commerce.md): only the moves ORDER_TRANSITIONS gives 'support' (Paid → Refunded or
 * ChargedBack), with a reason, through the same reverse path as the provider's refund (reverseOrder): the
 * order locked, an order_events row naming the support user, a credit note referring to the receipt, the
 * unused time taken back, the audit naming the support user; after the commit the advert is published and
 * the advertiser told (notification and email, da/en). Permission: Support (`orders:manage:any`).
 *
 * Never twice: the order is locked and its status read under the lock, so a second request (or one that
 * raced the provider's refund) finds it Refunded or ChargedBack and is answered 409 `alreadyDecided`, with
 * the status the order has now.
 */
import { eq } from 'drizzle-orm';
import type { OrderStatusChangeInput, SupportOrderDetail } from '#lib/schemas/orders.ts';
import type { Messaging } from '../../adapters/types.ts';
import { orders } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { reverseOrder, runEffects, type CommerceEffects } from './apply-payment-event.ts';
import { ORDER_STATUS, canMoveOrder } from './order-status.ts';
import { lockOrder } from './orders.ts';
import { getSupportOrder } from './support-orders.ts';

const TARGET = { refunded: ORDER_STATUS.Refunded, chargedBack: ORDER_STATUS.ChargedBack } as const;

const STATUS_NAME: Record<number, string> = Object.fromEntries(Object.entries(ORDER_STATUS).map(([name, value]) => [value, name]));

export async function changeOrderStatus(ctx: DomainContext, input: OrderStatusChangeInput, deps: { messaging: Messaging }): Promise<SupportOrderDetail> {
  requirePermission(ctx.actor, 'orders:manage:any');
  const supportUserId = ctx.actor.type === 'support' ? ctx.actor.supportUserId : null;
  const to = TARGET[input.Status];
  const now = ctx.now();
  const effects: CommerceEffects = { adverts: new Map(), notices: [] };
  await ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, eq(orders.id, input.Id));
    if (!order) throw notFound('Order');
    if (order.status === ORDER_STATUS.Refunded || order.status === ORDER_STATUS.ChargedBack) {
      throw new AppError('CONFLICT', `The order is ${STATUS_NAME[order.status]} already; nothing was changed`, [{ field: 'Id', message: 'alreadyDecided' }]);
    }
    if (!canMoveOrder(order.status, to, 'support')) {
      throw new AppError('CONFLICT', `An order that is ${STATUS_NAME[order.status]} cannot be marked ${STATUS_NAME[to]}: only a paid order can`, [
        { field: 'Status', message: 'notPaid' },
      ]);
    }
    await reverseOrder({ ...ctx, db: tx }, order, to, { mover: 'support', actorId: supportUserId, reason: input.Reason, now }, effects);
  });
  await runEffects(ctx, deps, effects);
  return getSupportOrder(ctx, input.Id);
}
