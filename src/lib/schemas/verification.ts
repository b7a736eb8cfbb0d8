import type { RiskSignal } from './review.ts';
import * as v from 'valibot';
import { wholeNumber } from './query-values.ts';
import { TERMS_RULES } from './moderation.ts';

/**
 * Verification of advertisers (issue 6): the backend's calls (uploads of an ID document and a selfie or
 * a short video, the QR hand-off, the age-verification provider) and support's validation queue. The
 * codes here are what the server stores and the screens translate.
 */

/** What an upload is: a photo of an ID document, a selfie holding it, or a short video instead of both. */
export const VERIFICATION_KINDS = ['document', 'selfie', 'video'] as const;
export type VerificationKind = (typeof VERIFICATION_KINDS)[number];
export const VERIFICATION_PICTURE_KINDS = ['document', 'selfie'] as const;

/** A verification video: at most 60 seconds and 100 MB (MP4, MOV or WebM by content). */
export const VERIFICATION_LIMITS = {
  videoSeconds: 60,
  videoBytes: 100 * 1024 * 1024,
  /** Minutes a QR hand-off link works. */
  handoffMinutes: 30,
  /** Failed provider checks (under 18) after which the provider check is closed until support looks. */
  failedChecksBeforeLock: 3,
  /** Days after the decision the files are deleted (the record is kept). */
  filesKeptDays: 30,
} as const;

/** Verification status (row): 0 Open, 1 Pending (with support), 2 Validated, 3 Declined, 4 Rejected. */
export const VERIFICATION_STATUS = { Open: 0, Pending: 1, Validated: 2, Declined: 3, Rejected: 4 } as const;

/** An advert's validation status (spec §3): 0 Not validated, 1 Pending, 2 Validated, 3 Declined, 4 Rejected (shown as Not validated). */
export const VALIDATION_STATUS = { NotValidated: 0, Pending: 1, Validated: 2, Declined: 3, Rejected: 4 } as const;

/** The state of the advertiser's verification as the backend shows it. */
export type VerificationStateWord = 'none' | 'collecting' | 'pending' | 'validated' | 'declined' | 'rejected';

/**
 * Why an upload was refused (i18n keys): the picture keys of the pictures screen, and `notAVideo`,
 * `tooLong`, `tooLarge` of the videos screen.
 */
export type VerificationRefusal = 'notAnImage' | 'typeMismatch' | 'tooLarge' | 'tooManyPixels' | 'notAVideo' | 'tooLong';

/** A whole number given as a number or as digits in a string (query parameters are strings). */
const flag = v.optional(
  v.pipe(
    v.union([v.boolean(), v.picklist(['1', '0', 'true', 'false'])], 'invalid'),
    v.transform((value) => value === true || value === '1' || value === 'true'),
  ),
  false,
);

/** The QR hand-off token, accepted instead of the session by the upload, check and delete calls only. */
export const HandoffSchema = v.object({ Handoff: v.optional(v.pipe(v.string('invalid'), v.maxLength(200, 'invalid'))) });

/** validationpictureuploader's form field `Kind` (with one file). */
export const UploadKindSchema = v.object({ Kind: v.picklist(VERIFICATION_KINDS, 'required') }, 'required');

/** validationpicture (GET): `Kind` and `File=1` stream that file to its owner; without them, the state. */
export const ValidationPictureQuerySchema = v.object({
  Kind: v.optional(v.picklist(VERIFICATION_PICTURE_KINDS, 'invalid')),
  File: flag,
});

/** validationvideo (GET): `File=1` streams the video to its owner; without it, the state. */
export const ValidationVideoQuerySchema = v.object({ File: flag });

/** deletevalidationpicture: which picture. */
export const DeleteValidationPictureSchema = v.object({ Kind: v.picklist(VERIFICATION_PICTURE_KINDS, 'required') }, 'required');

/** checksession: the provider's session id (from the callback route's query). */
export const CheckSessionSchema = v.object({ SessionId: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(200, 'invalid')) }, 'required');

/** updateidentification: the advert (profile) the passed check is recorded on. */
export const UpdateIdentificationSchema = v.object({ ProfileId: wholeNumber('required') }, 'required');

/** The provider's signed server-to-server callback (yoticallback). */
export const AgeProviderCallbackSchema = v.object({
  sessionId: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(200, 'invalid')),
  status: v.picklist(['pending', 'passed', 'failed'], 'invalid'),
  ageOver18: v.optional(v.boolean('invalid')),
});

const skip = v.optional(v.pipe(wholeNumber('number'), v.minValue(0, 'range')), 0);
const take = v.optional(v.pipe(wholeNumber('number'), v.minValue(1, 'range'), v.maxValue(200, 'range')), 50);

/** validations (support): waiting for a decision (the default) or decided; oldest first; paged. */
export const ValidationsQuerySchema = v.object({
  Skip: skip,
  Take: take,
  Status: v.optional(v.picklist(['pending', 'decided'], 'invalid'), 'pending'),
});

export const ValidationIdSchema = v.object({ Id: wholeNumber('required') }, 'required');

/** validationfile (support): one file of a verification. */
export const ValidationFileSchema = v.object({ Id: wholeNumber('required'), Kind: v.picklist(VERIFICATION_KINDS, 'required') }, 'required');

/** declinevalidation and rejectvalidation: the reason the advertiser is told and the terms' rule. */
export const DecideValidationSchema = v.object(
  {
    Id: wholeNumber('required'),
    Reason: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(2000, 'tooLong')),
    Rule: v.picklist(TERMS_RULES, 'required'),
  },
  'required',
);
export type DecideValidationInput = v.InferOutput<typeof DecideValidationSchema>;

// ---- Answers ----------------------------------------------------------------------------------

export type UploadedFile = { uploadedAt: string } | null;

/** validationpicture (GET). */
export type ValidationPictures = {
  state: VerificationStateWord;
  /** Whether the online age check (ageestimation) is offered: false without a provider (AGE_PROVIDER=none). */
  onlineCheck: boolean;
  /** Support's reason when declined or rejected. */
  reason: string | null;
  document: UploadedFile;
  selfie: UploadedFile;
};

/** validationvideo (GET). */
export type ValidationVideo = { state: VerificationStateWord; reason: string | null; video: UploadedFile };

/** validationpictureuploader: what is uploaded now, and whether the verification went to support. */
export type ValidationUploadAnswer = {
  kind: VerificationKind;
  uploadedAt: string;
  submitted: boolean;
  state: VerificationStateWord;
};

/** ageverificationbyqrcode. */
export type HandoffLink = { url: string; qrSvg: string; expiresAt: string };

/** ageestimation. */
export type AgeCheckStart = { sessionId: string; uri: string };

/** checksession (spec §3 Age-check result). */
export type AgeCheckResult = { valid: boolean; uri: string | null };

/** updateidentification. */
export type IdentificationAnswer = {
  validationStatus: number;
  /** Set only once support accepted a verification (a provider's check alone never sets it). */
  ageVerifiedAt: string | null;
  /** A passed online check waits for support's decision. */
  waitingForSupport: boolean;
};

/** Risk signals that put a verification in front of support's eyes (never decide alone). */
/** The verification queue's own signals, and the review's (words suggesting a minor, the same phone or picture elsewhere). */
export type ValidationRisk = 'under18ByDateOfBirth' | 'under18ByAdvertAge' | 'failedAgeChecks' | 'declinedBefore' | 'minorReported' | RiskSignal;

/**
 * What an age-verification provider answered about a 'provider' check, for support. `test`: the built-in
 * TEST provider (no real age check happened). `mayVerify`: whether accepting it verifies the advert (a
 * TEST result never does in production: docs/decisions/019-test-providers-and-yoti.md).
 */
export type ValidationProviderResult = {
  name: string;
  test: boolean;
  mayVerify: boolean;
  status: 'passed' | 'failed' | null;
  ageOver18: boolean | null;
  providerStatus: string | null;
  method: string | null;
  threshold: number | null;
  receivedAt: string | null;
};

/** One verification in support's queue (validations). */
export type ValidationItem = {
  id: number;
  advertId: number | null;
  advertName: string | null;
  accountEmail: string;
  method: string;
  /** 1 Pending, 2 Validated, 3 Declined, 4 Rejected. */
  status: number;
  createdAt: string;
  submittedAt: string | null;
  decidedAt: string | null;
  risk: ValidationRisk[];
  /** For an online age check ('provider'): what the provider answered; null for documents and videos. */
  provider: ValidationProviderResult | null;
};

/** One verification with what support compares the files with (validation). */
export type ValidationDetail = ValidationItem & {
  reason: string | null;
  rule: string | null;
  decidedBy: { id: number; name: string } | null;
  filesDeletedAt: string | null;
  advert: {
    id: number;
    name: string;
    age: number | null;
    dateOfBirth: string | null;
    city: string | null;
    phone: string | null;
    status: number;
    validationStatus: number;
  } | null;
  /** Open each with GET url (Support only; every opening is audited). */
  files: { kind: VerificationKind; uploadedAt: string; url: string }[];
};
