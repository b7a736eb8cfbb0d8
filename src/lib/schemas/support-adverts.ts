import * as v from 'valibot';
import { wholeNumber } from './query-values.ts';
import { TERMS_RULES, type TermsRule } from './moderation.ts';
import type { AdvertKind } from './public-advert.ts';

/**
 * Support's advert pages (issue 6, spec §7 "profiles; full profile; status change; login histories; action
 * histories; media current/deleted; messages; reviews; reports"): the inputs of the calls (shared with the
 * screens' forms) and the shapes of their answers.
 */

/** A whole number given as a number or as digits in a string (query parameters are strings). */

const skip = v.optional(v.pipe(wholeNumber('number'), v.minValue(0, 'range')), 0);
const take = v.optional(v.pipe(wholeNumber('number'), v.minValue(1, 'range'), v.maxValue(200, 'range')), 50);
/** An optional search key: empty means not searched by it. */
const searchText = (max: number) => v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(max, 'tooLong')), '');
const required = (max: number) => v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(max, 'tooLong'));

/** profiles: search by advert id (exact), name (contains), email (contains), phone (digits, +45 ignored); paged. */
export const AdvertProfilesQuerySchema = v.object({
  Skip: skip,
  Take: take,
  Id: v.optional(v.union([v.literal(''), wholeNumber('number')], 'number'), ''),
  Name: searchText(200),
  Email: searchText(200),
  Phone: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(40, 'tooLong'), v.regex(/^[\d\s+()-]*$/, 'phoneInvalid')), ''),
});
export type AdvertProfilesQueryInput = v.InferOutput<typeof AdvertProfilesQuerySchema>;

/** One advert by id (profile, currentmedia, deletedmedia, advertreviews, advertreports). */
export const AdvertProfileIdSchema = v.object({ Id: wholeNumber('required') }, 'required');

/** A page of one advert's history (loginhistories, actionhistories, advertmessages). */
export const AdvertProfilePageSchema = v.object({ Id: wholeNumber('required'), Skip: skip, Take: take }, 'required');

/**
 * The statuses support may set here: 0 New (unlock to be moderated again), 1 Active (unlock), 2 Locked.
 * Support hides an advert only by locking it, which always comes with a rule and a statement of reasons
 * (DSA); closing (5 Deactivated) is the advertiser's own choice.
 */
export const SUPPORT_STATUS_TARGETS = [0, 1, 2] as const;
export type SupportStatusTarget = (typeof SUPPORT_STATUS_TARGETS)[number];

/** profilestatus: the new status with support's reason; a lock also names the rule of the terms. */
export const AdvertStatusChangeSchema = v.pipe(
  v.object(
    {
      Id: wholeNumber('required'),
      Status: v.pipe(
        v.union([v.number('required'), v.pipe(v.string('required'), v.regex(/^\d$/, 'required'), v.transform(Number))], 'required'),
        v.picklist(SUPPORT_STATUS_TARGETS, 'invalid'),
      ),
      Reason: required(2000),
      Rule: v.optional(v.union([v.literal(''), v.picklist(TERMS_RULES, 'invalid')], 'invalid'), ''),
    },
    'required',
  ),
  // Checked even when other fields fail, so that every missing field is named at once.
  v.forward(
    v.partialCheck([['Status'], ['Rule']], (input) => input.Status !== 2 || input.Rule !== '', 'required'),
    ['Rule'],
  ),
);
export type AdvertStatusChangeInput = v.InferOutput<typeof AdvertStatusChangeSchema>;

/**
 * advertmessages (POST): a message to the advertiser, shown in their backend. Title and Body go to both
 * languages, unless TitleEn and BodyEn give the English text.
 */
export const SendAdvertMessageSchema = v.pipe(
  v.object(
    {
      Id: wholeNumber('required'),
      Title: required(200),
      Body: required(4000),
      TitleEn: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(200, 'tooLong')), ''),
      BodyEn: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(4000, 'tooLong')), ''),
    },
    'required',
  ),
  // English is both or neither.
  v.forward(
    v.partialCheck([['TitleEn'], ['BodyEn']], (input) => input.TitleEn !== '' || input.BodyEn === '', 'required'),
    ['TitleEn'],
  ),
  v.forward(
    v.partialCheck([['TitleEn'], ['BodyEn']], (input) => input.BodyEn !== '' || input.TitleEn === '', 'required'),
    ['BodyEn'],
  ),
);
export type SendAdvertMessageInput = v.InferOutput<typeof SendAdvertMessageSchema>;

// ---- Answers ----------------------------------------------------------------------------------

/** A name in both languages. */
export type BilingualName = { da: string; en: string };

/** One advert in support's search (profiles). */
export type AdvertProfileItem = {
  id: number;
  name: string;
  email: string;
  /** The advert's phone, else the account's. */
  phone: string | null;
  kind: AdvertKind;
  /** 0 New, 1 Active, 2 Locked, 3 Deleted, 5 Deactivated. */
  status: number;
  /** Age and identity verified. */
  verified: boolean;
  createdAt: string;
  lastLoginAt: string | null;
};

/** The lock an advert is under: the statement of reasons it was locked with. */
export type AdvertLock = {
  reason: string;
  rule: TermsRule | null;
  lockedAt: string;
  /** The support user who locked it; null for the system. */
  lockedBy: string | null;
  statementId: number;
  appealed: boolean;
};

/** profile: everything support needs about one advert and its account. */
export type AdvertProfile = {
  id: number;
  name: string;
  kind: AdvertKind;
  status: number;
  statusReason: string | null;
  lock: AdvertLock | null;
  /** The public page while the public can see it, else null. */
  publicUrl: string | null;
  createdAt: string;
  updatedAt: string;
  approvedAt: string | null;
  expirationDate: string | null;
  holidayUntil: string | null;
  deletedAt: string | null;
  /** Changes waiting for support's field-by-field review. */
  hasPendingChanges: boolean;
  account: {
    id: number;
    email: string;
    phone: string | null;
    emailVerified: boolean;
    phoneVerified: boolean;
    locale: string;
    createdAt: string;
    lastLoginAt: string | null;
    /** Signing in refused until then (too many wrong passwords). */
    lockedUntil: string | null;
    deletedAt: string | null;
  };
  fields: {
    title: string;
    introduction: string;
    description: string;
    titleEn: string | null;
    introductionEn: string | null;
    descriptionEn: string | null;
    phone: string | null;
    hasWhatsapp: boolean;
    website: string | null;
    region: BilingualName | null;
    city: string | null;
    age: number | null;
    height: number | null;
    weight: number | null;
    /** 1 Natural, 2 Silicone; null not stated. */
    breastType: number | null;
    nationality: BilingualName | null;
    incall: boolean;
    outcall: boolean;
    paymentOptions: string[];
    languages: BilingualName[];
    services: BilingualName[];
  };
  verification: {
    /** 0 Not validated, 1 Pending, 2 Validated, 3 Declined. */
    validationStatus: number;
    ageVerifiedAt: string | null;
    /** The latest verification, with a link to its item in the validation queue. */
    latest: { id: number; method: string; status: number; createdAt: string; decidedAt: string | null } | null;
  };
  counts: {
    pictures: number;
    videos: number;
    deletedMedia: number;
    reviews: number;
    pendingReviews: number;
    reports: number;
    openReports: number;
    messages: number;
    unreadMessages: number;
  };
};

/** One sign-in attempt (loginhistories). */
export type LoginHistoryItem = { id: number; createdAt: string; success: boolean; ip: string | null; userAgent: string | null; email: string | null };

/**
 * Who made an entry of the action history: a support user (by name), the advertiser, support signed in as the
 * advertiser (impersonation, with the support user's name), the system, or a visitor.
 */
export type HistoryActor =
  | { type: 'support'; name: string }
  | { type: 'advertiser' }
  | { type: 'impersonation'; name: string }
  | { type: 'system' }
  | { type: 'visitor' };

/** One audit entry about the advert (actionhistories). */
export type ActionHistoryItem = {
  id: number;
  createdAt: string;
  actor: HistoryActor;
  action: string;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  ip: string | null;
};

/** A picture as support sees it (currentmedia, deletedmedia). */
export type SupportPicture = {
  id: number;
  /** Public variants, smallest first; empty when the files are gone. */
  variants: { url: string; width: number; height: number; format: string }[];
  width: number | null;
  height: number | null;
  moderation: 'pending' | 'approved' | 'declined';
  isOnline: boolean;
  isPrimary: boolean;
  declineReason: string | null;
  createdAt: string;
  deletedAt: string | null;
  /** Whether its files are still in storage (a deleted picture's are removed). */
  filesExist: boolean;
};

/** A video as support sees it (currentmedia, deletedmedia). */
export type SupportVideo = {
  id: number;
  posterUrl: string | null;
  videoUrl: string | null;
  processing: 'converting' | 'ready' | 'failed';
  moderation: 'pending' | 'approved' | 'declined';
  isOnline: boolean;
  durationSeconds: number | null;
  declineReason: string | null;
  createdAt: string;
  deletedAt: string | null;
  filesExist: boolean;
};

export type AdvertMedia = { pictures: SupportPicture[]; videos: SupportVideo[] };

/** One message to the advertiser (advertmessages), in both languages. */
export type AdvertMessageItem = {
  id: number;
  titleDa: string;
  titleEn: string;
  bodyDa: string;
  bodyEn: string;
  link: string | null;
  read: boolean;
  createdAt: string;
};

/** One review of the advert, any status (advertreviews). */
export type AdvertReviewItem = {
  id: number;
  authorName: string;
  rating: number;
  text: string;
  /** 0 Pending, 1 Approved, 2 Hidden, 3 Rejected. */
  status: number;
  replyText: string | null;
  removalRequested: boolean;
  createdAt: string;
  decidedAt: string | null;
};

/** One report about the advert (advertreports). */
export type AdvertReportItem = {
  id: number;
  reason: string;
  /** 0 Normal, 1 High, 2 Urgent. */
  priority: number;
  /** 0 New, 1 In progress, 2 Action taken, 3 Dismissed. */
  status: number;
  decision: string | null;
  reporterName: string | null;
  createdAt: string;
  decidedAt: string | null;
};
