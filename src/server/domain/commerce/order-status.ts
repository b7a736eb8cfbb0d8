/**
 * Order statuses and the one table of moves between them (docs/decisions/025-commerce.md). An order moves
 * forward only: Created → Pending → Paid → Refunded | ChargedBack, or Created/Pending → Failed | Expired.
 * A payment that arrives for a Failed or Expired order is a late payment: it is recorded and flagged for
 * refund, never credited (the buyer was told it failed). Unit-tested for every pair.
 */
export const ORDER_STATUS = {
  Created: 0,
  Paid: 1,
  Failed: 2,
  Expired: 3,
  Refunded: 4,
  ChargedBack: 5,
  Pending: 6,
} as const;

export type OrderStatus = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];
export type OrderStatusName = keyof typeof ORDER_STATUS;

/** A status's name (Created, Paid, …): what logs, stored reasons and the API say instead of its number. */
export const statusNameOf = (status: number): OrderStatusName =>
  ((Object.entries(ORDER_STATUS) as [OrderStatusName, number][]).find(([, value]) => value === status)?.[0] ?? 'Created');

/**
 * Why a payment is flagged for refund, as a code (orders.refund_flag_reason) that support's screens word in
 * their language (support/order.json `flagReasons`), with the plain English for the audit and the events.
 */
export const REFUND_FLAG_REASONS = {
  'paid-too-late': 'paid after the time to pay had run out (the order had expired)',
  'paid-twice': 'a second payment for an order that was paid already',
  'paid-after-failed': 'paid after the payment had been declined or had failed',
  'paid-after-expired': 'paid after the order had expired',
  'paid-after-refunded': 'paid after the order had been refunded',
  'paid-after-charged-back': 'paid after the payment had been charged back',
  'renewal-after-cancel': 'a renewal charged after the subscription was cancelled',
  'renewal-after-end': 'a renewal charged after the subscription had ended',
} as const;
export type RefundFlagReason = keyof typeof REFUND_FLAG_REASONS;

/** Who moves an order: the provider's signed postback, support, or the system (the expiry job). */
export type OrderMover = 'provider' | 'support' | 'system';

const { Created, Paid, Failed, Expired, Refunded, ChargedBack, Pending } = ORDER_STATUS;

/** from → to → who may make that move. Anything not listed is refused. */
export const ORDER_TRANSITIONS: ReadonlyMap<OrderStatus, ReadonlyMap<OrderStatus, readonly OrderMover[]>> = new Map([
  [
    Created,
    new Map<OrderStatus, OrderMover[]>([
      [Pending, ['provider']],
      [Paid, ['provider']],
      [Failed, ['provider']],
      [Expired, ['provider', 'system']],
    ]),
  ],
  [
    Pending,
    new Map<OrderStatus, OrderMover[]>([
      [Paid, ['provider']],
      [Failed, ['provider']],
      [Expired, ['provider', 'system']],
    ]),
  ],
  [
    Paid,
    new Map<OrderStatus, OrderMover[]>([
      [Refunded, ['provider', 'support']],
      [ChargedBack, ['provider', 'support']],
    ]),
  ],
  [Failed, new Map()],
  [Expired, new Map()],
  [Refunded, new Map()],
  [ChargedBack, new Map()],
]);

/** May `mover` move an order from `from` to `to`? */
export function canMoveOrder(from: number, to: number, mover: OrderMover): boolean {
  return ORDER_TRANSITIONS.get(from as OrderStatus)?.get(to as OrderStatus)?.includes(mover) ?? false;
}

/** An order that can still be paid (its payment has not been decided). */
export function isOpenOrder(status: number): boolean {
  return status === Created || status === Pending;
}

/** Product types (spec §3). */
export const PRODUCT_TYPE = { Membership: 1, FrontpageBoost: 2, SearchBoost: 3 } as const;
export type ProductType = (typeof PRODUCT_TYPE)[keyof typeof PRODUCT_TYPE];
