import { randomUUID } from 'node:crypto';
import { and, desc, eq, lt, lte, or, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import { adverts, orders, paymentEvents, products, refusedPostbacks, subscriptions } from '../../db/schema.ts';
import type { Messaging, PaymentEvent, PaymentProvider, PaymentProviders, RawPostback } from '../../adapters/types.ts';
import { SYSTEM, type DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { publishAdvertChange } from '../adverts/own-advert.ts';
import { noticeToAdvertiser } from '../moderation/statements.ts';
import type { NoticeText } from '../moderation/moderation-texts.ts';
import { ORDER_STATUS, REFUND_FLAG_REASONS, isOpenOrder, statusNameOf, type RefundFlagReason } from './order-status.ts';
import { moveToPaid, takeBackOrder, type ClockColumn } from './fulfilment.ts';
import { issueCreditNote, issueReceipt, isTestReference, lockOrder, moveOrder, newReference, noteOrder, recordOrderCreated, type OrderRow } from './orders.ts';
import { latePaymentText, paidText, reversedText, subscriptionCancelledText } from './commerce-texts.ts';

/**
 * THE one function every provider's postback goes through (docs/decisions/025-commerce.md). The provider
 * authenticates and reads the postback; then, in ONE transaction: the order (or subscription) row is
 * locked (SELECT … FOR UPDATE), a copy of an event already stored (same provider and event key) changes
 * nothing, the event is checked (reference known, amount and currency those of the order, no TEST-PAY-
 * reference while the method's provider is live) and stored raw in payment_events with its outcome, and
 * the order moves by ORDER_TRANSITIONS; the move to Paid fulfils the order and issues its receipt in the
 * same transaction. After the commit: the search index and site rebuild, and the advertiser's notice.
 * A postback the provider does not vouch for (its signature, shop, shape) goes to the bounded, pruned
 * refused_postbacks log, never to payment_events (decision 038); one it vouches for that we refuse (an
 * unknown reference, a wrong amount) is stored raw under a generated key, so a refusal never blocks a
 * later genuine copy.
 */

export type CommerceDeps = { messaging: Messaging; providers: PaymentProviders; siteUrl: string };

export type PostbackResult = {
  /** accepted: answer the provider what it expects (it stops sending); refused: a 4xx without detail. */
  accepted: boolean;
  outcome: 'applied' | 'ignored' | 'flagged' | 'refused' | 'duplicate';
  reason?: string;
  orderId?: number | null;
  /**
   * The event is committed, but the work after the commit (publishing the advert, the advertiser's notice)
   * failed: the door logs it and still answers the provider (a resend would only be a duplicate).
   */
  afterCommitError?: unknown;
};

export const SUBSCRIPTION_STATUS = { Active: 0, Cancelled: 1, Ended: 2 } as const;

/** How much of a refused postback's query and body is kept, how long, and how many rows at most. */
const REFUSED_PREFIX = 2000;
const REFUSED_KEEP_DAYS = 30;
const REFUSED_KEEP_ROWS = 10_000;

/**
 * Prunes the log of postbacks that failed authentication (the commerce clock): older than 30 days, or
 * beyond the newest 10,000. Answers how many went.
 */
export async function pruneRefusedPostbacks(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - REFUSED_KEEP_DAYS * 86_400_000);
  const newestKept = sql`(select ${refusedPostbacks.id} from ${refusedPostbacks} order by ${refusedPostbacks.id} desc offset ${REFUSED_KEEP_ROWS} limit 1)`;
  const gone = await db
    .delete(refusedPostbacks)
    .where(or(lt(refusedPostbacks.receivedAt, cutoff), lte(refusedPostbacks.id, newestKept)))
    .returning({ id: refusedPostbacks.id });
  return gone.length;
}

type SubscriptionRow = typeof subscriptions.$inferSelect;

/** Work that waits for the commit: publishing adverts and telling advertisers. */
/** After the commit: the adverts whose clocks moved (true: a boost's), and what to tell whom. */
type Effects = { adverts: Map<number, boolean>; notices: { accountId: number; text: NoticeText }[] };

/** Notes an advert whose clock moved (a boost's counts over a package's). */
const clockMoved = (effects: Effects, advertId: number, column: ClockColumn) =>
  effects.adverts.set(advertId, (effects.adverts.get(advertId) ?? false) || column !== 'expirationDate');

type Decision = { outcome: 'applied' | 'ignored' | 'flagged' | 'refused'; reason?: string; orderId?: number | null };

type Step = {
  tx: Db;
  ctx: DomainContext;
  provider: PaymentProvider;
  event: PaymentEvent;
  raw: RawPostback;
  now: Date;
  effects: Effects;
  /** Stores the event with its outcome; null when a copy is already stored (a duplicate). */
  store: (decision: Decision) => Promise<number | null>;
};

const signatureOf = (raw: RawPostback): string | null => new URLSearchParams(raw.query).get('signature');

async function storeEvent(
  db: Db,
  provider: PaymentProvider,
  raw: RawPostback,
  row: { eventKey: string; kind: string | null; decision: Decision; now: Date },
): Promise<number | null> {
  const [stored] = await db
    .insert(paymentEvents)
    .values({
      provider: provider.name,
      eventKey: row.eventKey,
      orderId: row.decision.orderId ?? null,
      method: raw.method,
      rawQuery: raw.query,
      rawBody: raw.body,
      signature: signatureOf(raw),
      kind: row.kind,
      outcome: row.decision.outcome,
      reason: row.decision.reason ?? null,
      receivedAt: row.now,
    })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  return stored?.id ?? null;
}

/** The outcome stored for an event key, if a copy was already stored. */
async function storedOutcome(db: Db, provider: PaymentProvider, eventKey: string): Promise<string | null> {
  const [row] = await db
    .select({ outcome: paymentEvents.outcome })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.provider, provider.name), eq(paymentEvents.eventKey, eventKey)))
    .limit(1);
  return row?.outcome ?? null;
}

/** Why a reference may not be credited by this provider: a TEST-PAY- reference while the method is live, or a live reference at a test provider. */
function referenceRefusal(reference: string, provider: PaymentProvider, providers: PaymentProviders): string | null {
  if (!reference) return null;
  const test = isTestReference(reference);
  if (test && (!provider.test || providers.isLive(provider.method))) return 'a TEST-PAY- reference while a live provider is configured';
  if (!test && provider.test) return 'a live reference at a test provider';
  return null;
}

function amountRefusal(event: PaymentEvent, order: { totalPriceOre: number; currency: string }): string | null {
  if (event.amountOre === undefined) return 'no amount';
  if (event.amountOre !== order.totalPriceOre) return 'wrong amount';
  if ((event.currency ?? '') !== order.currency) return 'wrong currency';
  return null;
}

export async function applyPaymentEvent(ctx: DomainContext, deps: CommerceDeps, provider: PaymentProvider, raw: RawPostback): Promise<PostbackResult> {
  const now = ctx.now();
  const parsed = await provider.parsePostback(raw);
  if ('refused' in parsed) {
    // Not the provider's (anyone can send these): the bounded log, never the append-only events.
    await ctx.db.insert(refusedPostbacks).values({
      provider: provider.name,
      method: raw.method,
      queryPrefix: raw.query.slice(0, REFUSED_PREFIX),
      bodyPrefix: raw.body.slice(0, REFUSED_PREFIX),
      reason: parsed.refused.slice(0, 200),
      receivedAt: now,
    });
    return { accepted: false, outcome: 'refused', reason: parsed.refused };
  }
  const event = parsed;
  const effects: Effects = { adverts: new Map(), notices: [] };
  const result = await ctx.db.transaction(async (tx): Promise<PostbackResult> => {
    let duplicate = false;
    const step: Step = {
      tx,
      ctx: { ...ctx, db: tx, actor: SYSTEM },
      provider,
      event,
      raw,
      now,
      effects,
      store: async (decision) => {
        // A refusal never takes the event's key: a later genuine copy (after the initial sale arrived) still counts.
        const eventKey = decision.outcome === 'refused' ? `refused:${randomUUID()}` : event.eventKey;
        const id = await storeEvent(tx, provider, raw, { eventKey, kind: event.kind, decision, now });
        if (id === null) duplicate = true;
        return id;
      },
    };
    const refusal = referenceRefusal(event.reference, provider, deps.providers);
    const decision = refusal ? await refuse(step, refusal) : await route(step);
    if (duplicate || decision.reason === 'duplicate') return { accepted: true, outcome: 'duplicate', orderId: decision.orderId ?? null };
    return { accepted: decision.outcome !== 'refused', ...decision };
  });
  try {
    await runEffects(ctx, deps, effects);
  } catch (error) {
    return { ...result, afterCommitError: error };
  }
  return result;
}

async function refuse(step: Step, reason: string, orderId: number | null = null): Promise<Decision> {
  const decision: Decision = { outcome: 'refused', reason, orderId };
  await step.store(decision);
  return decision;
}

/** A copy of an event already stored (checked after the lock, so a concurrent copy has committed): nothing changes. */
async function duplicateOf(step: Step, orderId: number | null): Promise<Decision | null> {
  const outcome = await storedOutcome(step.tx, step.provider, step.event.eventKey);
  if (outcome === null) return null;
  return { outcome: 'ignored', reason: 'duplicate', orderId };
}

async function route(step: Step): Promise<Decision> {
  switch (step.event.kind) {
    case 'paid':
    case 'pending':
    case 'failed':
    case 'expired':
      return onOrderEvent(step);
    case 'refund':
    case 'chargeback':
      return onReversal(step, step.event.kind);
    case 'rebill':
      return onRebill(step);
    case 'cancel':
    case 'subscription-expired':
      return onSubscriptionEnd(step, step.event.kind);
  }
}

async function onOrderEvent(step: Step): Promise<Decision> {
  const { tx, event, provider, now } = step;
  const order = await lockOrder(tx, and(eq(orders.referenceId, event.reference), eq(orders.paymentProvider, provider.name)));
  if (!order) return refuse(step, 'unknown reference');
  // A copy of an event already stored is found by its key when it is stored (step.store answers null),
  // before anything moves: no separate look-up on this, the busiest path.
  if (event.kind === 'paid') {
    const wrong = amountRefusal(event, order);
    if (wrong) return refuse(step, wrong, order.id);
    return onPaid(step, order);
  }
  const to = event.kind === 'pending' ? ORDER_STATUS.Pending : event.kind === 'failed' ? ORDER_STATUS.Failed : ORDER_STATUS.Expired;
  const moves = isOpenOrder(order.status) && order.status !== to;
  const decision: Decision = moves ? { outcome: 'applied', orderId: order.id } : { outcome: 'ignored', reason: `the order is ${statusNameOf(order.status)} already`, orderId: order.id };
  const eventId = await step.store(decision);
  if (eventId !== null && moves) await moveOrder(tx, order, to, { mover: 'provider', paymentEventId: eventId, reason: event.kind, now });
  return decision;
}

/** Why a payment for an order that may not take it is flagged, in the order's words. */
function flagReasonOf(order: OrderRow, lapsed: boolean): RefundFlagReason {
  if (lapsed) return 'paid-too-late';
  switch (order.status) {
    case ORDER_STATUS.Paid:
      return 'paid-twice';
    case ORDER_STATUS.Failed:
      return 'paid-after-failed';
    case ORDER_STATUS.Refunded:
      return 'paid-after-refunded';
    case ORDER_STATUS.ChargedBack:
      return 'paid-after-charged-back';
    default:
      return 'paid-after-expired';
  }
}

/**
 * A payment for an order: the first one fulfils it; any other (already paid, failed, expired, a renewal of
 * a subscription that ended: `flagAs`) is flagged for refund.
 */
async function onPaid(step: Step, order: OrderRow, flagAs?: RefundFlagReason): Promise<Decision> {
  const { tx, event, now } = step;
  const lapsed = isOpenOrder(order.status) && order.expiresAt !== null && order.expiresAt <= now;
  if (flagAs || !isOpenOrder(order.status) || lapsed) {
    const code = flagAs ?? flagReasonOf(order, lapsed);
    const reason = REFUND_FLAG_REASONS[code];
    const eventId = await step.store({ outcome: 'flagged', reason, orderId: order.id });
    if (eventId === null) return { outcome: 'ignored', orderId: order.id };
    let current = order;
    if (lapsed || (flagAs && isOpenOrder(order.status))) {
      current = await moveOrder(tx, order, ORDER_STATUS.Expired, { mover: 'system', reason: flagAs ? 'a renewal the subscription no longer gave' : 'expired before its payment arrived', now });
    }
    await noteOrder(tx, current, { mover: 'provider', paymentEventId: eventId, reason: `flagged for refund: ${reason}`, now });
    if (current.refundFlaggedAt === null) {
      await tx.update(orders).set({ refundFlaggedAt: now, refundFlagReason: code, updatedAt: now }).where(eq(orders.id, order.id));
    }
    await writeAudit(step.ctx, { action: 'order.payment.flagged', targetType: 'order', targetId: order.id, after: { reason: code, transactionId: event.transactionId ?? null }, reason });
    step.effects.notices.push({ accountId: order.accountId, text: latePaymentText({ id: order.id, description: order.productDescription, totalOre: order.totalPriceOre }) });
    return { outcome: 'flagged', reason, orderId: order.id };
  }
  const eventId = await step.store({ outcome: 'applied', orderId: order.id });
  if (eventId === null) return { outcome: 'ignored', orderId: order.id };
  await creditOrder(step, order, eventId);
  return { outcome: 'applied', orderId: order.id };
}

/** The move to Paid with everything it gives, exactly once: the period, the receipt, the subscription of a first sale. */
async function creditOrder(step: Step, order: OrderRow, eventId: number): Promise<void> {
  const { tx, event, now, provider } = step;
  const subscriptionId = await subscriptionOfFirstSale(step, order);
  const { paid, fulfilment } = await moveToPaid(
    tx,
    order,
    { mover: 'provider', paymentEventId: eventId, reason: event.kind, now },
    { paidAt: now, transactionId: event.transactionId ?? event.saleId ?? null, subscriptionId: subscriptionId ?? order.subscriptionId },
  );
  // Last before the commit: the receipt's number (the series' one row lock) with the audit entry that names it.
  await issueReceipt(tx, paid, now, {
    ctx: step.ctx,
    numberAs: 'receipt',
    entry: {
      action: 'order.paid',
      targetType: 'order',
      targetId: order.id,
      before: { status: order.status, ...(fulfilment ? { [fulfilment.column]: fulfilment.before } : {}) },
      after: { status: ORDER_STATUS.Paid, provider: provider.name, ...(fulfilment ? { [fulfilment.column]: fulfilment.after, periodStart: fulfilment.start } : {}) },
    },
  });
  if (fulfilment) clockMoved(step.effects, fulfilment.advertId, fulfilment.column);
  step.effects.notices.push({ accountId: order.accountId, text: paidText({ id: order.id, description: order.productDescription, totalOre: order.totalPriceOre, periodEnd: fulfilment?.end ?? null }) });
}

/** A first sale of a renewing membership makes (or, after an early cancel postback, finds) its subscription. */
async function subscriptionOfFirstSale(step: Step, order: OrderRow): Promise<number | null> {
  const { tx, event, provider, now } = step;
  if (!event.saleId || order.productId === null || order.subscriptionId !== null) return null;
  // One statement: made when the product renews, unless the sale has one already (its id is then read
  // from the statement's snapshot, which the insert does not change).
  const result = await tx.execute(sql`
    with product as (select ${products.recurring} as recurring from ${products} where ${products.id} = ${order.productId}),
    existing as (select ${subscriptions.id} as id from ${subscriptions} where ${subscriptions.provider} = ${provider.name} and ${subscriptions.saleId} = ${event.saleId}),
    created as (
      insert into ${subscriptions} (account_id, advert_id, product_id, provider, sale_id, status, next_charge_on, created_at, updated_at)
      select ${order.accountId}, ${order.advertId}, ${order.productId}, ${provider.name}, ${event.saleId}, ${SUBSCRIPTION_STATUS.Active},
        ${event.nextChargeOn?.toISOString() ?? null}::timestamptz, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from product where product.recurring and not exists (select 1 from existing)
      on conflict do nothing
      returning id)
    select (select id from created) as created, (select id from existing) as existing`);
  const [row] = rowsOf<{ created: number | null; existing: number | null }>(result);
  const id = row?.created ?? row?.existing ?? null;
  return id === null ? null : Number(id);
}

/** A refund (credit) or chargeback: Paid → Refunded/ChargedBack, the unused time taken back, a credit note. */
async function onReversal(step: Step, kind: 'refund' | 'chargeback'): Promise<Decision> {
  const { tx, event, provider, now } = step;
  // The charge it takes back: FlexPay names it (parentID); other providers reverse under the charge's own id.
  const charge = event.reversesTransactionId ?? event.transactionId;
  const byTransaction = charge ? await lockOrder(tx, and(eq(orders.paymentProvider, provider.name), eq(orders.transactionId, charge))) : null;
  const order = byTransaction ?? (await lockOrder(tx, and(eq(orders.referenceId, event.reference), eq(orders.paymentProvider, provider.name))));
  if (!order) return refuse(step, 'unknown reference');
  if (await duplicateOf(step, order.id)) return { outcome: 'ignored', reason: 'duplicate', orderId: order.id };
  if (event.amountOre !== undefined && (event.amountOre !== order.totalPriceOre || (event.currency ?? order.currency) !== order.currency)) {
    return refuse(step, 'a partial or wrong amount (for support to handle)', order.id);
  }
  const to = kind === 'refund' ? ORDER_STATUS.Refunded : ORDER_STATUS.ChargedBack;
  if (order.status === ORDER_STATUS.Paid) {
    const eventId = await step.store({ outcome: 'applied', orderId: order.id });
    if (eventId === null) return { outcome: 'ignored', orderId: order.id };
    await reverseOrder(step.ctx, order, to, { mover: 'provider', paymentEventId: eventId, reason: kind, now }, step.effects);
    return { outcome: 'applied', orderId: order.id };
  }
  if (isOpenOrder(order.status)) {
    // Out of order: the money went back before its payment was recorded. The order fails, so a payment
    // postback arriving later is a late payment (flagged, never credited).
    const decision: Decision = { outcome: 'applied', reason: `${kind} before the payment was recorded`, orderId: order.id };
    const eventId = await step.store(decision);
    if (eventId !== null) await moveOrder(tx, order, ORDER_STATUS.Failed, { mover: 'provider', paymentEventId: eventId, reason: decision.reason!, now });
    return decision;
  }
  const decision: Decision = { outcome: 'ignored', reason: `${kind} of an order that is ${statusNameOf(order.status)} (never credited, or reversed already)`, orderId: order.id };
  await step.store(decision);
  return decision;
}

/**
 * Paid → Refunded or ChargedBack (by the provider's postback or by support), in the caller's transaction
 * with the order locked: the unused part of the period is taken back from the advert, a credit note
 * referring to the receipt is issued, and it is audited. The advert is published and the advertiser told
 * after the commit (`effects`).
 */
export async function reverseOrder(
  ctx: DomainContext,
  order: OrderRow,
  to: typeof ORDER_STATUS.Refunded | typeof ORDER_STATUS.ChargedBack,
  by: { mover: 'provider' | 'support'; actorId?: number | null; paymentEventId?: number | null; reason: string; now: Date },
  effects: Effects,
): Promise<void> {
  const tx = ctx.db;
  const moved = await moveOrder(tx, order, to, by);
  const takeBack = await takeBackOrder(tx, moved, by.now);
  const kind = to === ORDER_STATUS.Refunded ? 'refund' : 'chargeback';
  await issueCreditNote(tx, moved, by.reason, by.now, {
    ctx,
    numberAs: 'creditNote',
    entry: {
      action: `order.${kind}`,
      targetType: 'order',
      targetId: order.id,
      before: { status: order.status, ...(takeBack ? { [takeBack.column]: takeBack.before } : {}) },
      after: { status: to, ...(takeBack ? { [takeBack.column]: takeBack.after, takenBackMs: takeBack.unusedMs } : {}) },
      reason: by.reason,
    },
  });
  if (takeBack) clockMoved(effects, takeBack.advertId, takeBack.column);
  effects.notices.push({ accountId: order.accountId, text: reversedText({ id: order.id, description: order.productDescription, totalOre: order.totalPriceOre }, kind) });
}

async function lockSubscription(tx: Db, provider: PaymentProvider, saleId: string | undefined): Promise<SubscriptionRow | null> {
  if (!saleId) return null;
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, provider.name), eq(subscriptions.saleId, saleId)))
    .for('update');
  return row ?? null;
}

/** A renewal charge: a new order for the same product at the price of the subscription, paid and fulfilled at once. */
async function onRebill(step: Step): Promise<Decision> {
  const { tx, event, provider, now } = step;
  const subscription = await lockSubscription(tx, provider, event.saleId);
  if (!subscription) return refuse(step, 'unknown subscription');
  if (await duplicateOf(step, null)) return { outcome: 'ignored', reason: 'duplicate' };
  const [last] = await tx.select().from(orders).where(eq(orders.subscriptionId, subscription.id)).orderBy(desc(orders.id)).limit(1);
  if (!last) return refuse(step, 'a subscription without its first sale');
  const wrong = amountRefusal(event, last);
  if (wrong) return refuse(step, wrong, last.id);
  const [order] = await tx
    .insert(orders)
    .values({
      accountId: last.accountId,
      advertId: last.advertId,
      productId: last.productId,
      productType: last.productType,
      days: last.days,
      productDescription: last.productDescription,
      totalPriceOre: last.totalPriceOre,
      vatOre: last.vatOre,
      currency: last.currency,
      status: ORDER_STATUS.Created,
      referenceId: newReference(provider.test),
      paymentMethod: last.paymentMethod,
      paymentProvider: provider.name,
      subscriptionId: subscription.id,
      locale: last.locale,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await recordOrderCreated(tx, order!, { actorType: 'provider', reason: 'rebill', now });
  if (subscription.status !== SUBSCRIPTION_STATUS.Active) {
    // The provider charged a subscription that had ended here: recorded on an order of its own, flagged for refund.
    return onPaid(step, order!, subscription.status === SUBSCRIPTION_STATUS.Cancelled ? 'renewal-after-cancel' : 'renewal-after-end');
  }
  const eventId = await step.store({ outcome: 'applied', orderId: order!.id });
  if (eventId === null) return { outcome: 'ignored', orderId: order!.id };
  await creditOrder(step, order!, eventId);
  const [paid] = await tx.select({ periodEnd: orders.periodEnd }).from(orders).where(eq(orders.id, order!.id));
  await tx
    .update(subscriptions)
    .set({ nextChargeOn: event.nextChargeOn ?? paid?.periodEnd ?? null, updatedAt: now })
    .where(eq(subscriptions.id, subscription.id));
  return { outcome: 'applied', orderId: order!.id };
}

/** The provider's cancel (no further charge; what is paid runs out) or expiry (the subscription ended). */
async function onSubscriptionEnd(step: Step, kind: 'cancel' | 'subscription-expired'): Promise<Decision> {
  const { tx, event, provider, now } = step;
  const status = kind === 'cancel' ? SUBSCRIPTION_STATUS.Cancelled : SUBSCRIPTION_STATUS.Ended;
  const subscription = await lockSubscription(tx, provider, event.saleId);
  if (!subscription) {
    // Before the initial sale's postback: the subscription is made now, already ended, from its order.
    const order = await lockOrder(tx, and(eq(orders.referenceId, event.reference), eq(orders.paymentProvider, provider.name)));
    if (!order || order.productId === null || !event.saleId) return refuse(step, 'unknown subscription');
    if (await duplicateOf(step, order.id)) return { outcome: 'ignored', reason: 'duplicate', orderId: order.id };
    const eventId = await step.store({ outcome: 'applied', reason: `${kind} before the first sale`, orderId: order.id });
    if (eventId === null) return { outcome: 'ignored', orderId: order.id };
    await tx.insert(subscriptions).values({
      accountId: order.accountId,
      advertId: order.advertId,
      productId: order.productId,
      provider: provider.name,
      saleId: event.saleId,
      status,
      cancelledAt: kind === 'cancel' ? now : null,
      createdAt: now,
      updatedAt: now,
    });
    return { outcome: 'applied', reason: `${kind} before the first sale`, orderId: order.id };
  }
  if (await duplicateOf(step, null)) return { outcome: 'ignored', reason: 'duplicate' };
  const changes = subscription.status === SUBSCRIPTION_STATUS.Active || (status === SUBSCRIPTION_STATUS.Ended && subscription.status !== SUBSCRIPTION_STATUS.Ended);
  const decision: Decision = changes ? { outcome: 'applied' } : { outcome: 'ignored', reason: 'the subscription has ended already' };
  const eventId = await step.store(decision);
  if (eventId === null || !changes) return decision;
  await tx
    .update(subscriptions)
    .set({ status, ...(kind === 'cancel' ? { cancelledAt: now } : {}), updatedAt: now })
    .where(eq(subscriptions.id, subscription.id));
  await writeAudit(step.ctx, { action: `subscription.${kind === 'cancel' ? 'cancelled' : 'ended'}`, targetType: 'subscription', targetId: subscription.id, before: { status: subscription.status }, after: { status }, reason: `provider ${kind}` });
  if (kind === 'cancel') {
    // The advertiser cancelled on the provider's page (or support did at the provider): what is paid runs out.
    const [advert] = subscription.advertId === null ? [] : await tx.select({ expirationDate: adverts.expirationDate }).from(adverts).where(eq(adverts.id, subscription.advertId));
    step.effects.notices.push({ accountId: subscription.accountId, text: subscriptionCancelledText(advert?.expirationDate ?? null) });
  }
  return decision;
}

/** After the commit: publish what changed (search index, site rebuild) and tell the advertisers. */
export async function runEffects(ctx: DomainContext, deps: Pick<CommerceDeps, 'messaging'>, effects: Effects): Promise<void> {
  for (const [advertId, boost] of effects.adverts) await publishAdvertChange(ctx, advertId, 'order', { paidPeriod: boost ? 'boost' : 'package' });
  for (const notice of effects.notices) await noticeToAdvertiser(ctx, notice.accountId, notice.text, deps);
}

export type { Effects as CommerceEffects };
