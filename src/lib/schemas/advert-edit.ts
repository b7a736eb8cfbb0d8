import * as v from 'valibot';
import { parseDay } from '#lib/format.ts';

/**
 * Inputs of the advertiser's backend calls that edit their advert (spec §7, issue 4 part B), shared by
 * the backend screens (react-hook-form resolver) and the API. Parameter names as the spec writes them
 * (PascalCase; the API matches them case-insensitively, also inside list items). Messages are i18n keys
 * under `validation.` in the common catalog.
 */

// ---------------------------------------------------------------------------------------------
// Pure helpers (also used by the server)
// ---------------------------------------------------------------------------------------------

/**
 * A Danish phone number as typed ("20 30 40 50", "+45 2030 4050", "0045-20304050", "(+45) 2030 4050") →
 * its 8 digits, or null when it is not one: spaces, dots, dashes and brackets are ignored, a +45 / 0045
 * prefix is dropped; Danish subscriber numbers start with 2-9. The one normaliser of phone numbers
 * (account, advert and blacklist schemas, the outbox filter).
 */
export function normaliseDanishPhone(input: string): string | null {
  const compact = input.replace(/[\s.\-()]/g, '');
  const match = /^(?:\+45|0045)?([2-9]\d{7})$/.exec(compact);
  return match ? match[1]! : null;
}

/** DKK (up to 2 decimals, comma or point) → øre; null when it is not an amount. */
export function dkkToOre(input: number | string): number | null {
  const text = typeof input === 'number' ? String(input) : input.trim().replace(',', '.');
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(text)) return null;
  return Math.round(Number(text) * 100);
}

/** Payment options (spec §3), as stored on the advert. */
export const PAYMENT_OPTIONS = ['cash', 'creditcard', 'mobilepay', 'paypal', 'revolut', 'wise'] as const;
export type PaymentOption = (typeof PAYMENT_OPTIONS)[number];

/** Dashboard checklist items an advertiser may hide (the rest must be done before the advert goes live). */
export const SKIPPABLE_DASHBOARD_ITEMS = ['priceList', 'schedule'] as const;
export type SkippableDashboardItem = (typeof SKIPPABLE_DASHBOARD_ITEMS)[number];

/** Profile statuses an advertiser may ask for with changeprofilestatus: 1 Active (reactivate), 5 Deactivated (close). */
export const ADVERTISER_STATUS_CHOICES = [1, 5] as const;

// ---------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------

/** An object whose keys are matched case-insensitively (list items of a JSON body). */
function itemObject<TEntries extends v.ObjectEntries>(entries: TEntries) {
  const names = Object.keys(entries);
  return v.pipe(
    v.record(v.string(), v.unknown(), 'required'),
    v.transform((raw) => {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(raw)) {
        const name = names.find((n) => n.toLowerCase() === key.toLowerCase());
        if (name) out[name] = value;
      }
      return out;
    }),
    v.object(entries),
  );
}

const integerInput = (message = 'number') =>
  v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.trim(), v.regex(/^-?\d{1,9}$/, message), v.transform(Number))], message),
    v.integer(message),
  );

/** A database id (positive integer), from JSON or the query string. */
export const IdSchema = v.pipe(integerInput('required'), v.minValue(1, 'number'));

const intInRange = (min: number, max: number) => v.pipe(integerInput(), v.minValue(min, 'range'), v.maxValue(max, 'range'));

/** An optional number: missing, null or '' means "not stated" (null). */
const optionalIntInRange = (min: number, max: number) =>
  v.optional(
    v.union([
      v.pipe(v.union([v.null(), v.literal('')]), v.transform(() => null)),
      intInRange(min, max),
    ], 'number'),
    null,
  );

const flag = (fallback: boolean) =>
  v.optional(
    v.pipe(
      v.union([v.boolean(), v.picklist(['true', 'false', '1', '0', 'on', ''])], 'invalid'),
      v.transform((value) => value === true || value === 'true' || value === '1' || value === 'on'),
    ),
    fallback,
  );

const text = (min: number, max: number) =>
  v.pipe(
    v.string('required'),
    v.trim(),
    v.minLength(min, (issue) => (issue.input.length === 0 ? 'required' : 'tooShort')),
    v.maxLength(max, 'tooLong'),
  );

const optionalText = (max: number) => v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(max, 'tooLong')), '');

/** A list of ids as a JSON array or a comma list. */
export const idList = (max: number) =>
  v.pipe(
    v.union([v.string(), v.number(), v.array(v.union([v.string(), v.number()]))], 'ids'),
    v.transform((value) => (Array.isArray(value) ? value.join(',') : String(value))),
    v.transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
    v.check((parts) => parts.every((part) => /^\d{1,9}$/.test(part) && Number(part) > 0), 'ids'),
    v.transform((parts) => parts.map(Number)),
    v.maxLength(max, 'tooMany'),
  );

const phone = v.pipe(
  v.string('required'),
  v.trim(),
  v.nonEmpty('required'),
  v.check((value) => normaliseDanishPhone(value) !== null, 'phone'),
  v.transform((value) => normaliseDanishPhone(value)!),
);

const website = v.optional(
  v.pipe(
    v.union([v.null(), v.string('url')], 'url'),
    v.transform((value) => (value ?? '').trim()),
    v.maxLength(200, 'tooLong'),
    v.check((value) => value === '' || isHttpUrl(value), 'url'),
    v.transform((value) => (value === '' ? null : value)),
  ),
  null,
);

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

/** An amount in DKK incl. VAT (e.g. 1500 or "1.500,00" is not accepted; "1500,50" is), answered in øre. */
const dkk = v.pipe(
  v.union([v.number(), v.string()], 'number'),
  v.check((value) => dkkToOre(value) !== null, 'number'),
  v.transform((value) => dkkToOre(value)!),
  v.minValue(100, 'range'),
  v.maxValue(10_000_000, 'range'),
);

const optionalDkk = v.optional(
  v.union([v.pipe(v.union([v.null(), v.literal('')]), v.transform(() => null)), dkk], 'number'),
  null,
);

/** HH:mm on a 24-hour clock; 24:00 is accepted as the end of a day. */
const time = v.pipe(
  v.string('required'),
  v.trim(),
  v.regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'time'),
);

// ---------------------------------------------------------------------------------------------
// basicinformation, personaldetails
// ---------------------------------------------------------------------------------------------

/** basicinformation (POST): the basic/ screen. Name 2-40, title ≤ 80, introduction ≤ 500, description ≤ 4000. */
export const BasicInformationSchema = v.object({
  Name: text(2, 40),
  Title: optionalText(80),
  Introduction: optionalText(500),
  Description: optionalText(4000),
  Phone: phone,
  HasWhatsapp: flag(false),
  Website: website,
  RegionId: IdSchema,
  CityId: IdSchema,
});
export type BasicInformationInput = v.InferOutput<typeof BasicInformationSchema>;

/** personaldetails (POST): the personal/ screen. Ranges as the search filters (spec §5). */
export const PersonalDetailsSchema = v.object({
  Age: intInRange(18, 80),
  Height: optionalIntInRange(140, 220),
  Weight: optionalIntInRange(40, 120),
  /** 1 Natural, 2 Silicone; null not stated. */
  BreastType: optionalIntInRange(1, 2),
  NationalityId: v.optional(
    v.union([v.pipe(v.union([v.null(), v.literal('')]), v.transform(() => null)), IdSchema], 'number'),
    null,
  ),
  Languages: v.optional(idList(20), []),
});
export type PersonalDetailsInput = v.InferOutput<typeof PersonalDetailsSchema>;

// ---------------------------------------------------------------------------------------------
// Price list
// ---------------------------------------------------------------------------------------------

/** A price item: duration (15 min - 24 h) with an incall and/or outcall price in DKK incl. VAT. */
export const PriceItemSchema = v.pipe(
  itemObject({
    Id: v.optional(IdSchema),
    DurationMinutes: intInRange(15, 1440),
    IncallPrice: optionalDkk,
    OutcallPrice: optionalDkk,
    Description: optionalText(100),
  }),
  v.forward(
    v.check((item) => item.IncallPrice !== null || item.OutcallPrice !== null, 'required'),
    ['IncallPrice'],
  ),
);

/** An extra price item: what (1-100 characters) and its price in DKK incl. VAT. */
const extraPriceItemEntries = {
  Id: v.optional(IdSchema),
  Description: text(1, 100),
  Price: dkk,
};
export const ExtraPriceItemSchema = itemObject(extraPriceItemEntries);

/**
 * insertpriceservice: price items (with Id: that item is changed; without: added at the end), extra
 * price items (the same), and the advert's services (the whole set, when given).
 */
export const InsertPriceServiceSchema = v.object({
  PriceItems: v.optional(v.pipe(v.array(PriceItemSchema, 'invalid'), v.maxLength(30, 'tooMany')), []),
  ExtraPriceItems: v.optional(v.pipe(v.array(ExtraPriceItemSchema, 'invalid'), v.maxLength(30, 'tooMany')), []),
  Services: v.optional(idList(100)),
});
export type InsertPriceServiceInput = v.InferOutput<typeof InsertPriceServiceSchema>;

/** updateextrapriceitem: change one extra price item (Id) or add one (no Id). */
export const UpdateExtraPriceItemSchema = v.object(extraPriceItemEntries);
export type UpdateExtraPriceItemInput = v.InferOutput<typeof UpdateExtraPriceItemSchema>;

/** deleteextrapriceitem, deletepricelistitem, removefromblacklist: one item by id. */
export const ItemIdSchema = v.object({ Id: IdSchema });

/** reorderpricelistitems: every price item id of the advert, in the new order. */
export const ReorderPriceListItemsSchema = v.object({ Ids: v.pipe(idList(30), v.minLength(1, 'required')) });

/** updatepaymentoptions: the accepted payment options (a JSON array or a comma list). */
export const UpdatePaymentOptionsSchema = v.object({
  PaymentOptions: v.pipe(
    v.union([v.string(), v.array(v.string())], 'invalid'),
    v.transform((value) => (Array.isArray(value) ? value : value.split(',')).map((p) => p.trim().toLowerCase()).filter(Boolean)),
    v.check((values) => values.every((p) => (PAYMENT_OPTIONS as readonly string[]).includes(p)), 'invalid'),
    v.transform((values) => PAYMENT_OPTIONS.filter((p) => values.includes(p))),
  ),
});

// ---------------------------------------------------------------------------------------------
// Schedule and holiday
// ---------------------------------------------------------------------------------------------

/** One day of the week (1 Monday … 7 Sunday) with opening hours; To before From runs past midnight. */
const scheduleDayEntries = {
  Weekday: intInRange(1, 7),
  From: time,
  To: time,
};
export const ScheduleDaySchema = v.pipe(
  itemObject(scheduleDayEntries),
  v.forward(v.check((day) => day.From !== day.To, 'time'), ['To']),
);

/** schedule (POST): the whole week; days not listed are days off. */
export const ScheduleSchema = v.object({
  Days: v.pipe(
    v.array(ScheduleDaySchema, 'invalid'),
    v.maxLength(7, 'tooMany'),
    v.check((days) => new Set(days.map((d) => d.Weekday)).size === days.length, 'duplicate'),
  ),
});
export type ScheduleInput = v.InferOutput<typeof ScheduleSchema>;

/** updateprofileschedule: one day's hours. */
export const UpdateProfileScheduleSchema = v.pipe(
  v.object(scheduleDayEntries),
  v.forward(v.check((day) => day.From !== day.To, 'time'), ['To']),
);

/** deleteprofileschedule: make a day a day off, by schedule entry Id or by Weekday. */
export const DeleteProfileScheduleSchema = v.pipe(
  v.object({ Id: v.optional(IdSchema), Weekday: v.optional(intInRange(1, 7)) }),
  v.forward(v.check((input) => input.Id !== undefined || input.Weekday !== undefined, 'required'), ['Weekday']),
);

/**
 * setprofileholiday: back on a day (typed dd-MM-yyyy or carried yyyy-MM-dd, Copenhagen) or at an ISO time;
 * must be in the future (the domain checks that against its clock).
 */
export const SetProfileHolidaySchema = v.object({
  Until: v.pipe(
    v.string('required'),
    v.trim(),
    v.nonEmpty('required'),
    v.transform((value) => (value.includes('T') ? (/^\d{4}-\d{2}-\d{2}T.+$/.test(value) && !Number.isNaN(Date.parse(value)) ? value : null) : parseDay(value))),
    v.string('date'),
  ),
});

// ---------------------------------------------------------------------------------------------
// Reviews, blacklist
// ---------------------------------------------------------------------------------------------

/** addreview: the advertiser's one public reply to a review. */
export const AddReviewSchema = v.object({ ReviewId: IdSchema, Text: text(1, 1000) });

/** deletereview: ask support to remove a review, with an optional reason. */
export const DeleteReviewSchema = v.object({ ReviewId: IdSchema, Reason: optionalText(500) });

/** addtoblacklist: a client's phone number (Danish, normalised to 8 digits) and a private note. */
export const AddToBlacklistSchema = v.object({ Phone: phone, Note: optionalText(200) });

// ---------------------------------------------------------------------------------------------
// Status, account
// ---------------------------------------------------------------------------------------------

/** changeprofilestatus: the status wanted (the advertiser may choose 1 Active or 5 Deactivated). */
export const ChangeProfileStatusSchema = v.object({
  Status: v.pipe(integerInput('required'), v.picklist([0, 1, 2, 3, 5], 'invalid')),
});

/** deleteuser: the account's password confirms the deletion. */
export const DeleteUserSchema = v.object({
  Password: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(200, 'tooLong')),
});

/** restoreprofile (frontend): sign in to a deleted account within 30 days to restore it. */
export const RestoreProfileSchema = v.object({
  Email: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.email('email'), v.maxLength(254, 'tooLong')),
  Password: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(200, 'tooLong')),
});

// ---------------------------------------------------------------------------------------------
// Dashboard
// ---------------------------------------------------------------------------------------------

/** updateskipitems: the checklist items to hide (the whole set; empty shows them all again). */
export const UpdateSkipItemsSchema = v.object({
  Items: v.pipe(
    v.union([v.string(), v.array(v.string())], 'invalid'),
    v.transform((value) => (Array.isArray(value) ? value : value.split(',')).map((p) => p.trim()).filter(Boolean)),
    v.check((values) => values.every((p) => (SKIPPABLE_DASHBOARD_ITEMS as readonly string[]).includes(p)), 'invalid'),
    v.transform((values) => SKIPPABLE_DASHBOARD_ITEMS.filter((p) => values.includes(p))),
  ),
});

/** updatenotification: Status 0 unread / 1 read (or the words). */
export const UpdateNotificationSchema = v.object({
  Id: IdSchema,
  Status: v.pipe(
    v.union([v.number(), v.string()], 'required'),
    v.transform((value) => (value === 'read' || value === 'Read' ? 1 : value === 'unread' || value === 'Unread' ? 0 : Number(value))),
    v.picklist([0, 1], 'invalid'),
  ),
});

/** Answers in one language: Locale da (default: the account's) or en. */
export const LocaleSchema = v.object({ Locale: v.optional(v.picklist(['da', 'en'], 'invalid')) });
