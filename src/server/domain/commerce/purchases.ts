import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { OrderView, ProductOffer, PromotionsAnswer } from '#lib/schemas/commerce.ts';
import { splitGross } from '#lib/money.ts';
import { orders, products, salesDocuments, subscriptions } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { getOwnAdvert, requireAdvertiserAccountId } from '../adverts/own-advert.ts';
import { PRODUCT_TYPE, statusNameOf } from './order-status.ts';
import type { OrderRow } from './orders.ts';
import { clockOf, waitingPackageDays } from './fulfilment.ts';
import { namesOfOrder, namesOfProducts, type ProductNames } from './product-names.ts';
import { mayBuyBoost } from './buy-product.ts';
import { SUBSCRIPTION_STATUS } from './apply-payment-event.ts';

/**
 * The advertiser's reads of their own orders (purchasehistory, purchaseitem) and of what they can buy
 * (promotions). Orders are looked up with the caller's account in the condition, so another advertiser's
 * order answers 404 exactly like an id that does not exist.
 */


type Documents = Map<number, OrderView['documents']>;
type Names = Map<number, ProductNames>;

const namesOf = (ctx: DomainContext, rows: OrderRow[]): Promise<Names> => namesOfProducts(ctx.db, rows.map((row) => row.productId));

async function documentsOf(ctx: DomainContext, orderIds: number[]): Promise<Documents> {
  const byOrder: Documents = new Map();
  if (orderIds.length === 0) return byOrder;
  const rows = await ctx.db
    .select({ id: salesDocuments.id, orderId: salesDocuments.orderId, kind: salesDocuments.kind, number: salesDocuments.number })
    .from(salesDocuments)
    .where(inArray(salesDocuments.orderId, orderIds))
    .orderBy(asc(salesDocuments.id));
  for (const row of rows) byOrder.set(row.orderId, [...(byOrder.get(row.orderId) ?? []), { id: row.id, kind: row.kind, number: row.number }]);
  return byOrder;
}

function orderView(row: OrderRow, documents: Documents, names: Names): OrderView {
  return {
    id: row.id,
    referenceId: row.referenceId,
    productId: row.productId,
    productType: row.productType,
    productDescription: row.productDescription,
    productNames: namesOfOrder(row, names),
    days: row.days,
    totalPriceOre: row.totalPriceOre,
    vatOre: row.vatOre,
    currency: row.currency,
    status: row.status,
    statusName: statusNameOf(row.status),
    paymentMethod: row.paymentMethod,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    periodStart: row.periodStart?.toISOString() ?? null,
    periodEnd: row.periodEnd?.toISOString() ?? null,
    subscriptionId: row.subscriptionId,
    documents: documents.get(row.id) ?? [],
  };
}

/** purchasehistory: the caller's orders with their status, newest first, paged. */
export async function listPurchaseHistory(ctx: DomainContext, input: { Skip: number; Take: number }): Promise<{ total: number; items: OrderView[] }> {
  const accountId = requireAdvertiserAccountId(ctx);
  const where = eq(orders.accountId, accountId);
  const [totals, rows] = await Promise.all([
    ctx.db.select({ total: count() }).from(orders).where(where),
    ctx.db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).offset(input.Skip).limit(input.Take),
  ]);
  const [documents, names] = await Promise.all([documentsOf(ctx, rows.map((row) => row.id)), namesOf(ctx, rows)]);
  return { total: Number(totals[0]?.total ?? 0), items: rows.map((row) => orderView(row, documents, names)) };
}

/** purchaseitem: one of the caller's orders with its status (the callback and receipt screens poll it). */
export async function getPurchaseItem(ctx: DomainContext, input: { Id: number }): Promise<OrderView> {
  const accountId = requireAdvertiserAccountId(ctx);
  const [row] = await ctx.db.select().from(orders).where(and(eq(orders.id, input.Id), eq(orders.accountId, accountId)));
  if (!row) throw notFound('Order');
  return orderView(row, await documentsOf(ctx, [row.id]), await namesOf(ctx, [row]));
}

/**
 * promotions: the products of a type for sale, the advert's running period of that type, whether it may be
 * bought now, and for a package whether it waits for the advert's first approval (and how many days do).
 */
export async function getPromotions(ctx: DomainContext, input: { TypeId: number }): Promise<Omit<PromotionsAnswer, 'paymentMethods'>> {
  const advert = await getOwnAdvert(ctx);
  const now = ctx.now();
  const rows = await ctx.db
    .select()
    .from(products)
    .where(and(eq(products.type, input.TypeId), eq(products.active, true)))
    .orderBy(asc(products.sortOrder), asc(products.id));
  const offers: ProductOffer[] = rows.map((row) => ({
    id: row.id,
    code: row.code,
    type: row.type,
    nameDa: row.nameDa,
    nameEn: row.nameEn,
    days: row.days,
    priceOre: row.priceOre,
    vatOre: splitGross(row.priceOre).vatOre,
    recurring: row.recurring,
  }));
  const running = advert[clockOf(input.TypeId)];
  const [subscription] =
    input.TypeId === PRODUCT_TYPE.Membership
      ? await ctx.db
          .select()
          .from(subscriptions)
          .where(and(eq(subscriptions.accountId, advert.accountId), eq(subscriptions.status, SUBSCRIPTION_STATUS.Active)))
          .orderBy(desc(subscriptions.id))
          .limit(1)
      : [];
  return {
    typeId: input.TypeId,
    products: offers,
    runningUntil: running && running > now ? running.toISOString() : null,
    allowed: input.TypeId === PRODUCT_TYPE.Membership || mayBuyBoost(advert, now),
    startsWhenPublic: input.TypeId === PRODUCT_TYPE.Membership && advert.approvedAt === null,
    waitingDays: input.TypeId === PRODUCT_TYPE.Membership && advert.approvedAt === null ? await waitingPackageDays(ctx.db, advert.id) : 0,
    subscription: subscription ? { id: subscription.id, status: subscription.status, nextChargeOn: subscription.nextChargeOn?.toISOString() ?? null } : null,
  };
}
