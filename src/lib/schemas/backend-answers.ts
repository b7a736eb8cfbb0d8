/**
 * Shapes of the advertiser backend's answers (JSON), defined once: the server's domain returns them and
 * the backend screens read them (src/dashboards/backend/{screen}/api.ts).
 */

// dashboard -------------------------------------------------------------------------------------

/** The status in plain words (spec §3 labels, plus the states the advertiser must tell apart). */
export type StatusWord = 'New' | 'Pending' | 'Active' | 'Expired' | 'Holiday' | 'Deactivated' | 'Locked' | 'Deleted';
/** What to do next (i18n keys of the dashboard screen). */
export type NextStep =
  | 'completeChecklist'
  | 'waitForApproval'
  | 'waitForChanges'
  | 'verifyAge'
  | 'waitForVerification'
  | 'buyPackage'
  | 'endHoliday'
  | 'reactivate'
  | 'contactSupport'
  | 'restore'
  | 'none';

export type ChecklistKey =
  | 'emailVerified'
  | 'phoneVerified'
  | 'pictures'
  | 'priceList'
  | 'schedule'
  | 'identityVerification'
  | 'approval'
  | 'package';

/**
 * One point of the checklist. `waitingSince` (ISO): the advertiser has done their part and it waits for
 * support since then (the age and identity verification, submitted and not yet decided); else null.
 */
export type ChecklistItem = { key: ChecklistKey; done: boolean; required: boolean; skippable: boolean; skipped: boolean; waitingSince: string | null };

/**
 * A news item on the dashboard: `body` is the Markdown staff wrote, `html` the same rendered (#lib/markdown.ts,
 * raw HTML off); `read` once the advertiser opened it (readnews).
 */
export type NewsItem = { id: number; title: string; body: string; html: string; publishedAt: string; pinned: boolean; read: boolean };

/** GET dashboard: status in plain words with the next step, expiration, checklist, unread count and news. */
export type Dashboard = {
  profileStatus: number;
  status: { word: StatusWord; nextStep: NextStep };
  /** When the verification now waiting for support was submitted (ISO); null when none waits. */
  verificationWaitingSince: string | null;
  expirationDate: string | null;
  holidayUntil: string | null;
  checklist: ChecklistItem[];
  /** Every required item is done: the advert is (or can be) live. */
  canGoLive: boolean;
  /** Fields waiting for support's approval. */
  pendingFields: string[];
  unreadNotifications: number;
  /** News for advertisers in the account's language: pinned first, then newest. */
  news: NewsItem[];
};

// basic/ and personal/ -------------------------------------------------------------------------------

export type BasicInformation = {
  name: string;
  title: string;
  introduction: string;
  description: string;
  phone: string | null;
  hasWhatsapp: boolean;
  website: string | null;
  regionId: number | null;
  cityId: number | null;
};

/** GET/POST basicinformation: the approved values, and the values waiting for support's approval. */
export type BasicInformationAnswer = {
  /** Whether support has approved the advert (edits of an approved advert wait for approval). */
  approved: boolean;
  current: BasicInformation;
  pending: Partial<BasicInformation>;
  /** Moderated field names: name, title, …, location (regionId and cityId). */
  pendingFields: string[];
};

export type PersonalDetails = {
  age: number | null;
  height: number | null;
  weight: number | null;
  /** 1 Natural, 2 Silicone. */
  breastType: number | null;
  nationalityId: number | null;
  languageIds: number[];
};

export type ReferenceOption = { id: number; code: string; nameDa: string; nameEn: string };

/** GET/POST personaldetails, with the choices for the screen's selects. */
export type PersonalDetailsAnswer = {
  approved: boolean;
  current: PersonalDetails;
  pending: Partial<PersonalDetails>;
  pendingFields: string[];
  options: { nationalities: ReferenceOption[]; languages: ReferenceOption[] };
};

// reviews/ -------------------------------------------------------------------------------------------

/** A review as its advertiser sees it (the reviewer's phone stays private). */
export type ProfileReview = {
  id: number;
  authorName: string;
  rating: number;
  text: string;
  /** 0 Pending, 1 Approved, 2 Hidden, 3 Rejected. */
  status: number;
  reply: string | null;
  replyAt: string | null;
  removalRequested: boolean;
  createdAt: string;
};
