import { and, eq } from 'drizzle-orm';
import type { BuyProductAnswer, BuyProductInput, BuyRefusal, PayOrderInput } from '#lib/schemas/commerce.ts';
import { splitGross } from '#lib/money.ts';
import { accounts, orders, products } from '../../db/schema.ts';
import { PaymentProviderUnavailableError, type PaymentProvider } from '../../adapters/types.ts';
import type { Advert } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { getOwnAdvert } from '../adverts/own-advert.ts';
import { refuseWhileImpersonating } from '../accounts/impersonation.ts';
import { PROFILE_STATUS } from '../adverts/statuses.ts';
import { ORDER_STATUS, PRODUCT_TYPE } from './order-status.ts';
import { isTestReference, newReference, recordOrderCreated, type OrderRow } from './orders.ts';
import type { CommerceDeps } from './apply-payment-event.ts';

/** How long an order can be paid; after that the expiry job moves it to Expired and a payment is a late one. */
export const ORDER_PAYABLE_MS = 2 * 3_600_000;

export const buyRefused = (code: BuyRefusal, message: string) => new AppError('CONFLICT', message, [{ field: 'ProductId', message: code }]);

/**
 * Spec §4: a boost may be bought only for an Active advert whose expiration is in the future (a missing
 * expiration counts as now, so it never is).
 */
export function mayBuyBoost(advert: Pick<Advert, 'status' | 'expirationDate'>, now: Date): boolean {
  return advert.status === PROFILE_STATUS.Active && advert.expirationDate !== null && advert.expirationDate > now;
}

/**
 * A new order's row: the product at today's price, copied (a later price change never alters it), in the
 * buyer's language, payable for two hours.
 */
export function newOrderValues(input: {
  advert: { id: number; accountId: number };
  product: typeof products.$inferSelect;
  provider: { method: string; name: string };
  reference: string;
  locale: 'da' | 'en';
  now: Date;
}): typeof orders.$inferInsert {
  const { advert, product, provider, now } = input;
  return {
    accountId: advert.accountId,
    advertId: advert.id,
    productId: product.id,
    productType: product.type,
    days: product.days,
    productDescription: input.locale === 'en' ? product.nameEn : product.nameDa,
    totalPriceOre: product.priceOre,
    vatOre: splitGross(product.priceOre).vatOre,
    currency: 'DKK',
    referenceId: input.reference,
    paymentMethod: provider.method,
    paymentProvider: provider.name,
    locale: input.locale,
    expiresAt: new Date(now.getTime() + ORDER_PAYABLE_MS),
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * buyproduct (POST): an order for the caller's own advert, in the buyer's language, at today's price
 * (copied: a later price change never alters it), payable for two hours; the provider of the chosen
 * method is asked to start, and the browser is told where to go (a redirect or a form). Nothing is
 * credited here: only the provider's signed postback does that (applyPaymentEvent).
 */
export async function buyProduct(ctx: DomainContext, deps: CommerceDeps, input: BuyProductInput): Promise<BuyProductAnswer> {
  refuseWhileImpersonating(ctx.actor, 'order.buy');
  const advert = await getOwnAdvert(ctx);
  const now = ctx.now();
  const [product] = await ctx.db.select().from(products).where(eq(products.id, input.ProductId));
  if (!product) throw notFound('Product');
  if (!product.active) throw buyRefused('productRetired', 'This product is no longer sold');
  if (product.type !== PRODUCT_TYPE.Membership && !mayBuyBoost(advert, now)) {
    throw buyRefused('advertNotActive', 'A promotion needs an active advert with a running package: buy a package first');
  }
  const provider = deps.providers.byMethod(input.PaymentMethod);
  if (!provider) throw buyRefused('methodUnavailable', 'This payment method is not offered');
  const [account] = await ctx.db.select({ locale: accounts.locale, email: accounts.email }).from(accounts).where(eq(accounts.id, advert.accountId));
  const locale = account?.locale === 'en' ? 'en' : 'da';
  const recurring = product.recurring && provider.method === 'card';
  const reference = newReference(provider.test);
  const order = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(orders)
      .values(newOrderValues({ advert, product, provider, reference, locale, now }))
      .returning();
    await recordOrderCreated(tx, created!, { actorType: 'advertiser', actorId: advert.accountId, now });
    await writeAudit({ ...ctx, db: tx }, {
      action: 'order.created',
      targetType: 'order',
      targetId: created!.id,
      after: { productId: product.id, totalPriceOre: product.priceOre, method: provider.method, provider: provider.name, reference },
    });
    return created!;
  });
  const next = await startPayment(ctx, deps, provider, order, { description: order.productDescription, recurringDays: recurring ? product.days : undefined, email: account?.email ?? undefined });
  return { orderId: order.id, referenceId: reference, expiresAt: order.expiresAt!.toISOString(), next };
}

/**
 * Asks the provider to start paying an order (its reference, price and language) and keeps the provider's
 * session id on the order; answers where the browser goes. A provider that cannot be reached is a 503 and
 * the order stays unpaid (it expires; nothing was charged).
 */
export async function startPayment(
  ctx: DomainContext,
  deps: CommerceDeps,
  provider: PaymentProvider,
  order: OrderRow,
  extra: { description: string; recurringDays?: number | undefined; email?: string | undefined },
): Promise<BuyProductAnswer['next']> {
  const site = deps.siteUrl.replace(/\/$/, '');
  let start;
  try {
    start = await provider.start({
      reference: order.referenceId!,
      amountOre: order.totalPriceOre,
      currency: 'DKK',
      description: extra.description,
      ...(extra.recurringDays !== undefined ? { recurringDays: extra.recurringDays } : {}),
      returnUrl: `${site}/backend/callback-payment/`,
      declineUrl: `${site}/backend/callback-payment/?declined=1&orderId=${order.id}`,
      postbackUrl: `${site}/api/backend/${provider.name}postback`,
      locale: order.locale === 'en' ? 'en' : 'da',
      ...(extra.email ? { email: extra.email } : {}),
    });
  } catch (error) {
    // The order stays unpaid and expires; nothing was charged.
    if (error instanceof PaymentProviderUnavailableError) throw new AppError('UNAVAILABLE', 'The payment provider cannot be reached. Try again later.', [], { cause: error });
    throw error;
  }
  if (start.providerSessionId) await ctx.db.update(orders).set({ providerSessionId: start.providerSessionId }).where(eq(orders.id, order.id));
  return start.kind === 'redirect' ? { kind: 'redirect', url: start.url } : { kind: 'form', action: start.action, fields: start.fields };
}

/**
 * confirmopayment / dimocopayment (spec §7): starts the payment of the caller's own order by that method
 * (crypto, carrier) again, e.g. after the buyer closed the provider's page: the order must still be open
 * (Created or Pending, not past `expires_at`) and made for that method by the provider configured now;
 * another advertiser's order answers 404 like a missing one. The same reference is used, so a second
 * payment of it is flagged, never credited.
 */
export async function payOrder(ctx: DomainContext, deps: CommerceDeps, method: 'crypto' | 'carrier', input: PayOrderInput): Promise<BuyProductAnswer> {
  refuseWhileImpersonating(ctx.actor, 'order.buy');
  const advert = await getOwnAdvert(ctx);
  const [order] = await ctx.db.select().from(orders).where(and(eq(orders.id, input.Id), eq(orders.accountId, advert.accountId)));
  if (!order) throw notFound('Order');
  const provider = deps.providers.byMethod(method);
  if (!provider || order.paymentMethod !== method || order.paymentProvider !== provider.name || isTestReference(order.referenceId) !== provider.test) {
    throw buyRefused('methodUnavailable', 'This order is not paid by this method');
  }
  const open = (order.status === ORDER_STATUS.Created || order.status === ORDER_STATUS.Pending) && (order.expiresAt === null || order.expiresAt > ctx.now());
  if (!open) throw buyRefused('orderNotOpen', 'This order can no longer be paid');
  const [account] = await ctx.db.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, order.accountId));
  const next = await startPayment(ctx, deps, provider, order, { description: order.productDescription, email: account?.email ?? undefined });
  return { orderId: order.id, referenceId: order.referenceId!, expiresAt: order.expiresAt!.toISOString(), next };
}
