/** The advertiser's commerce calls (docs/decisions/025-commerce.md): promotions, buyproduct, purchaseitem, purchasehistory. */
import { backendApi } from '#lib/api/backend.ts';
import type { BuyProductAnswer, CancelSubscriptionAnswer, OrderView, PaymentMethodName, PromotionsAnswer } from '#lib/schemas/commerce.ts';

export type { BuyProductAnswer, OrderView, PaymentMethodName, PromotionsAnswer };

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** Order statuses that end the wait (purchaseitem): 1 Paid, 2 Failed, 3 Expired, 4 Refunded, 5 ChargedBack. */
export const FINAL_STATUSES = new Set([1, 2, 3, 4, 5]);

/** A page of purchasehistory: its first row and how many rows (at most 100). */
export type HistoryPage = { Skip: number; Take: number };
/** The newest orders: where a provider's return or "the newest receipt" looks for an order just bought. */
const NEWEST_ORDERS: HistoryPage = { Skip: 0, Take: 100 };

export const commerceApi = {
  promotions: (typeId: 1 | 2 | 3, signal?: AbortSignal) =>
    backendApi.client.get<PromotionsAnswer>('promotions', { searchParams: { TypeId: typeId }, ...withSignal(signal) }),
  buy: (productId: number, method: PaymentMethodName) =>
    backendApi.client.post<BuyProductAnswer>('buyproduct', { json: { ProductId: productId, PaymentMethod: method } }),
  order: (id: number, signal?: AbortSignal) => backendApi.client.get<OrderView>('purchaseitem', { searchParams: { Id: id }, ...withSignal(signal) }),
  cancelSubscription: (id: number) => backendApi.client.post<CancelSubscriptionAnswer>('cancelsubscription', { json: { Id: id } }),
  /** purchasehistory: a page of the own orders, newest first; by default the newest (as many as a page may hold). */
  history: (signal?: AbortSignal, page: HistoryPage = NEWEST_ORDERS) =>
    backendApi.client.get<{ total: number; items: OrderView[] }>('purchasehistory', { searchParams: page, ...withSignal(signal) }),
};

/** Where the browser goes after buyproduct: the provider's page, by a redirect or by posting its form. */
export function followBuyAnswer(next: BuyProductAnswer['next']): void {
  if (next.kind === 'redirect') {
    location.assign(next.url);
    return;
  }
  const form = document.createElement('form');
  form.method = 'post';
  form.action = next.action;
  for (const [name, value] of Object.entries(next.fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}

/** The order bought in this tab, by its reference (the provider's return carries the reference only). */
const REFERENCE_KEY = 'backend-order-by-reference';
export function rememberOrder(referenceId: string, orderId: number): void {
  try {
    const known = JSON.parse(sessionStorage.getItem(REFERENCE_KEY) ?? '{}') as Record<string, number>;
    known[referenceId] = orderId;
    sessionStorage.setItem(REFERENCE_KEY, JSON.stringify(known));
  } catch {
    // Storage refused: the callback looks the reference up in the purchase history instead.
  }
}
export function rememberedOrder(referenceId: string): number | null {
  try {
    const known = JSON.parse(sessionStorage.getItem(REFERENCE_KEY) ?? '{}') as Record<string, number>;
    return known[referenceId] ?? null;
  } catch {
    return null;
  }
}

/**
 * The order a provider's return is about: `orderId` when given, else by its `referenceID` (remembered in
 * this tab at buyproduct, else found in the purchase history); null when unknown.
 */
export async function orderIdOfReturn(query: URLSearchParams, signal?: AbortSignal): Promise<number | null> {
  const given = query.get('orderId');
  if (given && /^\d{1,9}$/.test(given)) return Number(given);
  const reference = query.get('referenceID') ?? query.get('referenceId') ?? '';
  if (!reference) return null;
  const remembered = rememberedOrder(reference);
  if (remembered) return remembered;
  const history = await commerceApi.history(signal);
  return history.items.find((order) => order.referenceId === reference)?.id ?? null;
}
