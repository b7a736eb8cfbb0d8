import * as v from 'valibot';
import { KRONER_PATTERN, kronerToOre } from '#lib/money.ts';
import { optionalTypedDay, queryFlag, querySkip, queryTake, typedDay, wholeNumber } from './query-values.ts';

/**
 * Orders and their sales documents as advertisers and support read them (issue 16, spec §7
 * purchasehistoryreceipt and support's orders), the full-invoice request, the bookkeeper's CSV period and
 * Administration's product changes: the inputs of the calls (shared with the screens' forms) and the shapes
 * of their answers. Messages are keys of `validation.*` in the common catalog (da and en).
 */

/** A whole number given as a number or as digits in a string (query parameters are strings). */
const optionalNumber = v.optional(v.union([v.literal(''), wholeNumber('number')], 'number'), '');
const text = (max: number) => v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(max, 'tooLong'));
const searchText = (max: number) => v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(max, 'tooLong')), '');
const locale = v.optional(v.union([v.literal(''), v.picklist(['da', 'en'], 'invalid')], 'invalid'), '');

/** The kinds of sales documents (docs/decisions/025-commerce.md). */
export const SALES_DOCUMENT_KINDS = ['receipt', 'invoice', 'credit_note'] as const;
export type SalesDocumentKindName = (typeof SALES_DOCUMENT_KINDS)[number];

/**
 * purchasehistoryreceipt (backend): the advertiser's own order's documents as JSON, or one of them as a
 * PDF (`Format=pdf`; `DocumentId` picks one, else the receipt; `Locale` asks for the other language).
 */
export const PurchaseReceiptQuerySchema = v.object(
  {
    Id: wholeNumber('required'),
    Format: v.optional(v.picklist(['json', 'pdf'], 'invalid'), 'json'),
    DocumentId: optionalNumber,
    Locale: locale,
  },
  'required',
);
export type PurchaseReceiptQueryInput = v.InferOutput<typeof PurchaseReceiptQuerySchema>;

/** purchasehistoryinvoice (backend): a full invoice for the order's receipt with the buyer's name and address. */
export const FullInvoiceRequestSchema = v.object(
  {
    Id: wholeNumber('required'),
    Name: text(200),
    Address: text(200),
    ZipCity: v.pipe(text(100), v.regex(/^\S{3,10}\s+\S/u, 'zipCity')),
  },
  'required',
);
export type FullInvoiceRequestInput = v.InferOutput<typeof FullInvoiceRequestSchema>;

/** Order status values (domain/commerce/order-status.ts): 0 Created … 6 Pending. */
export const ORDER_STATUS_VALUES = [0, 1, 2, 3, 4, 5, 6] as const;

/**
 * orders (support): search by the spec's fields (Id, TransactionId, ProfileId: exact; ProductDescription:
 * contains; TotalPrice in kroner, "299", "299,00" or "1.199,00"), status, a period of creation (From, To:
 * days, both included) and RefundFlagged (only orders flagged for refund: a payment that was never
 * credited, e.g. a second payment for a paid order, which support must give back); newest first, paged.
 */
export const SupportOrdersQuerySchema = v.object({
  Skip: querySkip,
  Take: queryTake(200, 50),
  Id: optionalNumber,
  TransactionId: searchText(200),
  ProfileId: optionalNumber,
  ProductDescription: searchText(200),
  TotalPrice: v.optional(v.pipe(v.string('number'), v.trim(), v.check((text) => text === '' || KRONER_PATTERN.test(text), 'number')), ''),
  Status: v.optional(
    v.union([v.literal(''), v.pipe(wholeNumber('invalid'), v.picklist(ORDER_STATUS_VALUES, 'invalid'))], 'invalid'),
    '',
  ),
  From: optionalTypedDay,
  To: optionalTypedDay,
  RefundFlagged: queryFlag('flag'),
});
export type SupportOrdersQueryInput = v.InferOutput<typeof SupportOrdersQuerySchema>;

/** order (support), orderdocument (support): one by id; a document in the other language with Locale. */
export const SupportOrderIdSchema = v.object({ Id: wholeNumber('required'), Locale: locale }, 'required');

/**
 * orderstatus (support): Paid → refunded or charged back (the moves ORDER_TRANSITIONS gives support), with
 * the reason in support's words (on the order's history, the credit note and the audit). Refunded: the money
 * went back; charged back: the buyer's bank took it back.
 */
export const ORDER_STATUS_CHANGES = ['refunded', 'chargedBack'] as const;
export type OrderStatusChange = (typeof ORDER_STATUS_CHANGES)[number];
export const OrderStatusChangeSchema = v.object(
  {
    Id: wholeNumber('required'),
    Status: v.picklist(ORDER_STATUS_CHANGES, 'required'),
    Reason: text(2000),
  },
  'required',
);
export type OrderStatusChangeInput = v.InferOutput<typeof OrderStatusChangeSchema>;

/** The bookkeeper's CSV files: a period of days (From, To, both included, To not before From). */
export const BookkeepingPeriodSchema = v.object({ From: typedDay, To: typedDay }, 'required');
export type BookkeepingPeriodInput = v.InferOutput<typeof BookkeepingPeriodSchema>;

/** What a product change names besides its price: the product, its names, days and whether it is offered. */
const productFields = {
  Id: wholeNumber('required'),
  NameDa: text(100),
  NameEn: text(100),
  Days: v.pipe(wholeNumber('number'), v.minValue(1, 'range'), v.maxValue(3650, 'range')),
  Active: v.boolean('required'),
};
/** A price in øre, VAT included: more than 0, at most 1.000.000 kroner. */
const priceRange = v.pipe(v.number('number'), v.minValue(1, 'range'), v.maxValue(100_000_000, 'range'));

/**
 * product (support, Administration): Danish and English names, days, price in øre (VAT included) and
 * offered (Active) or retired. Orders copied name, days and price when they were made; a change is for
 * new orders only.
 */
export const ProductChangeSchema = v.object({ ...productFields, PriceOre: v.pipe(wholeNumber('number'), priceRange) }, 'required');
export type ProductChangeInput = v.InferOutput<typeof ProductChangeSchema>;

/**
 * The form of support's products screen: the call's fields with the price typed in kroner ("499,00",
 * "1.199,00"; KRONER_PATTERN), read into øre exactly (kronerToOre), so what is sent is ProductChangeInput
 * and the call's refusals land at the same fields.
 */
export const ProductFormSchema = v.object(
  {
    ...productFields,
    PriceOre: v.pipe(
      v.string('number'),
      v.trim(),
      v.regex(KRONER_PATTERN, 'number'),
      v.transform((kroner) => kronerToOre(kroner) ?? 0),
      priceRange,
    ),
  },
  'required',
);

// ---- Answers ----------------------------------------------------------------------------------

/** A party of a sales document (the seller as the website config named it, or a full invoice's buyer); stored as is (db/schema.ts). */
export type DocumentParty = { name: string; address?: string; zipCity?: string; vat?: string; email?: string };

/** One line of a sales document: one thing bought, its period, amounts in øre; stored as is (db/schema.ts). */
export type DocumentLine = {
  description: string;
  periodStart: string | null;
  periodEnd: string | null;
  netOre: number;
  vatOre: number;
  totalOre: number;
};

/** A sales document as the receipt page and support show it; `pdfUrl` downloads it. */
export type SalesDocumentAnswer = {
  id: number;
  kind: SalesDocumentKindName;
  number: number;
  /** The number as printed: at least six digits. */
  numberText: string;
  issuedAt: string;
  locale: string;
  /** The receipt a credit note credits or a full invoice is made for. */
  refersTo: { id: number; number: number } | null;
  seller: DocumentParty;
  buyer: DocumentParty | null;
  lines: DocumentLine[];
  netOre: number;
  vatOre: number;
  totalOre: number;
  vatRateBp: number;
  reason: string | null;
  pdfUrl: string;
};

/** An order as its documents describe it (what was bought, for how much, how it was paid). */
export type OrderSummary = {
  id: number;
  productDescription: string;
  productType: number;
  days: number;
  totalPriceOre: number;
  vatOre: number;
  status: number;
  paymentMethod: string | null;
  transactionId: string | null;
  createdAt: string;
  paidAt: string | null;
  periodStart: string | null;
  periodEnd: string | null;
};

/** purchasehistoryreceipt (JSON): the order and its documents, oldest first. */
export type PurchaseReceiptAnswer = {
  /** The order; `productNames` as in OrderView (the screen names the product in its language). */
  order: OrderSummary & { productNames: { da: string; en: string } | null };
  documents: SalesDocumentAnswer[];
  /** A receipt exists and no full invoice has been made for it yet. */
  canRequestInvoice: boolean;
};

/** purchasehistoryinvoice: the full invoice, new (`created`) or the one made before. */
export type FullInvoiceAnswer = { created: boolean; document: SalesDocumentAnswer };

/** One order in support's list. */
export type SupportOrderItem = OrderSummary & {
  profileId: number | null;
  accountId: number;
  referenceId: string | null;
  paymentProvider: string | null;
  refundFlagged: boolean;
  receiptNumber: number | null;
};

/** One order with everything that happened to it (order, support). */
export type SupportOrderDetail = SupportOrderItem & {
  advertName: string | null;
  accountEmail: string | null;
  productId: number | null;
  locale: string;
  expiresAt: string | null;
  fulfilledAt: string | null;
  refundFlaggedAt: string | null;
  refundFlagReason: string | null;
  events: { id: number; fromStatus: number | null; toStatus: number; actorType: string; actorId: number | null; reason: string | null; paymentEventId: number | null; createdAt: string }[];
  /** Postbacks as stored, raw. */
  paymentEvents: {
    id: number;
    provider: string;
    eventKey: string;
    method: string;
    rawQuery: string;
    rawBody: string;
    signature: string | null;
    kind: string | null;
    outcome: string;
    reason: string | null;
    receivedAt: string;
  }[];
  documents: SalesDocumentAnswer[];
};

/** One product as Administration manages it (products). */
export type ProductItem = {
  id: number;
  code: string;
  type: number;
  nameDa: string;
  nameEn: string;
  days: number;
  priceOre: number;
  /** The VAT inside priceOre. */
  vatOre: number;
  active: boolean;
  recurring: boolean;
  updatedAt: string;
};
