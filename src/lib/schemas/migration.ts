import * as v from 'valibot';
import { databaseId, querySkip, queryTake, wholeNumber } from './query-values.ts';
import { BasicInformationSchema, ExtraPriceItemSchema, PriceItemSchema } from './advert-edit.ts';
import { email as accountEmail } from './account.ts';
import { MEDIA_LIMITS } from './media.ts';
import type { AdvertKind } from './public-advert.ts';

/**
 * Adverts brought over from the old site (issue 18, spec §2 support routes migrate-adverts/ and
 * migrate-adverts/{id}/; docs/migration-format.md; docs/decisions/031-old-site-import.md): the export
 * format's line, the inputs of support's calls and the shapes of their answers. Reasons and statuses are
 * i18n keys under `migration.` in the support catalog.
 */

/** Unclaimed imports (pictures included) are deleted this many days after they were imported. */
export const MIGRATION_UNCLAIMED_DAYS = 90;

/** The one file of adverts inside an export archive. */
export const MIGRATION_ADVERTS_FILE = 'adverts.jsonl';

export const MIGRATION_LIMITS = {
  /** One uploaded archive (a bigger export is split into several archives, imported one by one). */
  archiveBytes: 2 * 1024 * 1024 * 1024,
  /** adverts.jsonl, uncompressed. */
  advertsFileBytes: 256 * 1024 * 1024,
  /** One line of adverts.jsonl (a longer one is refused as `lineTooLong`). */
  lineBytes: 256 * 1024,
  /** One picture file, as an upload. */
  pictureBytes: MEDIA_LIMITS.pictureBytes,
  /** Pictures of one advert, as an advert may keep. */
  picturesPerAdvert: MEDIA_LIMITS.picturesPerAdvert,
} as const;

/** An import's course: queued, running (the job), done, or failed (see `MIGRATION_IMPORT_ERRORS`). */
export const MIGRATION_IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type MigrationImportStatus = (typeof MIGRATION_IMPORT_STATUSES)[number];

/** Why a whole import failed (migration.importErrors.*); the upload refuses the first three at once. */
export const MIGRATION_IMPORT_ERRORS = ['notAnArchive', 'noAdvertsFile', 'advertsFileTooLarge', 'archiveMissing', 'failed'] as const;
export type MigrationImportError = (typeof MIGRATION_IMPORT_ERRORS)[number];

/** Why one line was refused (migration.lineErrors.*); the detail names the field, file or words. */
export const MIGRATION_LINE_ERRORS = [
  'invalidJson',
  'lineTooLong',
  'invalidOldId',
  'missingField',
  'invalidField',
  'invalidPhone',
  'invalidEmail',
  'underAge',
  'unknownRegion',
  'unknownCity',
  'ambiguousCity',
  'forbiddenWords',
  'tooManyPictures',
  'pictureMissing',
  'pictureRefused',
] as const;
export type MigrationLineErrorReason = (typeof MIGRATION_LINE_ERRORS)[number];
export type MigrationLineError = { line: number; reason: MigrationLineErrorReason; detail?: string };

/**
 * An imported advert's state. imported: waiting; invited: the claim invitation went out; claimed: the
 * owner took it (a new advert in their backend); live: that advert is public; refused: support said no;
 * duplicate: support found it is someone's existing advert; deleted: never claimed, its data and pictures
 * gone after MIGRATION_UNCLAIMED_DAYS (the row and its old id stay, so the id is never used again).
 */
export const MIGRATED_ADVERT_STATES = ['imported', 'invited', 'claimed', 'live', 'refused', 'duplicate', 'deleted'] as const;
export type MigratedAdvertState = (typeof MIGRATED_ADVERT_STATES)[number];
/** The states support may still refuse from. */
export const REFUSABLE_MIGRATED_STATES: readonly MigratedAdvertState[] = ['imported', 'invited', 'duplicate'];

// ---------------------------------------------------------------------------------------------
// The export format: one line of adverts.jsonl (docs/migration-format.md)
// ---------------------------------------------------------------------------------------------

const optionalText = (max: number) =>
  v.optional(
    v.pipe(
      v.union([v.null(), v.string('invalid')], 'invalid'),
      v.transform((value) => (value ?? '').trim()),
      v.maxLength(max, 'tooLong'),
    ),
    '',
  );
const placeName = v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(100, 'tooLong'));

/**
 * One advert of the old site, as one JSON object on one line. The field rules are the advert editor's
 * (name, texts, phone, prices) and the account's (email); the age must be 18 or more. Places are names,
 * matched to our regions and cities by the import; pictures are file names inside the archive.
 */
export const MigrationLineSchema = v.object(
  {
    oldId: v.pipe(v.number('invalid'), v.integer('invalid'), v.minValue(1, 'invalid'), v.maxValue(2_147_483_647, 'invalid')),
    kind: v.picklist(['escort', 'thai-massage'], 'invalid'),
    gender: v.optional(v.picklist(['woman', 'transgender'], 'invalid'), 'woman'),
    name: BasicInformationSchema.entries.Name,
    /** The old address's slug: /P/{slug}--{oldId}.html/. */
    slug: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(200, 'tooLong'), v.regex(/^[^\s/?#\\]+$/, 'invalid')),
    title: BasicInformationSchema.entries.Title,
    introduction: BasicInformationSchema.entries.Introduction,
    description: BasicInformationSchema.entries.Description,
    titleEn: optionalText(80),
    introductionEn: optionalText(500),
    descriptionEn: optionalText(4000),
    phone: BasicInformationSchema.entries.Phone,
    email: v.optional(
      v.union([v.pipe(v.union([v.null(), v.literal('')]), v.transform(() => null)), accountEmail], 'email'),
      null,
    ),
    region: optionalText(100),
    city: placeName,
    age: v.optional(
      v.union(
        [
          v.pipe(v.null(), v.transform(() => null)),
          v.pipe(v.number('number'), v.integer('number'), v.minValue(18, 'underAge'), v.maxValue(80, 'range')),
        ],
        'number',
      ),
      null,
    ),
    prices: v.optional(v.pipe(v.array(PriceItemSchema, 'invalid'), v.maxLength(30, 'tooMany')), []),
    extraPrices: v.optional(v.pipe(v.array(ExtraPriceItemSchema, 'invalid'), v.maxLength(30, 'tooMany')), []),
    pictures: v.optional(
      v.pipe(
        v.array(v.pipe(v.string('invalid'), v.trim(), v.nonEmpty('invalid'), v.maxLength(300, 'tooLong')), 'invalid'),
        v.maxLength(MIGRATION_LIMITS.picturesPerAdvert, 'tooManyPictures'),
      ),
      [],
    ),
  },
  'required',
);
export type MigrationLine = v.InferOutput<typeof MigrationLineSchema>;

// ---------------------------------------------------------------------------------------------
// Support's calls
// ---------------------------------------------------------------------------------------------

const searchText = (max: number) => v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(max, 'tooLong')), '');

/** migrationimport (GET): one import's progress and refused lines. */
export const MigrationImportIdSchema = v.object({ Id: wholeNumber('required') }, 'required');

/**
 * migrationadverts (GET): imported adverts by old id (exact), name, email (contains), phone (digits, +45
 * ignored) and state; every key given must match. Newest first, paged.
 */
export const MigratedAdvertsQuerySchema = v.object({
  Skip: querySkip,
  Take: queryTake(200, 50),
  OldId: v.optional(v.union([v.literal(''), databaseId('number')], 'number'), ''),
  Name: searchText(200),
  Email: searchText(200),
  Phone: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(40, 'tooLong'), v.regex(/^[\d\s+()-]*$/, 'phoneInvalid')), ''),
  State: v.optional(v.union([v.literal(''), v.picklist(MIGRATED_ADVERT_STATES, 'invalid')], 'invalid'), ''),
  ImportId: v.optional(v.union([v.literal(''), wholeNumber('number')], 'number'), ''),
});
export type MigratedAdvertsQuery = v.InferOutput<typeof MigratedAdvertsQuerySchema>;

/** migrationadvert (GET): one imported advert. */
export const MigratedAdvertIdSchema = v.object({ Id: wholeNumber('required') }, 'required');

/** mergemigrationadvert: the imported advert is this existing advert (invitemigrationadvert takes MigratedAdvertIdSchema). */
export const MergeMigratedAdvertSchema = v.object({ Id: wholeNumber('required'), AdvertId: wholeNumber('required') }, 'required');

/** refusemigrationadvert: the advert will not be brought over; support's reason is kept (audited). */
export const RefuseMigratedAdvertSchema = v.object(
  {
    Id: wholeNumber('required'),
    Reason: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(2000, 'tooLong')),
  },
  'required',
);

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** migrationimport (POST answers it too: 201 for a new file, 200 for a file uploaded before). */
export type MigrationImport = {
  id: number;
  fileName: string;
  status: MigrationImportStatus;
  /** Why it failed (migration.importErrors.*), when it did. */
  error: MigrationImportError | null;
  totalLines: number;
  doneLines: number;
  importedLines: number;
  /** Lines whose old id was imported before (by this file or another). */
  skippedLines: number;
  lineErrors: MigrationLineError[];
  createdAt: string;
  finishedAt: string | null;
};

export type MigratedAdvertItem = {
  id: number;
  oldId: number;
  state: MigratedAdvertState;
  kind: AdvertKind;
  name: string;
  email: string | null;
  phone: string | null;
  regionName: string | null;
  cityName: string | null;
  pictureCount: number;
  importId: number | null;
  line: number | null;
  createdAt: string;
};

/** A price as imported (øre, VAT included). */
export type MigratedPrice = { durationMinutes: number; incallPriceOre: number | null; outcallPriceOre: number | null; description: string };
export type MigratedExtraPrice = { description: string; priceOre: number };

/** What an imported advert holds besides its columns (migrated_adverts.data). */
export type MigratedAdvertData = {
  title: string;
  introduction: string;
  description: string;
  titleEn: string;
  introductionEn: string;
  descriptionEn: string;
  age: number | null;
  prices: MigratedPrice[];
  extraPrices: MigratedExtraPrice[];
  /** The place names as the export wrote them. */
  regionName: string;
  cityName: string;
};

/** One imported picture, for support's eyes only (authenticated, private). */
export type MigratedPicture = {
  /** Its position in the advert (the file's index in the URL). */
  index: number;
  /** The file name inside the archive. */
  fileName: string;
  width: number;
  height: number;
  variants: { width: number; height: number; format: string; url: string }[];
};

/**
 * Someone on the site who may be the same advertiser: an account or advert with the same phone or email,
 * a picture alike (the pipeline's 64-bit dHash within the risk signals' distance), or another import.
 */
export type MigrationDuplicate = {
  type: 'account' | 'advert' | 'migratedAdvert';
  id: number;
  name: string | null;
  matches: ('phone' | 'email' | 'picture')[];
};

export type MigratedAdvertDetail = MigratedAdvertItem & {
  gender: number;
  oldSlug: string;
  /** The old site's address of the advert. */
  oldPath: string;
  regionId: number | null;
  cityId: number | null;
  data: MigratedAdvertData | null;
  pictures: MigratedPicture[];
  refusedReason: string | null;
  accountId: number | null;
  advertId: number | null;
  invitedAt: string | null;
  claimedAt: string | null;
  deletedAt: string | null;
  /** When it is deleted unless claimed first (dd-MM-yyyy, Copenhagen); null once claimed or deleted. */
  deleteOn: string | null;
  possibleDuplicates: MigrationDuplicate[];
};
