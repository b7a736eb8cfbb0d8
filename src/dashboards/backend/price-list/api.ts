/** The price list screen's calls (spec §7: priceservice, insertpriceservice, …) and their answers. */
import { backendApi } from '#lib/api/backend.ts';
import type { PaymentOption } from '#lib/schemas/advert-edit.ts';

/** Prices in øre, VAT included. */
export type PriceItem = { id: number; durationMinutes: number; incallPriceOre: number | null; outcallPriceOre: number | null; description: string | null };
export type ExtraPriceItem = { id: number; description: string; priceOre: number };
export type Service = { id: number; slug: string; nameDa: string; nameEn: string; type: number; selected: boolean };

/** The answer of priceservice and of every call that changes the price list. */
export type PriceService = {
  priceItems: PriceItem[];
  extraPriceItems: ExtraPriceItem[];
  /** Every service with its type (1 Girlfriend experience, 2 Pornstar experience, 3 Advanced, 4 Massage). */
  services: Service[];
  /** The service ids waiting for support's approval (null: nothing pending). */
  pendingServiceIds: number[] | null;
  paymentOptions: { code: PaymentOption; selected: boolean }[];
  incall: boolean;
  outcall: boolean;
};

/** A price item as insertpriceservice takes it: prices in DKK incl. VAT (null: not offered). */
export type PriceItemInput = {
  Id?: number;
  DurationMinutes: number;
  IncallPrice: number | null;
  OutcallPrice: number | null;
  Description: string;
};

const client = backendApi.client;

export const priceListApi = {
  load: (signal?: AbortSignal) => client.get<PriceService>('priceservice', signal ? { signal } : {}),
  savePriceItem: (item: PriceItemInput) => client.post<PriceService>('insertpriceservice', { json: { PriceItems: [item] } }),
  saveServices: (ids: number[]) => client.post<PriceService>('insertpriceservice', { json: { Services: ids } }),
  deletePriceItem: (id: number) => client.post<PriceService>('deletepricelistitem', { json: { Id: id } }),
  reorder: (ids: number[]) => client.post<PriceService>('reorderpricelistitems', { json: { Ids: ids } }),
  saveExtraItem: (item: { Id?: number; Description: string; Price: number }) =>
    client.post<PriceService>('updateextrapriceitem', { json: item }),
  deleteExtraItem: (id: number) => client.post<PriceService>('deleteextrapriceitem', { json: { Id: id } }),
  savePaymentOptions: (options: PaymentOption[]) => client.post<PriceService>('updatepaymentoptions', { json: { PaymentOptions: options } }),
};

/** øre → the DKK amount the API takes (e.g. 150050 → 1500.5). */
export const oreToDkk = (ore: number): number => ore / 100;

/** øre → the text of a price field ("1500" or "1500,50"). */
export function oreToField(ore: number | null): string {
  if (ore === null) return '';
  return ore % 100 === 0 ? String(ore / 100) : (ore / 100).toFixed(2).replace('.', ',');
}
