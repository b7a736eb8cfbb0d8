import { PaymentProviderUnavailableError, type PaymentProvider } from '../types.ts';
import {
  FLEXPAY_POSTBACK_ANSWER,
  decimalAmount,
  flexPayPeriod,
  parseFlexPayPostback,
  signedStartUrl,
} from './flexpay.ts';

/**
 * The card provider (PAYMENT_CARD=cardbilling), shaped by Verotel FlexPay's published interface: the buyer
 * is sent to a signed `startorder` URL (one payment) or `subscription` URL (a membership that renews every
 * `period`), pays on the provider's page, and comes back to our success URL (`/api/CardBilling/Success`);
 * what counts is the signed GET postback to `/api/backend/cardbillingpostback` (./flexpay.ts).
 *
 * `cancelSubscription` asks the provider to stop a subscription's next charge with a signed request in
 * the same form (`cancel-subscription`); check the exact address against the provider's contract before
 * going live (docs/decisions/025-commerce.md).
 */
export function createCardBillingProvider(options: {
  shopId: string;
  signatureKey: string;
  /** CARDBILLING_URL, e.g. https://secure.verotel.com */
  url: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): PaymentProvider {
  const base = options.url.replace(/\/$/, '');
  const doFetch = options.fetch ?? fetch;
  return {
    name: 'cardbilling',
    method: 'card',
    test: false,
    start: async (request) => {
      const recurring = request.recurringDays !== undefined;
      const params: Record<string, string> = {
        version: '4',
        shopID: options.shopId,
        priceAmount: decimalAmount(request.amountOre),
        priceCurrency: request.currency,
        description: request.description,
        referenceID: request.reference,
        type: recurring ? 'subscription' : 'purchase',
        ...(recurring ? { subscriptionType: 'recurring', period: flexPayPeriod(request.recurringDays!) } : {}),
        successURL: request.returnUrl,
        ...(request.email ? { email: request.email } : {}),
      };
      return { kind: 'redirect', url: signedStartUrl(`${base}/${recurring ? 'subscription' : 'startorder'}`, options.signatureKey, params) };
    },
    parsePostback: async (postback) => parseFlexPayPostback(postback, { shopId: options.shopId, key: options.signatureKey }),
    postbackAnswer: FLEXPAY_POSTBACK_ANSWER,
    cancelSubscription: async (saleId) => {
      const url = signedStartUrl(`${base}/cancel-subscription`, options.signatureKey, { version: '4', shopID: options.shopId, saleID: saleId });
      let response: Response;
      try {
        response = await doFetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
      } catch (error) {
        throw new PaymentProviderUnavailableError('the card provider could not be reached to cancel a subscription', { cause: error });
      }
      if (!response.ok) throw new PaymentProviderUnavailableError(`the card provider answered ${response.status} to a cancellation`);
    },
  };
}
