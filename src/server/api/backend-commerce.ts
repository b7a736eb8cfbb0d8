import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BuyProductSchema, PAYMENT_METHODS, CancelSubscriptionSchema, PayOrderSchema, PromotionsSchema, PurchaseHistorySchema, PurchaseItemSchema } from '#lib/schemas/commerce.ts';
import { buyProduct, payOrder } from '../domain/commerce/buy-product.ts';
import { getPromotions, getPurchaseItem, listPurchaseHistory } from '../domain/commerce/purchases.ts';
import { cancelSubscription } from '../domain/commerce/subscriptions.ts';
import { advertiserOf } from './backend.ts';
import { contextFor, readInput, type ApiDeps } from './http.ts';
import { siteUrlForVisitor } from './own-address.ts';

/**
 * /api/backend/...: the advertiser's commerce calls (spec §7 Commerce; docs/decisions/025-commerce.md):
 * buyproduct, confirmopayment and dimocopayment (start again the crypto / carrier payment of one's own open
 * order), cancelsubscription (ours), purchasehistory, purchaseitem, promotions. Registered inside
 * `backendRoutes`, after its session hook; another advertiser's order answers 404 like a missing one.
 */
export function backendCommerceRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const ctxOf = (request: Parameters<typeof advertiserOf>[0]) => contextFor(deps, request, advertiserOf(request));
    // The providers' returns come back to the address the advertiser used (in development: api/own-address.ts).
    const commerceFor = (request: FastifyRequest) => ({ messaging: deps.messaging, providers: deps.payments, siteUrl: siteUrlForVisitor(deps, request) });
    const limited = (max: number) => ({ config: { rateLimit: { max: max * deps.rateLimitScale, timeWindow: '1 minute' } } });

    app.post('/buyproduct', limited(10), async (request) => buyProduct(ctxOf(request), commerceFor(request), readInput(request, BuyProductSchema)));
    app.post('/confirmopayment', limited(10), async (request) => payOrder(ctxOf(request), commerceFor(request), 'crypto', readInput(request, PayOrderSchema)));
    app.post('/dimocopayment', limited(10), async (request) => payOrder(ctxOf(request), commerceFor(request), 'carrier', readInput(request, PayOrderSchema)));
    app.post('/cancelsubscription', limited(10), async (request) =>
      cancelSubscription(ctxOf(request), commerceFor(request), readInput(request, CancelSubscriptionSchema)),
    );
    app.get('/purchasehistory', async (request) => listPurchaseHistory(ctxOf(request), readInput(request, PurchaseHistorySchema)));
    app.get('/purchaseitem', limited(120), async (request) => getPurchaseItem(ctxOf(request), readInput(request, PurchaseItemSchema)));
    app.get('/promotions', async (request) => ({
      ...(await getPromotions(ctxOf(request), readInput(request, PromotionsSchema))),
      paymentMethods: PAYMENT_METHODS.filter((method) => deps.payments.byMethod(method) !== null),
    }));
  };
}
