import type { FastifyInstance } from 'fastify';
import { BuyProductSchema, PAYMENT_METHODS, CancelSubscriptionSchema, PayOrderSchema, PromotionsSchema, PurchaseHistorySchema, PurchaseItemSchema } from '#lib/schemas/commerce.ts';
import { buyProduct, payOrder } from '../domain/commerce/buy-product.ts';
import { getPromotions, getPurchaseItem, listPurchaseHistory } from '../domain/commerce/purchases.ts';
import { cancelSubscription } from '../domain/commerce/subscriptions.ts';
import { advertiserOf } from './backend.ts';
import { contextFor, readInput, type ApiDeps } from './http.ts';

/**
 * /api/backend/...: the advertiser's commerce calls (spec §7 Commerce; docs/decisions/025-commerce.md):
 * buyproduct, confirmopayment and dimocopayment (start again the crypto / carrier payment of one's own open
 * order), cancelsubscription (ours), purchasehistory, purchaseitem, promotions. Registered inside
 * `backendRoutes`, after its session hook; another advertiser's order answers 404 like a missing one.
 */
export function backendCommerceRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const ctxOf = (request: Parameters<typeof advertiserOf>[0]) => contextFor(deps, request, advertiserOf(request));
    const commerce = { messaging: deps.messaging, providers: deps.payments, siteUrl: deps.siteUrl };
    const limited = (max: number) => ({ config: { rateLimit: { max: max * deps.rateLimitScale, timeWindow: '1 minute' } } });

    app.post('/buyproduct', limited(10), async (request) => buyProduct(ctxOf(request), commerce, readInput(request, BuyProductSchema)));
    app.post('/confirmopayment', limited(10), async (request) => payOrder(ctxOf(request), commerce, 'crypto', readInput(request, PayOrderSchema)));
    app.post('/dimocopayment', limited(10), async (request) => payOrder(ctxOf(request), commerce, 'carrier', readInput(request, PayOrderSchema)));
    app.post('/cancelsubscription', limited(10), async (request) =>
      cancelSubscription(ctxOf(request), commerce, readInput(request, CancelSubscriptionSchema)),
    );
    app.get('/purchasehistory', async (request) => listPurchaseHistory(ctxOf(request), readInput(request, PurchaseHistorySchema)));
    app.get('/purchaseitem', limited(120), async (request) => getPurchaseItem(ctxOf(request), readInput(request, PurchaseItemSchema)));
    app.get('/promotions', async (request) => ({
      ...(await getPromotions(ctxOf(request), readInput(request, PromotionsSchema))),
      paymentMethods: PAYMENT_METHODS.filter((method) => deps.payments.byMethod(method) !== null),
    }));
  };
}
