/** Calls of support's orders and products screens (/api/support/orders …, products) made from the browser, and the download addresses. */
import { createApiClient, type ClientOptions } from './client.ts';
import type { Paged } from './support.ts';
import type { OrderStatusChangeInput, ProductChangeInput, ProductItem, SupportOrderDetail, SupportOrderItem } from '../schemas/orders.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** orders: the spec's fields, status and period (days yyyy-MM-dd); empty keys are not searched by. */
export type SupportOrdersQuery = {
  Skip?: number;
  Take?: number;
  Id?: string;
  TransactionId?: string;
  ProfileId?: string;
  ProductDescription?: string;
  TotalPrice?: string;
  Status?: string;
  From?: string;
  To?: string;
  RefundFlagged?: string;
};

export function createSupportOrdersApi(options: ClientOptions = {}) {
  const client = createApiClient('support', options);
  return {
    orders: (query: SupportOrdersQuery, signal?: AbortSignal) => client.get<Paged<SupportOrderItem>>('orders', { searchParams: query, ...withSignal(signal) }),
    order: (id: number, signal?: AbortSignal) => client.get<SupportOrderDetail>('order', { searchParams: { Id: id }, ...withSignal(signal) }),
    /** orderstatus: Paid → refunded or charged back with a reason; the order as it is now. */
    changeStatus: (body: OrderStatusChangeInput) => client.post<SupportOrderDetail>('orderstatus', { json: body }),
    /** products (Administration): every product, offered or retired. */
    products: (signal?: AbortSignal) => client.get<ProductItem[]>('products', withSignal(signal)),
    /** product (Administration): names, price, days, offered or retired; the product as it is now. */
    changeProduct: (body: ProductChangeInput) => client.post<ProductItem>('product', { json: body }),
  };
}

export const supportOrdersApi = createSupportOrdersApi();

/** The bookkeeper's CSV files for a period (downloads: plain links). */
export function bookkeepingCsvHref(file: 'ordersvatcsv' | 'orderdocumentscsv', period: { from: string; to: string }): string {
  return `/api/support/${file}?${new URLSearchParams({ From: period.from, To: period.to }).toString()}`;
}
