import * as v from 'valibot';
import { wholeNumber } from './query-values.ts';
import { BasicInformationSchema, PersonalDetailsSchema, idList } from './advert-edit.ts';
import { ADVERT_GENDER_VALUES, ADVERT_KIND_VALUES } from './account.ts';
import { TERMS_RULES } from './moderation.ts';
import type { BackendPicture, BackendVideo } from './media.ts';

/**
 * Support's review of new adverts and pending changes (issue 6 "Moderation", spec §4 "Support reviews
 * of advert parts ... are approved or modified individually, then saved"): the review queue, one advert
 * for review, the save, and the list of risk words. Messages are i18n keys under `validation.`.
 */

/**
 * The parts support reviews, as the spec lists them. `text` is the title and the description together,
 * `location` the region and the city; `type` (advert kind) and `gender` are chosen at sign-up, so they are
 * only ever reviewed on a new advert.
 */
export const REVIEW_FIELDS = [
  'name',
  'location',
  'text',
  'introduction',
  'services',
  'phone',
  'website',
  'age',
  'height',
  'weight',
  'whatsapp',
  'breastType',
  'type',
  'gender',
  'nationality',
  'languages',
] as const;
export type ReviewField = (typeof REVIEW_FIELDS)[number];

/** What support does with one field: keep the proposal, set another value, or refuse it (with a reason). */
export const REVIEW_ACTIONS = ['approve', 'modify', 'refuse'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/** The review queues: new adverts, approved adverts with pending changes, adverts with pending pictures or videos. */
export const REVIEW_QUEUE_KINDS = ['new', 'changes', 'media'] as const;
export type ReviewQueueKind = (typeof REVIEW_QUEUE_KINDS)[number];

/**
 * Risk signals (they never decide; they put an item first and flag it): words that suggest a minor in
 * the advert's texts (approved or proposed), a picture that looks the same as another account's
 * (perceptual hash), the phone number of another account's advert.
 */
export const RISK_SIGNALS = ['minorWords', 'samePicture', 'samePhone'] as const;
export type RiskSignal = (typeof RISK_SIGNALS)[number];

/** A whole number given as a number or as digits in a string (query parameters are strings). */

/** An object whose keys are matched case-insensitively (list items and values of a JSON body). */
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
    v.object(entries, 'required'),
  );
}

const reason = (max: number) => v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(max, 'tooLong'));

/** reviewqueue: one kind of queue (default: new adverts), paged. */
export const ReviewQueueQuerySchema = v.object({
  Skip: v.optional(v.pipe(wholeNumber('number'), v.minValue(0, 'range')), 0),
  Take: v.optional(v.pipe(wholeNumber('number'), v.minValue(1, 'range'), v.maxValue(200, 'range')), 50),
  Kind: v.optional(v.picklist(REVIEW_QUEUE_KINDS, 'invalid'), 'new'),
});
export type ReviewQueueQueryInput = v.InferOutput<typeof ReviewQueueQuerySchema>;

/** reviewadvert (GET): one advert by id. */
export const ReviewAdvertIdSchema = v.object({ Id: wholeNumber('required') }, 'required');

const basic = BasicInformationSchema.entries;
const personal = PersonalDetailsSchema.entries;

/**
 * The value support may set for each field with `modify`, checked with the rules of the advertiser's
 * forms (basicinformation, personaldetails, insertpriceservice, createprofile). Answers the value as the
 * review shows it (`ReviewValues`).
 */
export const REVIEW_VALUE_SCHEMAS = {
  name: basic.Name,
  location: v.pipe(
    itemObject({ RegionId: basic.RegionId, CityId: basic.CityId }),
    v.transform((place) => ({ regionId: place.RegionId, cityId: place.CityId })),
  ),
  text: v.pipe(
    itemObject({ Title: basic.Title, Description: basic.Description }),
    v.transform((text) => ({ title: text.Title, description: text.Description })),
  ),
  introduction: basic.Introduction,
  services: v.pipe(idList(100), v.transform((ids) => [...new Set(ids)].sort((a, b) => a - b))),
  phone: basic.Phone,
  website: basic.Website,
  age: personal.Age,
  height: personal.Height,
  weight: personal.Weight,
  whatsapp: v.pipe(v.boolean('invalid')),
  breastType: personal.BreastType,
  type: v.pipe(wholeNumber('kind'), v.check((value) => (ADVERT_KIND_VALUES as readonly number[]).includes(value), 'kind')),
  gender: v.pipe(wholeNumber('gender'), v.check((value) => (ADVERT_GENDER_VALUES as readonly number[]).includes(value), 'gender')),
  nationality: personal.NationalityId,
  languages: v.pipe(personal.Languages, v.transform((ids) => [...new Set(ids)].sort((a, b) => a - b))),
} satisfies Record<ReviewField, v.GenericSchema>;

/** One field's decision in a save. `Value` only with modify; `Reason` required with refuse (told to the advertiser). */
const ReviewFieldDecisionSchema = v.pipe(
  itemObject({
    Field: v.picklist(REVIEW_FIELDS, 'invalid'),
    Action: v.picklist(REVIEW_ACTIONS, 'invalid'),
    Value: v.optional(v.unknown()),
    Reason: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(2000, 'tooLong')), ''),
  }),
  v.forward(
    v.check((item) => item.Action !== 'refuse' || item.Reason !== '', 'required'),
    ['Reason'],
  ),
  v.forward(
    v.check((item) => item.Action !== 'modify' || item.Value !== undefined, 'required'),
    ['Value'],
  ),
);

/**
 * reviewadvert (POST, saved once): a decision per field (each field at most once), and for a new advert
 * either Approve (it goes live; its owner must be verified) or Decline (it is locked, with a statement
 * of reasons: the reason and the rule).
 */
export const SaveReviewSchema = v.pipe(
  v.object(
    {
      Id: wholeNumber('required'),
      Fields: v.optional(v.pipe(v.array(ReviewFieldDecisionSchema, 'invalid'), v.maxLength(REVIEW_FIELDS.length, 'tooMany')), []),
      Approve: v.optional(v.boolean('invalid'), false),
      Decline: v.optional(v.nullable(itemObject({ Reason: reason(2000), Rule: v.picklist(TERMS_RULES, 'required') })), null),
    },
    'required',
  ),
  v.forward(
    v.check((input) => new Set(input.Fields.map((f) => f.Field)).size === input.Fields.length, 'duplicate'),
    ['Fields'],
  ),
  v.forward(
    v.check((input) => !(input.Approve && input.Decline), 'invalid'),
    ['Decline'],
  ),
);
export type SaveReviewInput = v.InferOutput<typeof SaveReviewSchema>;

/** A risk word: letters and digits, with spaces, hyphens or apostrophes inside (2-40 characters). */
export const RiskWordSchema = v.object(
  {
    Word: v.pipe(
      v.string('required'),
      v.trim(),
      v.toLowerCase(),
      v.nonEmpty('required'),
      v.minLength(2, 'tooShort'),
      v.maxLength(40, 'tooLong'),
      v.regex(/^[\p{L}\p{N}](?:[\p{L}\p{N}'\- ]*[\p{L}\p{N}])?$/u, 'invalid'),
      v.transform((word) => word.replace(/\s+/g, ' ')),
    ),
  },
  'required',
);

/** removeriskword: one word by id. */
export const RiskWordIdSchema = v.object({ Id: wholeNumber('required') }, 'required');

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** A field's value in the review, by field. */
export type ReviewValues = {
  name: string;
  location: { regionId: number | null; cityId: number | null };
  text: { title: string; description: string };
  introduction: string;
  services: number[];
  phone: string | null;
  website: string | null;
  age: number | null;
  height: number | null;
  weight: number | null;
  whatsapp: boolean;
  breastType: number | null;
  type: number;
  gender: number;
  nationality: number | null;
  languages: number[];
};

export type ReviewQueueItem = {
  advertId: number;
  name: string;
  accountEmail: string;
  /** Advert kind: escort, trans-escort or thaimassage. */
  kind: string;
  city: string | null;
  createdAt: string;
  /** When it started waiting: created (new adverts), the oldest pending change, the oldest pending picture or video. */
  since: string;
  validationStatus: number;
  ageVerified: boolean;
  pendingFields: ReviewField[];
  pendingPictures: number;
  pendingVideos: number;
  risk: RiskSignal[];
};

export type ReviewQueueAnswer = { total: number; items: ReviewQueueItem[] };

export type ReviewFieldRow = {
  field: ReviewField;
  /** The approved (public) value; null for a new advert. */
  current: unknown;
  /** The proposed value (a new advert: its value). */
  proposed: unknown;
  pending: boolean;
};

/** What the risk signals rest on: the words found, and the other accounts' adverts with the same phone or picture. */
export type RiskDetails = { words: string[]; samePhoneAdvertIds: number[]; samePictureAdvertIds: number[] };

/** A name in both languages. */
export type BothNames = { da: string; en: string };

/**
 * The names of the reference ids that occur in a review's values (current and proposed), by id: so the
 * screen shows "København" and "Dansk", not numbers.
 */
export type ReviewNames = {
  regions: Record<string, BothNames>;
  cities: Record<string, string>;
  services: Record<string, BothNames>;
  languages: Record<string, BothNames>;
  nationalities: Record<string, BothNames>;
};

export type ReviewAdvertAnswer = {
  advertId: number;
  name: string;
  kind: string;
  /** Profile status: 0 New, 1 Active, 2 Locked, 3 Deleted, 5 Deactivated. */
  status: number;
  isNew: boolean;
  validationStatus: number;
  ageVerifiedAt: string | null;
  account: { id: number; email: string; dateOfBirth: string | null };
  createdAt: string;
  pendingSince: string | null;
  fields: ReviewFieldRow[];
  pictures: BackendPicture[];
  videos: BackendVideo[];
  risk: RiskSignal[];
  riskDetails: RiskDetails;
  names: ReviewNames;
};

export type RiskWord = { id: number; word: string; addedBy: { id: number; name: string } | null; createdAt: string };
