import { eq } from 'drizzle-orm';
import type { BuyProductAnswer, BuyProductInput, BuyRefusal } from '#lib/schemas/commerce.ts';
import { splitGross } from '#lib/money.ts';
import { accounts, orders, products } from '../../db/schema.ts';
import { PaymentProviderUnavailableError } from '../../adapters/types.ts';
import type { Advert } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { getOwnAdvert } from '../adverts/own-advert.ts';
import { refuseWhileImpersonating } from '../accounts/impersonation.ts';
import { PROFILE_STATUS } from '../adverts/statuses.ts';
import { PRODUCT_TYPE } from './order-status.ts';
import { newReference, recordOrderCreated } from './orders.ts';
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
  const description = locale === 'en' ? product.nameEn : product.nameDa;
  const recurring = product.recurring && provider.method === 'card';
  const reference = newReference(provider.test);
  const order = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(orders)
      .values({
        accountId: advert.accountId,
        advertId: advert.id,
        productId: product.id,
        productType: product.type,
        days: product.days,
        productDescription: description,
        totalPriceOre: product.priceOre,
        vatOre: splitGross(product.priceOre).vatOre,
        currency: 'DKK',
        referenceId: reference,
        paymentMethod: provider.method,
        paymentProvider: provider.name,
        locale,
        expiresAt: new Date(now.getTime() + ORDER_PAYABLE_MS),
        createdAt: now,
        updatedAt: now,
      })
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
  const site = deps.siteUrl.replace(/\/$/, '');
  let start;
  try {
    start = await provider.start({
      reference,
      amountOre: order.totalPriceOre,
      currency: 'DKK',
      description,
      ...(recurring ? { recurringDays: product.days } : {}),
      returnUrl: `${site}/backend/callback-payment/`,
      postbackUrl: `${site}/api/backend/${provider.name}postback`,
      locale,
      ...(account?.email ? { email: account.email } : {}),
    });
  } catch (error) {
    // The order stays unpaid and expires; nothing was charged.
    if (error instanceof PaymentProviderUnavailableError) throw new AppError('UNAVAILABLE', 'The payment provider cannot be reached. Try again later.', [], { cause: error });
    throw error;
  }
  if (start.providerSessionId) await ctx.db.update(orders).set({ providerSessionId: start.providerSessionId }).where(eq(orders.id, order.id));
  return {
    orderId: order.id,
    referenceId: reference,
    expiresAt: order.expiresAt!.toISOString(),
    next: start.kind === 'redirect' ? { kind: 'redirect', url: start.url } : { kind: 'form', action: start.action, fields: start.fields },
  };
}
