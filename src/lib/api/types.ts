/** Shapes of the API answers the site and the dashboards use (JSON, camelCase). */

export type { FooterInfo, LinkItem, WebsiteConfig } from '../schemas/site-info.ts';

/** e: escorts, t: Thai massage, te: trans escorts. */
export type AvailableCounts = { e: number; t: number; te: number };

export type City = { id: number; city: string; slug: string };
export type Region = { id: number; name: string; nameEn: string; slug: string; cities: City[] };

export type Language = { name: string; title: string; icon: string };

export type LandingKind = 'artikler' | 'service';
export type LandingPageSummary = { url: string; title: string };
/** A picture of a landing page: `key` is relative to /media/. */
export type LandingPageImage = {
  key: string;
  alt?: string;
  width?: number;
  height?: number;
  /** The published files are `{base}-{width}.{avif|webp}` for each of `widths` (SEO staff's uploads). */
  base?: string;
  widths?: number[];
};

export type LandingPage = {
  url: string;
  title: string;
  metaDescription: string;
  intro: string;
  body: string;
  publishedAt: string;
  updatedAt?: string;
  images?: LandingPageImage[];
};

/** The SEO text of a search landing page (landingpageindexpage). */
export type LandingIndexPage = {
  url: string;
  title: string;
  metaDescription: string;
  intro: string;
  body: string;
  images?: LandingPageImage[];
};

export type ReferenceItem = { id: number; code: string; name: string };
export type ServiceInfo = { id: number; slug: string; name: string; type: number; description: string };

/** profilesreferences: everything the search filters offer. */
export type ProfilesReferences = {
  languages: ReferenceItem[];
  nationalities: ReferenceItem[];
  services: ServiceInfo[];
  breastTypes: { id: number; name: string }[];
};

/** frontpageactiveareas: a city with public adverts. */
export type ActiveArea = { regionSlug: string; region: string; city: string; citySlug: string; n: number };

/** searchpagesearchlocation: a location suggestion. */
export type LocationSuggestion = {
  type: 'region' | 'city';
  name: string;
  region?: string;
  regionSlug: string;
  citySlug: string | null;
};

/** searchpagepagefreetext: where a header search should go. */
export type FreeTextTarget = { keyword: string; targetUrl: string | null };

/** userprofile: the signed-in advertiser (spec §3) and what the backend frame shows about the account. */
export type UserProfile = {
  id: number;
  email: string;
  /** The advert's status (0 New, 1 Active, 2 Locked, 3 Deleted, 5 Deactivated); null without an advert. */
  profileStatus: number | null;
  expirationDate: string | null;
  permissions: string[];
  escort: boolean;
  transEscort: boolean;
  thaimassage: boolean;
  /** Whether the account's email (link) and phone (SMS code) are confirmed. */
  emailVerified: boolean;
  phoneVerified: boolean;
  /**
   * The advert's id (updateidentification's ProfileId), when the server answers it; without it the
   * verification screens rely on the provider's callback having recorded the check.
   */
  advertId: number | null;
  /** Set while support is signed in as the advertiser (impersonation): the backend shows a banner with Stop. */
  impersonation?: { supportUserName: string; advertName: string | null; advertId: number | null } | null;
};

export type SupportPermission = 'Support' | 'SEO' | 'Administration';

export type SupportProfile = {
  id: number;
  email: string;
  name: string;
  /** Leaves out Administration while `twoFactorRequired`. */
  permissions: SupportPermission[];
  /** Two-step sign-in (an authenticator app's code) is on. */
  twoFactorEnabled: boolean;
  /** The user has Administration but two-step sign-in is off: Administration waits until it is on. */
  twoFactorRequired: boolean;
};

/** A row of GET /api/support/users (and the answer of user and of POST users). */
export type SupportUserRow = {
  id: number;
  email: string;
  name: string;
  permissions: SupportPermission[];
  disabled: boolean;
  twoFactorEnabled: boolean;
  /** ISO time, null when the user never signed in. */
  lastLoginAt: string | null;
  createdAt: string;
};

export type SupportUserList = { total: number; items: SupportUserRow[] };

/** POST /api/support/users: without `id` a new user (password required), with `id` an update. */
export type SaveSupportUserBody = {
  id?: number;
  email: string;
  name: string;
  password?: string;
  permissions: SupportPermission[];
  disabled?: boolean;
  resetTwoFactor?: boolean;
};

/** POST /api/support/twofactorsetup: a new pending secret (base32), its otpauth URI and that URI as a QR code (SVG). */
export type TwoFactorSetup = { secret: string; otpauthUri: string; qrSvg: string };

/** GET /api/support/pendingcounts (one type with the server's). */
export type { PendingCount, PendingCounts } from '#lib/schemas/moderation.ts';

export type Credentials = { email: string; password: string };

/** Support sign-in: `code` from the authenticator app once two-step sign-in is on. */
export type SupportCredentials = Credentials & { code?: string };
