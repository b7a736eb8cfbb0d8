/**
 * The whole database, as Drizzle tables (PostgreSQL dialect; the same SQL runs on PGlite and PostgreSQL).
 *
 * Conventions: snake_case SQL names; integer identity primary keys (adverts have numeric ids in URLs);
 * timestamps are `timestamptz` stored in UTC; money is integer øre with VAT included; statuses are
 * smallints with the spec's numeric values (documented on each column; the constant objects and the
 * transition table live in `src/server/domain/`). Migrations: `npm run db:generate` (drizzle-kit).
 */
import { sql } from 'drizzle-orm';
import type { DocumentLine, DocumentParty } from '#lib/schemas/orders.ts';
import {
  bigint,
  customType,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const id = () => integer('id').primaryKey().generatedByDefaultAsIdentity();
const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => tstz('created_at').notNull().defaultNow();
const emptyTextArray = sql`'{}'::text[]`;

/** One stored picture or video variant (public storage key relative to the media root). */
export type MediaVariant = { width: number; height: number; format: string; key: string };
/** An image on a landing page. */
export type LandingPageImage = {
  key: string;
  alt?: string;
  width?: number;
  height?: number;
  /** Uploaded by SEO staff (issue 17): the published files are `{base}-{width}.{avif|webp}` for each of `widths`. */
  base?: string;
  widths?: number[];
};
/** Support's field-by-field review: advert field name → proposed value. */
export type PendingChanges = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Site and reference data
// ---------------------------------------------------------------------------------------------

/** Website config (spec §3): exactly one row, id 1. */
export const siteSettings = pgTable(
  'site_settings',
  {
    id: integer('id').primaryKey().default(1),
    siteName: text('site_name').notNull(),
    siteUrl: text('site_url').notNull(),
    companyName: text('company_name').notNull(),
    companyAddress: text('company_address').notNull(),
    companyZipCity: text('company_zip_city').notNull(),
    companyEmail: text('company_email').notNull(),
    companyVat: text('company_vat').notNull(),
    supportEmail: text('support_email').notNull(),
    supportPhone: text('support_phone').notNull(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [check('site_settings_single_row', sql`${t.id} = 1`)],
);

export const regions = pgTable('regions', {
  id: id(),
  name: text('name').notNull(),
  nameEn: text('name_en').notNull(),
  slug: text('slug').notNull().unique(),
  sortOrder: integer('sort_order').notNull().default(0),
});

export const cities = pgTable(
  'cities',
  {
    id: id(),
    regionId: integer('region_id')
      .notNull()
      .references(() => regions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    zip: text('zip'),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [
    uniqueIndex('cities_region_slug_unique').on(t.regionId, t.slug),
    index('cities_slug_idx').on(t.slug),
  ],
);

export const languages = pgTable('languages', {
  id: id(),
  code: text('code').notNull().unique(),
  nameDa: text('name_da').notNull(),
  nameEn: text('name_en').notNull(),
});

export const nationalities = pgTable('nationalities', {
  id: id(),
  code: text('code').notNull().unique(),
  nameDa: text('name_da').notNull(),
  nameEn: text('name_en').notNull(),
});

export const services = pgTable('services', {
  id: id(),
  slug: text('slug').notNull().unique(),
  nameDa: text('name_da').notNull(),
  nameEn: text('name_en').notNull(),
  /** Service type: 1 Girlfriend experience, 2 Pornstar experience, 3 Advanced, 4 Massage. */
  type: smallint('type').notNull(),
  descriptionDa: text('description_da').notNull().default(''),
  descriptionEn: text('description_en').notNull().default(''),
  sortOrder: integer('sort_order').notNull().default(0),
});

// ---------------------------------------------------------------------------------------------
// People and sessions
// ---------------------------------------------------------------------------------------------

/** Advertisers. Email is stored lower-case. Accounts are soft-deleted (deleted_at). */
export const accounts = pgTable('accounts', {
  id: id(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  phone: text('phone'),
  phoneVerifiedAt: tstz('phone_verified_at'),
  emailVerifiedAt: tstz('email_verified_at'),
  dateOfBirth: date('date_of_birth', { mode: 'string' }),
  /** 'da' | 'en' */
  locale: text('locale').notNull().default('da'),
  termsAcceptedAt: tstz('terms_accepted_at'),
  /** The last password change: failed sign-ins before it no longer count towards a lock (sign-in-lock.ts). */
  passwordChangedAt: tstz('password_changed_at'),
  createdAt: createdAt(),
  /**
   * When the sign-up was confirmed: the owner opened the emailed confirmation link and gave the password
   * (confirmsignup), or completed a password reset. Null until then: no sign-in, and the job
   * `account.erasure` removes the sign-up once its last link is long expired (docs/decisions/024).
   * No default: an account made any other way must say it is confirmed.
   */
  activatedAt: tstz('activated_at'),
  lastLoginAt: tstz('last_login_at'),
  deletedAt: tstz('deleted_at'),
  /**
   * When the account's personal data was erased, RESTORE_DAYS after its deletion (job `account.erasure`,
   * docs/decisions/023-erasure-and-data-export.md). The row stays, anonymised, for the records the law
   * keeps (orders, statements of reasons).
   */
  erasedAt: tstz('erased_at'),
});

/** Support staff. permissions ⊆ {'Support', 'SEO', 'Administration'}. */
export const supportUsers = pgTable('support_users', {
  id: id(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  permissions: text('permissions').array().notNull().default(emptyTextArray),
  /** The active TOTP secret (base32) of two-step sign-in; set when `totpEnabledAt` is. */
  totpSecret: text('totp_secret'),
  /** A secret from twofactorsetup, not yet confirmed with a code (then it becomes `totpSecret`). */
  totpPendingSecret: text('totp_pending_secret'),
  totpEnabledAt: tstz('totp_enabled_at'),
  /** The last 30-second step whose code was accepted: a used code is refused (RFC 6238 §5.2). */
  totpLastStep: integer('totp_last_step'),
  /** The last password change: failed sign-ins before it no longer count towards a lock (sign-in-lock.ts). */
  passwordChangedAt: tstz('password_changed_at'),
  disabledAt: tstz('disabled_at'),
  createdAt: createdAt(),
  lastLoginAt: tstz('last_login_at'),
});

/** Sessions: id is the SHA-256 hex of the cookie token (the token itself is never stored). */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    supportUserId: integer('support_user_id').references(() => supportUsers.id, { onDelete: 'cascade' }),
    /** Set when support signed in as the advertiser (impersonation). */
    impersonatedBySupportUserId: integer('impersonated_by_support_user_id').references(() => supportUsers.id, {
      onDelete: 'cascade',
    }),
    createdAt: createdAt(),
    expiresAt: tstz('expires_at').notNull(),
    lastSeenAt: tstz('last_seen_at').notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    index('sessions_expires_at_idx').on(t.expiresAt),
    index('sessions_account_idx').on(t.accountId),
    index('sessions_support_user_idx').on(t.supportUserId),
  ],
);

/** Password reset tokens (SHA-256 hex of the emailed token); for an advertiser or a support user. */
export const passwordResetTokens = pgTable('password_reset_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
  supportUserId: integer('support_user_id').references(() => supportUsers.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  expiresAt: tstz('expires_at').notNull(),
  usedAt: tstz('used_at'),
});

/** Email verification links (spec: emailverification (Url), sendemail (Email)). */
export const emailVerificationTokens = pgTable('email_verification_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  accountId: integer('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  /**
   * 'email': a signed-in advertiser's link confirming an address (emailverification, /backend/basic/?url=);
   * 'sign_up': the link that confirms a sign-up (confirmsignup, /create/?confirm=). Neither call takes the other's.
   */
  purpose: text('purpose').$type<'email' | 'sign_up'>().notNull().default('email'),
  createdAt: createdAt(),
  expiresAt: tstz('expires_at').notNull(),
  usedAt: tstz('used_at'),
});

/** SMS codes (spec: sendsms, codeverification (Code, Id)); the code is stored hashed. */
export const phoneVerificationCodes = pgTable(
  'phone_verification_codes',
  {
    id: id(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
  },
  (t) => [index('phone_verification_codes_phone_idx').on(t.phone)],
);

/** Sign-in attempts (support's "login histories"). */
export const loginEvents = pgTable(
  'login_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    supportUserId: integer('support_user_id').references(() => supportUsers.id, { onDelete: 'cascade' }),
    email: text('email'),
    success: boolean('success').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_events_account_idx').on(t.accountId, t.createdAt),
    index('login_events_support_user_idx').on(t.supportUserId, t.createdAt),
    // The sign-in lock counts recent failures by email and client address (sign-in-lock.ts).
    index('login_events_email_ip_idx').on(t.email, t.ip, t.createdAt),
  ],
);

// ---------------------------------------------------------------------------------------------
// Adverts
// ---------------------------------------------------------------------------------------------

export const adverts = pgTable(
  'adverts',
  {
    id: id(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    /** Advert type: 0 IndependentEscort, 1 ThaiMassage. (Trans-escort = kind 0 with gender 5.) */
    kind: smallint('kind').notNull(),
    /** Gender: 1 Woman, 2 Man, 3 Couple, 4 Transvestite, 5 Transgender, 6 Transsexual. */
    gender: smallint('gender').notNull().default(1),
    /** Profile status: 0 New, 1 Active, 2 Locked, 3 Deleted, 5 Deactivated (by the advertiser). */
    status: smallint('status').notNull().default(0),
    statusReason: text('status_reason'),
    approvedAt: tstz('approved_at'),
    approvedBy: integer('approved_by').references(() => supportUsers.id, { onDelete: 'set null' }),
    expirationDate: tstz('expiration_date'),
    holidayUntil: tstz('holiday_until'),
    /** Validation (identity) status: 0 Not validated, 1 Pending, 2 Validated, 3 Declined. */
    validationStatus: smallint('validation_status').notNull().default(0),
    ageVerifiedAt: tstz('age_verified_at'),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    /** Texts in `locale` (Danish by default); the *_en twins are optional English versions. */
    locale: text('locale').notNull().default('da'),
    title: text('title').notNull().default(''),
    introduction: text('introduction').notNull().default(''),
    description: text('description').notNull().default(''),
    titleEn: text('title_en'),
    introductionEn: text('introduction_en'),
    descriptionEn: text('description_en'),
    phone: text('phone'),
    hasWhatsapp: boolean('has_whatsapp').notNull().default(false),
    website: text('website'),
    regionId: integer('region_id').references(() => regions.id),
    cityId: integer('city_id').references(() => cities.id),
    age: smallint('age'),
    height: smallint('height'),
    weight: smallint('weight'),
    /** Breast type: 1 Natural, 2 Silicone; null = not stated. */
    breastType: smallint('breast_type'),
    nationalityId: integer('nationality_id').references(() => nationalities.id),
    incall: boolean('incall').notNull().default(false),
    outcall: boolean('outcall').notNull().default(false),
    /** Codes: cash, creditcard, mobilepay, paypal, revolut, wise. */
    paymentOptions: text('payment_options').array().notNull().default(emptyTextArray),
    frontPageBoostUntil: tstz('front_page_boost_until'),
    searchBoostUntil: tstz('search_boost_until'),
    /** Changes awaiting support's field-by-field review: field → proposed value. */
    pendingChanges: jsonb('pending_changes').$type<PendingChanges>(),
    /** When pending_changes last went from empty to non-empty (the review queue's "waiting since"); null when nothing is pending. */
    pendingSince: tstz('pending_since'),
    skippedDashboardItems: text('skipped_dashboard_items').array().notNull().default(emptyTextArray),
    viewCount: integer('view_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    index('adverts_account_idx').on(t.accountId),
    index('adverts_status_kind_region_idx').on(t.status, t.kind, t.regionId),
    index('adverts_city_idx').on(t.cityId),
    index('adverts_expiration_idx').on(t.expirationDate),
    index('adverts_front_page_boost_idx').on(t.frontPageBoostUntil),
    index('adverts_search_boost_idx').on(t.searchBoostUntil),
    index('adverts_holiday_idx').on(t.holidayUntil),
    index('adverts_phone_idx').on(t.phone),
    index('adverts_pending_since_idx').on(t.pendingSince),
    index('adverts_created_idx').on(t.createdAt),
  ],
);

export const advertLanguages = pgTable(
  'advert_languages',
  {
    advertId: integer('advert_id')
      .notNull()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    languageId: integer('language_id')
      .notNull()
      .references(() => languages.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.advertId, t.languageId] }), index('advert_languages_language_idx').on(t.languageId)],
);

export const advertServices = pgTable(
  'advert_services',
  {
    advertId: integer('advert_id')
      .notNull()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    serviceId: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.advertId, t.serviceId] }), index('advert_services_service_idx').on(t.serviceId)],
);

/** Price list: a duration with an incall and/or outcall price (øre, VAT included). */
export const priceListItems = pgTable(
  'price_list_items',
  {
    id: id(),
    advertId: integer('advert_id')
      .notNull()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    sortOrder: integer('sort_order').notNull().default(0),
    durationMinutes: integer('duration_minutes').notNull(),
    incallPriceOre: integer('incall_price_ore'),
    outcallPriceOre: integer('outcall_price_ore'),
    description: text('description'),
  },
  (t) => [index('price_list_items_advert_idx').on(t.advertId, t.sortOrder)],
);

export const extraPriceItems = pgTable(
  'extra_price_items',
  {
    id: id(),
    advertId: integer('advert_id')
      .notNull()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    sortOrder: integer('sort_order').notNull().default(0),
    description: text('description').notNull(),
    priceOre: integer('price_ore').notNull(),
  },
  (t) => [index('extra_price_items_advert_idx').on(t.advertId, t.sortOrder)],
);

/** Opening hours: weekday 1 Monday … 7 Sunday; times 'HH:mm' (Europe/Copenhagen wall clock). */
export const scheduleEntries = pgTable(
  'schedule_entries',
  {
    id: id(),
    advertId: integer('advert_id')
      .notNull()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    weekday: smallint('weekday').notNull(),
    fromTime: text('from_time').notNull(),
    toTime: text('to_time').notNull(),
  },
  (t) => [
    uniqueIndex('schedule_entries_advert_weekday_unique').on(t.advertId, t.weekday),
    check('schedule_entries_weekday_range', sql`${t.weekday} between 1 and 7`),
  ],
);

/**
 * Pictures. advert_id is null for temporary uploads made before the account exists (temp_token).
 * storage_key is the variant prefix; variants lists the files actually written.
 */
export const pictures = pgTable(
  'pictures',
  {
    id: id(),
    advertId: integer('advert_id').references(() => adverts.id, { onDelete: 'cascade' }),
    tempToken: text('temp_token'),
    /** The prefix of its private files: the variants (`{storageKey}-{width}.{format}`) and the original. */
    storageKey: text('storage_key').notNull(),
    /** The private variants (keys in the private area), the masters of the published copies. */
    variants: jsonb('variants').$type<MediaVariant[]>().notNull().default([]),
    /**
     * While the picture is public: the prefix of its published copies in the public area
     * (`{publicKey}-{width}.{format}`), a new name each time it is published; null otherwise
     * (docs/decisions/013).
     */
    publicKey: text('public_key'),
    width: integer('width'),
    height: integer('height'),
    isPrimary: boolean('is_primary').notNull().default(false),
    isOnline: boolean('is_online').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    /** Moderation status: 0 Pending, 1 Approved, 2 Declined. */
    moderationStatus: smallint('moderation_status').notNull().default(0),
    moderatedBy: integer('moderated_by').references(() => supportUsers.id, { onDelete: 'set null' }),
    moderatedAt: tstz('moderated_at'),
    perceptualHash: text('perceptual_hash'),
    /** The uploaded file as received, in private storage (never reachable by a URL). */
    originalKey: text('original_key'),
    /** Why support declined it (shown to the advertiser). */
    declineReason: text('decline_reason'),
    createdAt: createdAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    index('pictures_advert_idx').on(t.advertId, t.sortOrder),
    index('pictures_temp_token_idx').on(t.tempToken),
    index('pictures_moderation_idx').on(t.moderationStatus),
    index('pictures_perceptual_hash_idx').on(t.perceptualHash),
  ],
);

export const videos = pgTable(
  'videos',
  {
    id: id(),
    advertId: integer('advert_id')
      .notNull()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    /** The prefix of its private files (`videos/{advertId}/{uuid}`). */
    storageKey: text('storage_key').notNull(),
    /** The poster picture (private area), once made. */
    posterKey: text('poster_key'),
    /** The H.264/AAC MP4 (private area), once transcoded. */
    videoKey: text('video_key'),
    /**
     * While the video is public: the prefix of its published copies in the public area (`{publicKey}.mp4`,
     * `{publicKey}-poster.webp`), a new name each time it is published; null otherwise (docs/decisions/013).
     */
    publicKey: text('public_key'),
    /** The uploaded file as received, in private storage (never reachable by a URL). */
    originalKey: text('original_key'),
    /** Processing status: 0 Uploaded, 1 Converting, 2 Ready, 3 Failed. */
    status: smallint('status').notNull().default(0),
    /** Why processing failed (a message key the screens translate), when status is Failed. */
    failureReason: text('failure_reason'),
    /** Why support declined it (shown to the advertiser). */
    declineReason: text('decline_reason'),
    durationSeconds: integer('duration_seconds'),
    width: integer('width'),
    height: integer('height'),
    isOnline: boolean('is_online').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    /** Moderation status: 0 Pending, 1 Approved, 2 Declined. */
    moderationStatus: smallint('moderation_status').notNull().default(0),
    moderatedBy: integer('moderated_by').references(() => supportUsers.id, { onDelete: 'set null' }),
    moderatedAt: tstz('moderated_at'),
    createdAt: createdAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [index('videos_advert_idx').on(t.advertId, t.sortOrder), index('videos_moderation_idx').on(t.moderationStatus)],
);

export const reviews = pgTable(
  'reviews',
  {
    id: id(),
    advertId: integer('advert_id')
      .notNull()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    authorName: text('author_name').notNull(),
    /** Private: never shown publicly; used for the advertiser's blacklist and abuse checks. */
    authorPhone: text('author_phone'),
    rating: smallint('rating').notNull(),
    text: text('text').notNull(),
    /** Review status: 0 Pending, 1 Approved, 2 Hidden (by the advertiser), 3 Rejected (by support). */
    status: smallint('status').notNull().default(0),
    replyText: text('reply_text'),
    replyAt: tstz('reply_at'),
    removalRequestedAt: tstz('removal_requested_at'),
    decidedBy: integer('decided_by').references(() => supportUsers.id, { onDelete: 'set null' }),
    decidedAt: tstz('decided_at'),
    /** Support's last decision ('approve', 'reject', 'remove', 'keep') and its reason (kept for the record). */
    decision: text('decision'),
    decisionReason: text('decision_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('reviews_advert_status_idx').on(t.advertId, t.status),
    index('reviews_status_idx').on(t.status, t.createdAt),
    /** One review per phone number per advert (visitors' reviews always carry the confirmed number). */
    uniqueIndex('reviews_advert_phone_unique').on(t.advertId, t.authorPhone).where(sql`${t.authorPhone} is not null`),
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
  ],
);

/** The advertiser's private list of phone numbers to avoid. */
export const blacklistEntries = pgTable(
  'blacklist_entries',
  {
    id: id(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [index('blacklist_entries_account_idx').on(t.accountId), index('blacklist_entries_phone_idx').on(t.phone)],
);

// ---------------------------------------------------------------------------------------------
// Commerce
// ---------------------------------------------------------------------------------------------

export const products = pgTable('products', {
  id: id(),
  /** Stable code for seeding and lookups, e.g. 'membership-30'. */
  code: text('code').notNull().unique(),
  /** Product type: 1 Membership, 2 FrontpageBoost, 3 SearchBoost. */
  type: smallint('type').notNull(),
  nameDa: text('name_da').notNull(),
  nameEn: text('name_en').notNull(),
  days: integer('days').notNull(),
  /** Price in øre, 25% VAT included. Orders copy it: a later change never alters an order. */
  priceOre: integer('price_ore').notNull(),
  /** Offered for sale; a retired product (false) stays for the orders that name it. */
  active: boolean('active').notNull().default(true),
  /** A membership that renews by itself (card subscriptions) until cancelled. */
  recurring: boolean('recurring').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
});

/**
 * A card subscription (a recurring membership): the provider charges again on `next_charge_on` until it
 * is cancelled; each charge is an order of its own (docs/decisions/025-commerce.md).
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    advertId: integer('advert_id').references(() => adverts.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    provider: text('provider').notNull(),
    /** The provider's id of the subscription (card: saleID). */
    saleId: text('sale_id').notNull(),
    /** 0 Active, 1 Cancelled (no further charge; what is paid runs out), 2 Ended (expired at the provider). */
    status: smallint('status').notNull().default(0),
    nextChargeOn: tstz('next_charge_on'),
    cancelledAt: tstz('cancelled_at'),
    /** The next_charge_on the renewal reminder was sent for (one reminder per charge). */
    remindedFor: tstz('reminded_for'),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_provider_sale_unique').on(t.provider, t.saleId),
    index('subscriptions_account_idx').on(t.accountId),
    index('subscriptions_next_charge_idx').on(t.status, t.nextChargeOn),
  ],
);

/**
 * Orders are never deleted, and what was bought never changes: product, days, price and VAT are copied at
 * purchase. Only the status moves, forward only (ORDER_TRANSITIONS in domain/commerce/order-status.ts),
 * each move recorded in order_events. Amounts in øre, VAT included (vat_ore is the VAT part).
 */
export const orders = pgTable(
  'orders',
  {
    id: id(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    advertId: integer('advert_id').references(() => adverts.id),
    productId: integer('product_id').references(() => products.id),
    /** Product type at purchase: 1 Membership, 2 FrontpageBoost, 3 SearchBoost. */
    productType: smallint('product_type').notNull().default(1),
    /** Days bought. */
    days: integer('days').notNull().default(0),
    productDescription: text('product_description').notNull(),
    totalPriceOre: integer('total_price_ore').notNull(),
    vatOre: integer('vat_ore').notNull(),
    currency: text('currency').notNull().default('DKK'),
    /** Order status: 0 Created, 1 Paid, 2 Failed, 3 Expired, 4 Refunded, 5 ChargedBack, 6 Pending. */
    status: smallint('status').notNull().default(0),
    /** The provider's transaction / sale id. */
    transactionId: text('transaction_id'),
    /** Our reference sent to the provider: 'PAY-…' (live) or 'TEST-PAY-…' (test provider). */
    referenceId: text('reference_id'),
    /** 'card' | 'crypto' | 'carrier'. */
    paymentMethod: text('payment_method'),
    /** The provider's name ('cardbilling', 'confirmo', 'dimoco'); test providers are marked by the reference. */
    paymentProvider: text('payment_provider'),
    providerSessionId: text('provider_session_id'),
    /** A card subscription's charge (the first sale or a rebill). */
    subscriptionId: integer('subscription_id').references(() => subscriptions.id),
    /** The buyer's language at purchase (receipts and emails). */
    locale: text('locale').notNull().default('da'),
    /** What fulfilment gave: the period this order bought (set once, with the move to Paid). */
    periodStart: tstz('period_start'),
    periodEnd: tstz('period_end'),
    fulfilledAt: tstz('fulfilled_at'),
    /** A payment arrived for an order already paid (or otherwise not payable): recorded, never credited, to be refunded. */
    refundFlaggedAt: tstz('refund_flagged_at'),
    refundFlagReason: text('refund_flag_reason'),
    /** An unpaid order stops being payable then (the job moves it to Expired). */
    expiresAt: tstz('expires_at'),
    createdAt: createdAt(),
    paidAt: tstz('paid_at'),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('orders_account_idx').on(t.accountId, t.createdAt),
    index('orders_advert_idx').on(t.advertId),
    index('orders_transaction_idx').on(t.transactionId),
    uniqueIndex('orders_reference_unique').on(t.referenceId),
    index('orders_status_created_idx').on(t.status, t.createdAt),
    index('orders_subscription_idx').on(t.subscriptionId),
    index('orders_paid_idx').on(t.paidAt),
    // The expiry job's look-up (expireUnpaidOrders): only the open orders (Created 0, Pending 6), by when they stop being payable.
    index('orders_open_expiry_idx').on(t.expiresAt, t.id).where(sql`${t.status} in (0, 6) and ${t.expiresAt} is not null`),
  ],
);

/** Every move of an order's status, append-only (who, why, and the postback that caused it). */
export const orderEvents = pgTable(
  'order_events',
  {
    id: id(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    fromStatus: smallint('from_status'),
    toStatus: smallint('to_status').notNull(),
    /** 'provider' | 'support' | 'system' | 'advertiser' */
    actorType: text('actor_type').notNull(),
    actorId: integer('actor_id'),
    paymentEventId: integer('payment_event_id'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.id)],
);

/**
 * Every postback a payment provider sent, raw and append-only, one row per provider event (`event_key`,
 * unique per provider: a copy of an event already stored changes nothing). Refused postbacks (a bad
 * signature, an unknown reference, a wrong amount or currency) are stored too, with why.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: id(),
    provider: text('provider').notNull(),
    /** The provider's own id of the event; refused postbacks get a generated one ('refused:…'). */
    eventKey: text('event_key').notNull(),
    orderId: integer('order_id').references(() => orders.id),
    /** 'GET' | 'POST' */
    method: text('method').notNull(),
    /** The query string as received. */
    rawQuery: text('raw_query').notNull().default(''),
    /** The body as received (text), or '' for a GET. */
    rawBody: text('raw_body').notNull().default(''),
    /** The signature header or field as received. */
    signature: text('signature'),
    /** What the event says in our words: paid, pending, failed, expired, rebill, cancel, refund, chargeback … */
    kind: text('kind'),
    /** 'applied' | 'ignored' | 'flagged' | 'refused' */
    outcome: text('outcome').notNull(),
    reason: text('reason'),
    receivedAt: tstz('received_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_events_provider_key_unique').on(t.provider, t.eventKey),
    index('payment_events_order_idx').on(t.orderId),
  ],
);

/**
 * Postbacks that failed the provider's authentication (a bad signature or digest, another shop, a start
 * URL sent back, unreadable data; decision 038): anyone can send those, so they are kept apart from the
 * append-only payment_events, capped (a prefix of what came) and pruned (30 days, at most 10,000 rows, by
 * the commerce clock). Authenticated postbacks we refuse (a wrong amount, an unknown reference) stay in
 * payment_events: only the provider's key makes them.
 */
export const refusedPostbacks = pgTable(
  'refused_postbacks',
  {
    id: id(),
    provider: text('provider').notNull(),
    /** 'GET' | 'POST' */
    method: text('method').notNull(),
    /** The first 2,000 characters of the query string and of the body as received. */
    queryPrefix: text('query_prefix').notNull().default(''),
    bodyPrefix: text('body_prefix').notNull().default(''),
    reason: text('reason').notNull(),
    receivedAt: tstz('received_at').notNull().defaultNow(),
  },
  (t) => [index('refused_postbacks_received_idx').on(t.receivedAt)],
);

/** What a sales document lists (one line per thing bought, amounts in øre) and its parties: the shapes the API answers too. */
export type SalesDocumentLine = DocumentLine;
/** The seller as the website config named it when the document was made; the buyer of a full invoice. */
export type SalesDocumentParty = DocumentParty;

/**
 * Receipts and credit notes (docs/decisions/025-commerce.md): numbered in one sequence without gaps
 * (`document_counters`, taken in the same transaction), never edited or deleted; a correction is a new
 * document. A credit note's amounts are positive and it names the receipt it credits.
 */
export const salesDocuments = pgTable(
  'sales_documents',
  {
    id: id(),
    /** 'receipt' | 'credit_note' | 'invoice' (a full invoice with the buyer, made on request for a receipt). */
    kind: text('kind').notNull(),
    number: integer('number').notNull().unique(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    /** The receipt a credit note credits or a full invoice replaces. */
    refersTo: integer('refers_to'),
    issuedAt: tstz('issued_at').notNull(),
    locale: text('locale').notNull().default('da'),
    seller: jsonb('seller').$type<SalesDocumentParty>().notNull(),
    buyer: jsonb('buyer').$type<SalesDocumentParty>(),
    lines: jsonb('lines').$type<SalesDocumentLine[]>().notNull(),
    netOre: integer('net_ore').notNull(),
    vatOre: integer('vat_ore').notNull(),
    totalOre: integer('total_ore').notNull(),
    /** VAT rate in basis points: 2500 = 25%. */
    vatRateBp: integer('vat_rate_bp').notNull().default(2500),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('sales_documents_order_idx').on(t.orderId), index('sales_documents_issued_idx').on(t.issuedAt)],
);

/** One row per numbering series ('sales'): the last number given. Incremented inside the issuing transaction. */
export const documentCounters = pgTable('document_counters', {
  series: text('series').primaryKey(),
  last: integer('last').notNull().default(0),
});

/** A period bought by an order (membership extends expiration_date; boosts set *_boost_until). */
export const promotions = pgTable(
  'promotions',
  {
    id: id(),
    advertId: integer('advert_id')
      .notNull()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    orderId: integer('order_id').references(() => orders.id),
    /** Product type: 1 Membership, 2 FrontpageBoost, 3 SearchBoost. */
    type: smallint('type').notNull(),
    startsAt: tstz('starts_at').notNull(),
    endsAt: tstz('ends_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('promotions_advert_idx').on(t.advertId, t.endsAt), index('promotions_type_ends_idx').on(t.type, t.endsAt)],
);

// ---------------------------------------------------------------------------------------------
// Trust and safety
// ---------------------------------------------------------------------------------------------

/** A provider's answer about one check, kept on its verification row for support (docs/decisions/019-test-providers-and-yoti.md). */
export type ProviderResult = {
  status: 'passed' | 'failed';
  ageOver18: boolean | null;
  /** The provider's own word (Yoti: COMPLETE, FAIL, ERROR, …; the test provider: TEST). */
  providerStatus: string | null;
  method: string | null;
  threshold: number | null;
  /** ISO time we received it. */
  receivedAt: string;
};

/** One file of a verification, in the private storage area (never reachable by a URL of its own). */
export type VerificationFile = {
  /** 'document' | 'selfie' | 'video' */
  kind: string;
  /** Private storage key (generated). */
  key: string;
  contentType: string;
  /** ISO time of the upload. */
  uploadedAt: string;
};

/**
 * Age/identity verification attempts (src/server/domain/verification/). files: private storage keys with
 * their kind, emptied (files_deleted_at set) 30 days after the decision; the row itself is kept.
 */
export const verifications = pgTable(
  'verifications',
  {
    id: id(),
    advertId: integer('advert_id').references(() => adverts.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** 'document' | 'video' | 'provider' | 'qr' */
    method: text('method').notNull(),
    /**
     * Verification status: 0 Open (files still being uploaded, or a provider check running), 1 Pending
     * (submitted, waiting for support), 2 Validated, 3 Declined (may try again), 4 Rejected (final).
     */
    status: smallint('status').notNull().default(1),
    providerSessionId: text('provider_session_id'),
    /** The provider's page for this session (where the browser is sent to do the check). */
    providerUri: text('provider_uri'),
    /** Which provider ran a 'provider' check ('test': the built-in TEST provider, no real check; 'yoti'). */
    provider: text('provider'),
    /** What the provider answered, as received (status, over 18, its own word, method, threshold, when). */
    providerResult: jsonb('provider_result').$type<ProviderResult>(),
    files: jsonb('files').$type<VerificationFile[]>().notNull().default([]),
    /** When the files were complete and the verification went to support's queue. */
    submittedAt: tstz('submitted_at'),
    decidedBy: integer('decided_by').references(() => supportUsers.id, { onDelete: 'set null' }),
    decidedAt: tstz('decided_at'),
    /** Support's reason; for a provider check 'under18' or 'cancelled' when it did not pass. */
    reason: text('reason'),
    /** The terms' rule of a decline or rejection (TERMS_RULES). */
    rule: text('rule'),
    filesDeletedAt: tstz('files_deleted_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('verifications_status_idx').on(t.status, t.createdAt),
    index('verifications_decided_idx').on(t.decidedAt),
    index('verifications_advert_idx').on(t.advertId),
    index('verifications_account_idx').on(t.accountId),
    uniqueIndex('verifications_provider_session_unique').on(t.providerSessionId),
  ],
);

/**
 * QR hand-off links (ageverificationbyqrcode): a phone continues an advertiser's verification without
 * signing in. Only the SHA-256 of the token is stored; it ends after 30 minutes, when a newer one is made,
 * or when the verification is submitted.
 */
export const verificationHandoffs = pgTable(
  'verification_handoffs',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: tstz('expires_at').notNull(),
    firstUsedAt: tstz('first_used_at'),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [index('verification_handoffs_account_idx').on(t.accountId)],
);

/** Reports from the button on every advert (notice and action). */
export const contentReports = pgTable(
  'content_reports',
  {
    id: id(),
    advertId: integer('advert_id').references(() => adverts.id, { onDelete: 'set null' }),
    /** e.g. 'minor' | 'trafficking' | 'not-consensual' | 'fake' | 'spam' | 'other' */
    reason: text('reason').notNull(),
    details: text('details'),
    advertUrl: text('advert_url'),
    reporterName: text('reporter_name'),
    reporterEmail: text('reporter_email'),
    goodFaith: boolean('good_faith').notNull().default(false),
    /** Report status: 0 New, 1 In progress, 2 Action taken, 3 Dismissed. */
    status: smallint('status').notNull().default(0),
    /** Priority: 0 Normal, 1 High, 2 Urgent (minors, trafficking). */
    priority: smallint('priority').notNull().default(0),
    /** 'no-action' | 'lock-advert' */
    decision: text('decision'),
    decisionReason: text('decision_reason'),
    /** The terms' rule the decision rests on (TERMS_RULES in src/lib/schemas/moderation.ts). */
    rule: text('rule'),
    decidedBy: integer('decided_by').references(() => supportUsers.id, { onDelete: 'set null' }),
    decidedAt: tstz('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('content_reports_status_idx').on(t.status, t.priority, t.createdAt),
    index('content_reports_advert_idx').on(t.advertId),
    index('content_reports_created_idx').on(t.createdAt),
    index('content_reports_decided_idx').on(t.decidedAt),
  ],
);

/** Why a moderation decision was taken (DSA statement of reasons), with the advertiser's appeal. */
export const statementsOfReasons = pgTable(
  'statements_of_reasons',
  {
    id: id(),
    advertId: integer('advert_id').references(() => adverts.id, { onDelete: 'set null' }),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** What was decided: STATEMENT_DECISIONS in src/lib/schemas/moderation.ts ('advert.locked', 'picture.declined', …). */
    decision: text('decision').notNull(),
    /** The content the decision is about, as the advertiser knows it (the advert's name). */
    what: text('what').notNull().default(''),
    /** The picture or video the decision is about (media decisions), else null. */
    targetId: integer('target_id'),
    reason: text('reason').notNull(),
    /** TERMS_RULES in src/lib/schemas/moderation.ts. */
    rule: text('rule'),
    createdBy: integer('created_by').references(() => supportUsers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    appealText: text('appeal_text'),
    appealedAt: tstz('appealed_at'),
    appealDecidedBy: integer('appeal_decided_by').references(() => supportUsers.id, { onDelete: 'set null' }),
    /** 'upheld' | 'reversed' */
    appealDecision: text('appeal_decision'),
    appealReason: text('appeal_reason'),
    appealDecidedAt: tstz('appeal_decided_at'),
    /**
     * The report (notice) this decision answered; null for a decision support took on its own initiative
     * (the DSA transparency report counts the two apart, issue 18).
     */
    reportId: integer('report_id').references(() => contentReports.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('statements_of_reasons_created_idx').on(t.createdAt),
    index('statements_of_reasons_account_idx').on(t.accountId),
    index('statements_of_reasons_advert_idx').on(t.advertId),
    index('statements_of_reasons_appeal_idx').on(t.appealedAt),
  ],
);

/** Messages to an advertiser, in both languages. */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    titleDa: text('title_da').notNull(),
    titleEn: text('title_en').notNull(),
    bodyDa: text('body_da').notNull(),
    bodyEn: text('body_en').notNull(),
    link: text('link'),
    /** Notification status: 0 Unread, 1 Read. */
    status: smallint('status').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_account_idx').on(t.accountId, t.status, t.createdAt)],
);

// ---------------------------------------------------------------------------------------------
// Content and SEO
// ---------------------------------------------------------------------------------------------

/**
 * SEO pages. type: 'service' (/service/{url}/), 'article' (/artikler/{url}/), 'free' (/{url}/),
 * 'index' (SEO text for a search landing page: url is the search path without slashes, e.g.
 * 'escort/region-hovedstaden/koebenhavn', with kind/region_id/city_id set).
 * The Danish and English twins share the same url (English under /en/).
 */
export const landingPages = pgTable(
  'landing_pages',
  {
    id: id(),
    /** 'service' | 'article' | 'free' | 'index' */
    type: text('type').notNull(),
    /** 'da' | 'en' */
    locale: text('locale').notNull().default('da'),
    url: text('url').notNull(),
    title: text('title').notNull(),
    metaDescription: text('meta_description'),
    intro: text('intro'),
    /** Markdown. */
    body: text('body').notNull().default(''),
    images: jsonb('images').$type<LandingPageImage[]>().notNull().default([]),
    /** Search category in URL form: 'escort' | 'trans-escort' | 'thaimassage' (index pages). */
    kind: text('kind'),
    regionId: integer('region_id').references(() => regions.id, { onDelete: 'set null' }),
    cityId: integer('city_id').references(() => cities.id, { onDelete: 'set null' }),
    serviceId: integer('service_id').references(() => services.id, { onDelete: 'set null' }),
    publishedAt: tstz('published_at'),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('landing_pages_type_locale_url_unique').on(t.type, t.locale, t.url)],
);

/**
 * Permanent redirects of public addresses that moved (issue 17): a published SEO page whose address
 * changed, a renamed city. from_path and to_path are site paths with both slashes ('/escort/x/y/'), the
 * English twin under '/en/'. Chains are kept flat: a new move rewrites every redirect that led to the old
 * address (src/server/domain/site/redirects.ts).
 */
export const pathRedirects = pgTable('path_redirects', {
  fromPath: text('from_path').primaryKey(),
  toPath: text('to_path').notNull(),
  createdAt: createdAt(),
});

/** News for advertisers (shown on the dashboard). */
export const news = pgTable(
  'news',
  {
    id: id(),
    /** 'da' | 'en' */
    locale: text('locale').notNull().default('da'),
    title: text('title').notNull(),
    /** Markdown (raw HTML off when rendered). */
    body: text('body').notNull(),
    /** Shown from this moment; null: a draft. */
    publishedAt: tstz('published_at'),
    /** No longer shown from this moment; null: shown until deleted. */
    endsAt: tstz('ends_at'),
    /** Pinned news come first on the dashboard. */
    pinned: boolean('pinned').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('news_locale_published_idx').on(t.locale, t.publishedAt)],
);

/** Which advertiser has opened which news item (unread ones are marked on the dashboard). */
export const newsReads = pgTable(
  'news_reads',
  {
    newsId: integer('news_id')
      .notNull()
      .references(() => news.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    readAt: tstz('read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.newsId, t.accountId] })],
);

/** What visitors search for. keyword is stored lower-case. */
export const searchKeywords = pgTable(
  'search_keywords',
  {
    id: id(),
    keyword: text('keyword').notNull().unique(),
    /** 'matched' | 'unmatched' | 'ignored' */
    kind: text('kind').notNull().default('unmatched'),
    hits: integer('hits').notNull().default(0),
    /** For matched keywords: where the search leads (a search path or a landing page url). */
    targetUrl: text('target_url'),
    lastSearchedAt: tstz('last_searched_at'),
    createdAt: createdAt(),
  },
  (t) => [index('search_keywords_kind_hits_idx').on(t.kind, t.hits)],
);

/**
 * Visitors' search terms per day (issue 17; src/server/domain/search/search-terms.ts): the term as
 * normalised, how often it was searched and how often that found nothing, and nothing else (no address,
 * no session, no user). Only terms searched by at least 3 visitors in a day are written; kept 13 months.
 */
export const searchTermDays = pgTable(
  'search_term_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    term: text('term').notNull(),
    searches: integer('searches').notNull(),
    noResults: integer('no_results').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.term] }), index('search_term_days_term_idx').on(t.term)],
);

/**
 * Advertiser insights (issue 32, docs/decisions/040): per advert, Copenhagen day and place (`front`,
 * `search`, `landing:{kind}[/{region}[/{city}]]` for impressions, `advert` for the advert page's figures),
 * the counts the beacons' tallies added up (src/server/domain/insights/). Only ever added to, so several
 * instances writing the same row add up; nothing in it names a visitor.
 */
export const advertInsightDays = pgTable(
  'advert_insight_days',
  {
    advertId: integer('advert_id')
      .notNull()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    place: text('place').notNull(),
    impressions: integer('impressions').notNull().default(0),
    /** The ranks of the impressions added up: the average rank is rank_sum / impressions. */
    rankSum: bigint('rank_sum', { mode: 'number' }).notNull().default(0),
    views: integer('views').notNull().default(0),
    phoneReveals: integer('phone_reveals').notNull().default(0),
    contactTaps: integer('contact_taps').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.advertId, t.day, t.place] }), index('advert_insight_days_day_idx').on(t.day)],
);

/** Synonyms: a search for `keyword` also searches for `paired_with`. Both lower-case. */
export const pairedKeywords = pgTable(
  'paired_keywords',
  {
    id: id(),
    keyword: text('keyword').notNull(),
    pairedWith: text('paired_with').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('paired_keywords_unique').on(t.keyword, t.pairedWith)],
);

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

/** Mail and SMS written by the default adapters (and kept as a log by the real ones). */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: id(),
    /** 'email' | 'sms' */
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    /**
     * The text. Links and codes that grant access are masked once a real provider delivered the message,
     * and always in production without one; in clear only until delivery or, without a provider, in
     * development and tests (adapters/messaging/outbox-messaging.ts).
     */
    body: text('body').notNull(),
    /** The text with its links and codes masked: what an outbox view shows outside development and tests. */
    maskedBody: text('masked_body').notNull().default(''),
    createdAt: createdAt(),
    /** When a real provider took it (SMTP, the SMS provider); null while it waits or was never sent. */
    sentAt: tstz('sent_at'),
    /** The last delivery failure, for support and the retry job. */
    error: text('error'),
    /** The SMS provider's id of the message, which its delivery reports name. */
    providerId: text('provider_id'),
    /** The SMS provider's last reported state (GatewayAPI: ENROUTE, DELIVERED, UNDELIVERABLE, …) and when it was reached. */
    deliveryStatus: text('delivery_status'),
    deliveryStatusAt: tstz('delivery_status_at'),
  },
  (t) => [index('outbox_messages_recipient_idx').on(t.recipient, t.createdAt)],
);

/**
 * Words in advert texts that suggest a minor (issue 6 risk signals): support edits the list; an advert
 * text containing one is refused on save and flags the advert in the review queue. Stored lower-case.
 */
export const riskWords = pgTable(
  'risk_words',
  {
    id: id(),
    word: text('word').notNull(),
    addedBy: integer('added_by').references(() => supportUsers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('risk_words_word_unique').on(t.word)],
);

/** Append only: every state change made by support, the system or an advertiser. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** 'support' | 'advertiser' | 'system' | 'visitor' */
    actorType: text('actor_type').notNull(),
    actorId: integer('actor_id'),
    impersonatedBy: integer('impersonated_by'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.createdAt),
    index('audit_log_actor_idx').on(t.actorType, t.actorId, t.createdAt),
    index('audit_log_created_idx').on(t.createdAt),
    /** Statistics count status changes of one kind over a range of days (issue 18). */
    index('audit_log_action_created_idx').on(t.action, t.createdAt),
  ],
);

/** The durable job queue. status: 'queued' | 'running' | 'done' | 'failed'. */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    queue: text('queue').notNull(),
    payload: jsonb('payload').notNull().default({}),
    status: text('status').notNull().default('queued'),
    runAt: tstz('run_at').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    lockedUntil: tstz('locked_until'),
    /** At most one queued job per key (debounced work such as a site rebuild). */
    singletonKey: text('singleton_key'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    finishedAt: tstz('finished_at'),
  },
  (t) => [
    index('jobs_status_run_at_idx').on(t.status, t.runAt),
    uniqueIndex('jobs_singleton_queued_unique').on(t.singletonKey).where(sql`${t.status} = 'queued'`),
  ],
);

/** Static site builds. status: 'running' | 'succeeded' | 'failed'. */
export const siteBuilds = pgTable(
  'site_builds',
  {
    id: id(),
    status: text('status').notNull().default('running'),
    startedAt: tstz('started_at').notNull().defaultNow(),
    finishedAt: tstz('finished_at'),
    pages: integer('pages'),
    error: text('error'),
    folder: text('folder'),
  },
  (t) => [index('site_builds_started_idx').on(t.startedAt)],
);

/** Postgres full-text document. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The search index: one narrow row per advert that is public now (derived from `adverts` and its
 * relations by src/server/domain/search/refresh-advert-search.ts, never written elsewhere). Filters,
 * counts and ordering read only this table; texts and cards are in advert_search_documents.
 * kind: 0 escort, 1 trans escort, 2 Thai massage (the three public categories).
 * rank orders results: search-boosted first, then most recently updated.
 */
export const advertSearch = pgTable(
  'advert_search',
  {
    advertId: integer('advert_id')
      .primaryKey()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    kind: smallint('kind').notNull(),
    regionId: integer('region_id'),
    cityId: integer('city_id'),
    age: smallint('age'),
    height: smallint('height'),
    weight: smallint('weight'),
    breastType: smallint('breast_type'),
    nationalityId: integer('nationality_id'),
    incall: boolean('incall').notNull(),
    outcall: boolean('outcall').notNull(),
    validated: boolean('validated').notNull(),
    hasVideo: boolean('has_video').notNull(),
    hasReview: boolean('has_review').notNull(),
    languageIds: integer('language_ids').array().notNull(),
    serviceIds: integer('service_ids').array().notNull(),
    frontPageBoosted: boolean('front_page_boosted').notNull(),
    rank: bigint('rank', { mode: 'number' }).notNull(),
    /** When this row must be looked at again (expiry, holiday start, a boost ending). */
    recheckAt: tstz('recheck_at'),
    refreshedAt: tstz('refreshed_at').notNull().defaultNow(),
  },
  (t) => [
    index('advert_search_kind_rank_idx').on(t.kind, t.rank),
    index('advert_search_rank_idx').on(t.rank),
    index('advert_search_place_idx').on(t.kind, t.regionId, t.cityId),
    index('advert_search_city_idx').on(t.cityId),
    index('advert_search_recheck_idx').on(t.recheckAt),
    index('advert_search_languages_idx').using('gin', t.languageIds),
    index('advert_search_services_idx').using('gin', t.serviceIds),
  ],
);

/**
 * The wide part of the search index, kept apart so that filtering scans only narrow rows: the text
 * to match (Danish full text and typo-tolerant trigram text) and the prebuilt result cards.
 */
export const advertSearchDocuments = pgTable(
  'advert_search_documents',
  {
    advertId: integer('advert_id')
      .primaryKey()
      .references(() => adverts.id, { onDelete: 'cascade' }),
    document: tsvector('document').notNull(),
    /** Name, title, city and service names, lower case: what typo-tolerant matching compares with. */
    searchText: text('search_text').notNull(),
    cardDa: jsonb('card_da').notNull(),
    cardEn: jsonb('card_en').notNull(),
  },
  (t) => [
    index('advert_search_documents_document_idx').using('gin', t.document),
    index('advert_search_documents_text_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);

/**
 * The search index's version: bumped (row-locked, so versions commit in order) by every refresh of
 * advert_search, with the refreshed advert ids in search_index_log. Readers that keep the index in
 * memory (search, the incremental site build) ask what changed since the version they hold.
 */
export const searchIndexState = pgTable('search_index_state', {
  id: smallint('id').primaryKey().default(1),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  /** When refreshDueAdvertSearch last looked for what time changed (null: never, look at everything). */
  checkedAt: tstz('checked_at'),
});

/** Which adverts' search rows changed at each version (pruned after a few days). */
export const searchIndexLog = pgTable(
  'search_index_log',
  {
    version: bigint('version', { mode: 'number' }).primaryKey(),
    advertIds: integer('advert_ids').array().notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('search_index_log_created_idx').on(t.createdAt)],
);

// ---------------------------------------------------------------------------------------------
// Inferred row types
// ---------------------------------------------------------------------------------------------

export type SiteSettings = typeof siteSettings.$inferSelect;
export type Region = typeof regions.$inferSelect;
export type City = typeof cities.$inferSelect;
export type Language = typeof languages.$inferSelect;
export type Nationality = typeof nationalities.$inferSelect;
export type Service = typeof services.$inferSelect;
export type Account = typeof accounts.$inferSelect;
export type NewAccount = typeof accounts.$inferInsert;
export type SupportUser = typeof supportUsers.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type Advert = typeof adverts.$inferSelect;
export type NewAdvert = typeof adverts.$inferInsert;
export type PriceListItem = typeof priceListItems.$inferSelect;
export type ExtraPriceItem = typeof extraPriceItems.$inferSelect;
export type ScheduleEntry = typeof scheduleEntries.$inferSelect;
export type Picture = typeof pictures.$inferSelect;
export type NewPicture = typeof pictures.$inferInsert;
export type Video = typeof videos.$inferSelect;
export type Review = typeof reviews.$inferSelect;
export type BlacklistEntry = typeof blacklistEntries.$inferSelect;
export type Product = typeof products.$inferSelect;
export type Order = typeof orders.$inferSelect;
export type Promotion = typeof promotions.$inferSelect;
export type Verification = typeof verifications.$inferSelect;
export type VerificationHandoff = typeof verificationHandoffs.$inferSelect;
export type ContentReport = typeof contentReports.$inferSelect;
export type Notification = typeof notifications.$inferSelect;
export type StatementOfReasons = typeof statementsOfReasons.$inferSelect;
export type LandingPage = typeof landingPages.$inferSelect;
export type News = typeof news.$inferSelect;
export type SearchKeyword = typeof searchKeywords.$inferSelect;
export type PairedKeyword = typeof pairedKeywords.$inferSelect;
export type OutboxMessage = typeof outboxMessages.$inferSelect;
export type AuditLogEntry = typeof auditLog.$inferSelect;
export type Job = typeof jobs.$inferSelect;
export type SiteBuild = typeof siteBuilds.$inferSelect;
export type AdvertSearchRow = typeof advertSearch.$inferSelect;
export type AdvertSearchDocument = typeof advertSearchDocuments.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Statistics and the import from the old site (issue 18)
// ---------------------------------------------------------------------------------------------

/**
 * Public adverts at the end of each Copenhagen day, by public kind ('escort' | 'transEscort' |
 * 'thaiMassage'): the one figure the records cannot give afterwards, so a daily job counts it from
 * advert_search (src/server/domain/statistics/). Every other figure is computed from its records.
 */
export const publicAdvertDays = pgTable(
  'public_advert_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    count: integer('count').notNull(),
    countedAt: tstz('counted_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind] })],
);

/**
 * An export file of the old site, uploaded by support and imported by a durable job (queue
 * 'migration-import'). status: 'queued' | 'running' | 'done' | 'failed'. The same file (by SHA-256)
 * is imported once; a line already imported (by its old id) is never imported again.
 */
export const migrationImports = pgTable(
  'migration_imports',
  {
    id: id(),
    fileName: text('file_name').notNull(),
    sha256: text('sha256').notNull(),
    /** Where the uploaded archive is kept until the job has read it (private media storage key). */
    storageKey: text('storage_key'),
    status: text('status').notNull().default('queued'),
    totalLines: integer('total_lines').notNull().default(0),
    doneLines: integer('done_lines').notNull().default(0),
    importedLines: integer('imported_lines').notNull().default(0),
    skippedLines: integer('skipped_lines').notNull().default(0),
    /** Lines refused: their line number and why (an i18n key under migration.lineErrors, and a detail). */
    lineErrors: jsonb('line_errors').$type<{ line: number; reason: string; detail?: string }[]>().notNull().default([]),
    error: text('error'),
    createdBy: integer('created_by').references(() => supportUsers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    finishedAt: tstz('finished_at'),
  },
  (t) => [uniqueIndex('migration_imports_sha256_unique').on(t.sha256)],
);

/** One picture of an imported advert (migrated_adverts.pictures). */
export type MigratedPictureFile = {
  key: string;
  sha256: string;
  width: number;
  height: number;
  originalKey: string;
  variants: MediaVariant[];
  perceptualHash: string;
  /** The file's name inside the archive. */
  fileName: string;
};

/**
 * An advert from the old site. state: 'imported' | 'invited' | 'claimed' | 'live' | 'refused' |
 * 'duplicate' | 'deleted'. `old_id` is unique for ever (a deleted import keeps its row, without its
 * personal data, so the old address answers 410 and the id is never reused). `advert_id` is the new
 * advert once claimed or merged.
 */
export const migratedAdverts = pgTable(
  'migrated_adverts',
  {
    id: id(),
    oldId: integer('old_id').notNull().unique(),
    importId: integer('import_id').references(() => migrationImports.id, { onDelete: 'set null' }),
    line: integer('line'),
    state: text('state').notNull().default('imported'),
    /** 0 escort, 1 Thai massage (as adverts.kind); gender 1 or 5 as adverts.gender. */
    kind: smallint('kind').notNull(),
    gender: smallint('gender').notNull().default(1),
    name: text('name').notNull(),
    /** The old advert's slug (its old address /P/{slug}--{old id}.html/). */
    oldSlug: text('old_slug').notNull(),
    email: text('email'),
    phone: text('phone'),
    regionId: integer('region_id').references(() => regions.id),
    cityId: integer('city_id').references(() => cities.id),
    /** Texts, prices and other fields as imported (checked and normalised). */
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    /**
     * Pictures stored through the picture pipeline, waiting for the claim (private until then): `key` is
     * the prefix of the private files (a picture row's storage_key), `sha256` the archive file's, and the
     * rest what a picture row needs (domain/migration/import-line.ts).
     */
    pictures: jsonb('pictures').$type<MigratedPictureFile[]>().notNull().default([]),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    advertId: integer('advert_id').references(() => adverts.id, { onDelete: 'set null' }),
    refusedReason: text('refused_reason'),
    invitedAt: tstz('invited_at'),
    /** SHA-256 of the one-time claim link's token; the link itself is only in the message to the owner. */
    claimTokenHash: text('claim_token_hash'),
    claimExpiresAt: tstz('claim_expires_at'),
    claimedAt: tstz('claimed_at'),
    decidedBy: integer('decided_by').references(() => supportUsers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
    /** Unclaimed imports are deleted (pictures included) after MIGRATION_UNCLAIMED_DAYS. */
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    index('migrated_adverts_state_idx').on(t.state, t.createdAt),
    index('migrated_adverts_email_idx').on(t.email),
    index('migrated_adverts_phone_idx').on(t.phone),
    uniqueIndex('migrated_adverts_claim_token_unique').on(t.claimTokenHash),
  ],
);
