import type { PaymentMethod, PaymentProvider, PaymentProviders } from '../types.ts';

/**
 * The payment providers the server runs, keyed by method (card, crypto, carrier), as the configuration
 * chose them (PAYMENT_CARD, …). A method without a provider is not offered.
 */
export function createPaymentProviders(byMethod: Partial<Record<PaymentMethod, PaymentProvider | null>>): PaymentProviders {
  return {
    byMethod: (method) => byMethod[method] ?? null,
    isLive: (method) => {
      const provider = byMethod[method];
      return provider !== undefined && provider !== null && !provider.test;
    },
  };
}
