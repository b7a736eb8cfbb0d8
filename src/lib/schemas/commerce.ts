import * as v from 'valibot';
import { querySkip, queryTake, wholeNumber } from './query-values.ts';

/**
 * The advertiser's commerce calls (spec §7 Commerce; docs/decisions/025-commerce.md): buyproduct,
 * cancelsubscription (ours), purchasehistory, purchaseitem, promotions; and the shapes of their answers.
 * Amounts are integer øre, VAT included.
 */

/** A whole number of 1 or more. */
const positiveNumber = (message: string) => v.pipe(wholeNumber(message), v.minValue(1, message));

export const PAYMENT_METHODS = ['card', 'crypto', 'carrier'] as const;
export type PaymentMethodName = (typeof PAYMENT_METHODS)[number];

/** buyproduct (POST, JSON): a product for the caller's own advert, paid by a method. */
export const BuyProductSchema = v.object(
  { ProductId: positiveNumber('required'), PaymentMethod: v.picklist(PAYMENT_METHODS, 'paymentMethod') },
  'required',
);
export type BuyProductInput = v.InferOutput<typeof BuyProductSchema>;

/** cancelsubscription (POST, JSON): asks to stop a renewing membership's next charge. */
export const CancelSubscriptionSchema = v.object({ Id: positiveNumber('required') }, 'required');

/** cancelsubscription's answer: the subscription, and the provider's cancel page to open (null: stopped already). */
export type CancelSubscriptionAnswer = { id: number; status: number; nextChargeOn: string | null; cancelledAt: string | null; cancelUrl: string | null };

/** purchaseitem (GET): one of the caller's orders. */
export const PurchaseItemSchema = v.object({ Id: positiveNumber('required') }, 'required');

/** purchasehistory (GET): the caller's orders, newest first, paged (Take 1 to 100, 20 when not given). */
export const PurchaseHistorySchema = v.object(
  {
    Skip: querySkip,
    Take: queryTake(100, 20),
  },
  'required',
);

/** promotions (GET): the products of a type (1 Membership, 2 FrontpageBoost, 3 SearchBoost). */
export const PromotionsSchema = v.object({ TypeId: v.pipe(positiveNumber('required'), v.maxValue(3, 'range')) }, 'required');

/** Why a buy is refused with 409 (the screens word it; `advertNotActive` sends the buyer to the buy page). */
export type BuyRefusal = 'advertNotActive' | 'productRetired' | 'methodUnavailable' | 'alreadyOpen' | 'orderNotOpen';

/** confirmopayment, dimocopayment: start (again) the payment of one's own open order of that method. */
export const PayOrderSchema = v.object({ Id: positiveNumber('required') }, 'required');
export type PayOrderInput = v.InferOutput<typeof PayOrderSchema>;

/** What the browser does next after buyproduct: go to the provider's page, or post a form to it. */
export type BuyProductAnswer = {
  orderId: number;
  referenceId: string;
  expiresAt: string;
  next: { kind: 'redirect'; url: string } | { kind: 'form'; action: string; fields: Record<string, string> };
};

/** One order as its buyer sees it. status: 0 Created, 6 Pending, 1 Paid, 2 Failed, 3 Expired, 4 Refunded, 5 ChargedBack. */
export type OrderView = {
  id: number;
  referenceId: string | null;
  productId: number | null;
  productType: number;
  /** What was bought, as named at purchase (in the buyer's language then). */
  productDescription: string;
  /** The product's name in both languages when the order names it (screens show their language's); else null. */
  productNames: { da: string; en: string } | null;
  days: number;
  totalPriceOre: number;
  vatOre: number;
  currency: string;
  status: number;
  statusName: 'Created' | 'Pending' | 'Paid' | 'Failed' | 'Expired' | 'Refunded' | 'ChargedBack';
  paymentMethod: string | null;
  createdAt: string;
  paidAt: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  subscriptionId: number | null;
  /** The receipt and any credit note (numbers), for the receipt screens. */
  documents: { id: number; kind: string; number: number }[];
};

/** A product for sale: its name in both languages (the screen shows the one of its language), days, price incl. VAT. */
export type ProductOffer = { id: number; code: string; type: number; nameDa: string; nameEn: string; days: number; priceOre: number; vatOre: number; recurring: boolean };

/** promotions: what can be bought of a type, and what runs now. */
export type PromotionsAnswer = {
  typeId: number;
  products: ProductOffer[];
  /** The running period of that type (membership: the expiration; boosts: the boost's end), or null. */
  runningUntil: string | null;
  /** Whether a boost may be bought now (an Active advert whose expiration is in the future); memberships always. */
  allowed: boolean;
  /** Memberships: the advert was never public, so a package bought now starts when support first approves it. */
  startsWhenPublic: boolean;
  /** Memberships: the days of packages paid that wait for that first approval (0: none). */
  waitingDays: number;
  /** The advertiser's renewing membership, if any (cancel stops its next charge). */
  subscription: { id: number; status: number; nextChargeOn: string | null } | null;
  /** The payment methods the server offers now (those with a configured provider). */
  paymentMethods: PaymentMethodName[];
};

/** An order's product as the screen's language names it (the name at purchase when the product was renamed since). */
export const productNameOf = (order: Pick<OrderView, 'productDescription' | 'productNames'>, locale: string): string =>
  order.productNames ? (locale === 'en' ? order.productNames.en : order.productNames.da) : order.productDescription;
