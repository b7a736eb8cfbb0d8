import * as v from 'valibot';
import { wholeNumber } from './query-values.ts';

/**
 * Reports (notice and action), statements of reasons and appeals (issue 6): the codes the server stores
 * and the screens translate, the inputs of the calls, and the shapes of their answers.
 */

/** The terms' rules a moderation decision rests on (support picks one; the advertiser is told which). */
export const TERMS_RULES = [
  'terms.minors',
  'terms.trafficking',
  'terms.consent',
  'terms.identity',
  'terms.content',
  'terms.spam',
  'terms.other',
] as const;
export type TermsRule = (typeof TERMS_RULES)[number];

/** What a statement of reasons is about: every decision that removes, hides, locks or declines something. */
export const STATEMENT_DECISIONS = [
  'advert.locked',
  'picture.declined',
  'picture.removed',
  'video.declined',
  'video.removed',
  'report.content_removed',
  'verification.declined',
  'verification.rejected',
] as const;
export type StatementDecision = (typeof STATEMENT_DECISIONS)[number];

/** Support's decision on a report: nothing to do, or lock the reported advert. */
export const REPORT_DECISIONS = ['no-action', 'lock-advert'] as const;
export type ReportDecision = (typeof REPORT_DECISIONS)[number];

/** Report status: 0 New, 1 In progress, 2 Action taken, 3 Dismissed. */
export const REPORT_STATUS = { New: 0, InProgress: 1, ActionTaken: 2, Dismissed: 3 } as const;

/** Support's decision on an appeal: the decision stands, or it is undone. */
export const APPEAL_DECISIONS = ['upheld', 'reversed'] as const;
export type AppealDecision = (typeof APPEAL_DECISIONS)[number];

/** An advertiser's appeal: 10 to 4000 characters. */
export const APPEAL_MIN_LENGTH = 10;
export const APPEAL_MAX_LENGTH = 4000;

/** A whole number given as a number or as digits in a string (query parameters are strings). */

const skip = v.optional(v.pipe(wholeNumber('number'), v.minValue(0, 'range')), 0);
const take = v.optional(v.pipe(wholeNumber('number'), v.minValue(1, 'range'), v.maxValue(200, 'range')), 50);
const reason = (max: number) => v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(max, 'tooLong'));

/** One report, statement or appeal by id. */
export const ModerationIdSchema = v.object({ Id: wholeNumber('required') }, 'required');

/** contentreports: open (New or In progress, the default), decided, or all; paged. */
export const ContentReportsQuerySchema = v.object({
  Skip: skip,
  Take: take,
  Status: v.optional(v.picklist(['open', 'decided', 'all'], 'invalid'), 'open'),
});
export type ContentReportsQueryInput = v.InferOutput<typeof ContentReportsQuerySchema>;

/** decidecontentreport: the decision, its reason (told to the advertiser when action is taken), and the rule when locking. */
export const DecideContentReportSchema = v.pipe(
  v.object({
    Id: wholeNumber('required'),
    Decision: v.picklist(REPORT_DECISIONS, 'required'),
    Reason: reason(2000),
    Rule: v.optional(v.union([v.literal(''), v.picklist(TERMS_RULES, 'invalid')], 'invalid'), ''),
  }, 'required'),
  // Checked even when other fields fail, so that every missing field is named at once.
  v.forward(
    v.partialCheck([['Decision'], ['Rule']], (input) => input.Decision !== 'lock-advert' || input.Rule !== '', 'required'),
    ['Rule'],
  ),
);
export type DecideContentReportInput = v.InferOutput<typeof DecideContentReportSchema>;

/** appealstatement (backend): the advertiser's appeal against one statement of reasons. */
export const AppealStatementSchema = v.object({
  Id: wholeNumber('required'),
  Text: v.pipe(
    v.string('required'),
    v.trim(),
    v.nonEmpty('required'),
    v.minLength(APPEAL_MIN_LENGTH, 'tooShort'),
    v.maxLength(APPEAL_MAX_LENGTH, 'tooLong'),
  ),
}, 'required');
export type AppealStatementInput = v.InferOutput<typeof AppealStatementSchema>;

/** appeals: the queue of open appeals (the default) or the decided ones; paged. */
export const AppealsQuerySchema = v.object({
  Skip: skip,
  Take: take,
  Status: v.optional(v.picklist(['open', 'decided'], 'invalid'), 'open'),
});
export type AppealsQueryInput = v.InferOutput<typeof AppealsQuerySchema>;

/** decideappeal: upheld or reversed, with the reason the advertiser is told. */
export const DecideAppealSchema = v.object({
  Id: wholeNumber('required'),
  Decision: v.picklist(APPEAL_DECISIONS, 'required'),
  Reason: reason(2000),
}, 'required');
export type DecideAppealInput = v.InferOutput<typeof DecideAppealSchema>;

// ---- Answers ----------------------------------------------------------------------------------

/** A support user as a decision names them. */
export type DecidedBy = { id: number; name: string } | null;

/** One report in support's list (contentreports). `advertUrl`: the public page, null when the advert is not public. */
export type ContentReportItem = {
  id: number;
  advertId: number | null;
  advertName: string | null;
  advertUrl: string | null;
  reason: string;
  /** 0 Normal, 1 High, 2 Urgent (suspected minors, trafficking). */
  priority: number;
  /** 0 New, 1 In progress, 2 Action taken, 3 Dismissed. */
  status: number;
  reporterName: string | null;
  reporterEmail: string | null;
  createdAt: string;
  decidedAt: string | null;
};

/** One report with everything support decides on (contentreport, decidecontentreport). */
export type ContentReportDetail = ContentReportItem & {
  details: string | null;
  /** The address the reporter gave. */
  url: string | null;
  goodFaith: boolean;
  decision: ReportDecision | null;
  decisionReason: string | null;
  rule: TermsRule | null;
  decidedBy: DecidedBy;
  /** Time to decision in whole minutes; null until decided. */
  minutesToDecision: number | null;
  advert: { id: number; name: string; status: number; url: string | null } | null;
  /** Other reports (open or decided) about the same advert. */
  otherReports: number;
};

/** The advertiser's view of an appeal. */
export type StatementAppeal = {
  text: string;
  appealedAt: string;
  decision: AppealDecision | null;
  decidedAt: string | null;
  reason: string | null;
};

/** One statement of reasons as the advertiser sees it (statementsofreasons). */
export type StatementOfReasons = {
  id: number;
  decision: StatementDecision;
  what: string;
  reason: string;
  rule: TermsRule | null;
  createdAt: string;
  appeal: StatementAppeal | null;
};

/** One appeal in support's queue (appeals); `id` is the statement's. */
export type AppealItem = {
  id: number;
  advertId: number | null;
  advertName: string | null;
  decision: StatementDecision;
  reason: string;
  rule: TermsRule | null;
  /** Who made the original decision (they may not decide the appeal). */
  decidedBy: DecidedBy;
  appealText: string;
  appealedAt: string;
  appealDecision: AppealDecision | null;
  /** Why the appeal was decided so (told to the advertiser); null while open. */
  appealReason: string | null;
  /** Who decided the appeal; null while open. */
  appealDecidedBy: DecidedBy;
  appealDecidedAt: string | null;
};

/** One queue on support's dashboard: how many items wait, and since when the oldest has waited. */
export type PendingCount = { count: number; oldest: string | null };

/** GET /api/support/pendingcounts: the support dashboard's queues. */
export type PendingCounts = {
  /** Adverts with status New, not deleted (review/). */
  newAdverts: PendingCount;
  /** Verifications waiting for a decision (validation/). */
  verifications: PendingCount;
  /** Approved adverts with changes awaiting the field-by-field review (review-adverts/). */
  pendingChanges: PendingCount;
  /** Pictures, and videos that finished converting, awaiting approval (review/). */
  pendingMedia: PendingCount;
  /** Reports not yet decided (content-reports/); `urgent`: suspected minors or trafficking among them. */
  reports: PendingCount & { urgent: number };
  /** Visitors' reviews awaiting approval, and reviews the advertiser asked to remove (pending-reviews/). */
  pendingReviews: PendingCount;
  /** Advertisers' appeals against statements of reasons not yet decided; `oldest`: the oldest appeal. */
  appeals: PendingCount;
};
