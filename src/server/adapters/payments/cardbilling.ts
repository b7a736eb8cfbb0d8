import type { PaymentProvider } from '../types.ts';
import { FLEXPAY_POSTBACK_ANSWER, decimalAmount, flexPayPeriod, flexPayUrl, parseFlexPayPostback } from './flexpay.ts';

/**
 * The card provider (PAYMENT_CARD=cardbilling), Verotel FlexPay as its own client speaks it (./flexpay.ts,
 * docs/payments/cardbilling.md): the buyer is sent to a signed `startorder` URL, a purchase or a
 * subscription (a membership that renews every `period`), pays on the provider's page and comes back to
 * our success URL (or, declined, to our decline URL); what counts is the signed GET postback to
 * `/api/backend/cardbillingpostback`. A subscription is stopped by the buyer on the provider's signed
 * `cancel-subscription` page, and counts as cancelled when the provider's `cancel` postback arrives.
 *
 * The same code runs against the built-in TEST stand-in (PAYMENT_CARD=test): `url` is then the stand-in's
 * address on this site and `test` marks its references TEST-PAY- (./test-card-provider.ts).
 */
export function createCardBillingProvider(options: {
  shopId: string;
  signatureKey: string;
  /** The brand's host (CARDBILLING_BRAND), or CARDBILLING_URL when set; the stand-in's address in tests. */
  url: string;
  test?: boolean;
}): PaymentProvider {
  const base = options.url.replace(/\/$/, '');
  const sign = { shopId: options.shopId, key: options.signatureKey };
  return {
    name: 'cardbilling',
    method: 'card',
    test: options.test ?? false,
    start: async (request) => {
      const recurring = request.recurringDays !== undefined;
      const params = {
        priceAmount: decimalAmount(request.amountOre),
        priceCurrency: request.currency,
        description: request.description,
        referenceID: request.reference,
        ...(recurring ? { subscriptionType: 'recurring', period: flexPayPeriod(request.recurringDays!) } : {}),
        successURL: request.returnUrl,
        declineURL: request.declineUrl,
        email: request.email,
      };
      return { kind: 'redirect', url: flexPayUrl(`${base}/startorder`, { ...sign, type: recurring ? 'subscription' : 'purchase' }, params) };
    },
    parsePostback: async (postback) => parseFlexPayPostback(postback, sign),
    postbackAnswer: FLEXPAY_POSTBACK_ANSWER,
    cancelSubscriptionUrl: (saleId) => flexPayUrl(`${base}/cancel-subscription`, sign, { saleID: saleId }),
  };
}

/** The provider's signed status page of a sale (by saleID or referenceID), as the client makes it. */
export function flexPayStatusUrl(base: string, options: { shopId: string; signatureKey: string }, by: { saleID: string } | { referenceID: string }): string {
  return flexPayUrl(`${base.replace(/\/$/, '')}/salestatus`, { shopId: options.shopId, key: options.signatureKey }, by);
}
