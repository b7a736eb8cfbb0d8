import { sql } from 'drizzle-orm';
import type { StatementDecision, TermsRule } from '#lib/schemas/moderation.ts';
import { accounts, notifications, statementsOfReasons } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { advertiserNoticeMessage, asLocale, SITE_JSON, siteOf } from '../accounts/account-messages.ts';
import { statementText, type NoticeText } from './moderation-texts.ts';

export type StatementInput = {
  advertId: number | null;
  accountId: number;
  decision: StatementDecision;
  /** The content concerned, as the advertiser knows it (the advert's name). */
  what: string;
  reason: string;
  rule: TermsRule | null;
  /** The picture or video decided on (media decisions). */
  targetId?: number | null;
  /** The report (notice) the decision answers; none for a decision on support's own initiative (issue 18). */
  reportId?: number | null;
};

/**
 * Tells an advertiser something in their backend (a notification in Danish and English) and by email in
 * their language. `email` words the email; it defaults to the notification's text. Answers the notification's id.
 */
export async function noticeToAdvertiser(
  ctx: DomainContext,
  accountId: number,
  text: NoticeText,
  deps: { messaging: Messaging },
  email: NoticeText = text,
): Promise<{ id: number }> {
  // The account's address and the site's come back with the new row (one statement); a deleted account gets no email.
  const [row] = await ctx.db
    .insert(notifications)
    .values({
      accountId,
      titleDa: text.titleDa,
      titleEn: text.titleEn,
      bodyDa: text.bodyDa,
      bodyEn: text.bodyEn,
      link: text.link,
      createdAt: ctx.now(),
    })
    .returning({
      id: notifications.id,
      email: sql<string | null>`(select ${accounts.email} from ${accounts} where ${accounts.id} = ${accountId} and ${accounts.deletedAt} is null)`,
      locale: sql<string | null>`(select ${accounts.locale} from ${accounts} where ${accounts.id} = ${accountId})`,
      site: SITE_JSON,
    });
  const notice = { id: row!.id };
  if (!row!.email) return notice;
  const locale = asLocale(row!.locale);
  const words = locale === 'en' ? { title: email.titleEn, body: email.bodyEn } : { title: email.titleDa, body: email.bodyDa };
  await deps.messaging.sendEmail(advertiserNoticeMessage(siteOf(row!.site), locale, row!.email, words));
  return notice;
}

/**
 * Every decision that removes, hides, locks or declines something of an advertiser's (DSA statement of
 * reasons): stores what was decided, why and under which rule (with the support user who decided),
 * tells the advertiser in the backend (Danish and English) and by email in their language, including that
 * they can appeal once from their dashboard, and audits it. The email leaves out the advert's name.
 */
export async function issueStatementOfReasons(
  ctx: DomainContext,
  input: StatementInput,
  deps: { messaging: Messaging },
): Promise<{ id: number }> {
  const createdBy = ctx.actor.type === 'support' ? ctx.actor.supportUserId : null;
  const [row] = await ctx.db
    .insert(statementsOfReasons)
    .values({
      advertId: input.advertId,
      accountId: input.accountId,
      decision: input.decision,
      what: input.what,
      targetId: input.targetId ?? null,
      reason: input.reason,
      rule: input.rule,
      reportId: input.reportId ?? null,
      createdBy,
      createdAt: ctx.now(),
    })
    .returning({ id: statementsOfReasons.id });
  const id = row!.id;
  await writeAudit(ctx, {
    action: 'statement.issue',
    targetType: 'statement',
    targetId: id,
    after: {
      decision: input.decision,
      advertId: input.advertId,
      accountId: input.accountId,
      targetId: input.targetId ?? null,
      rule: input.rule,
      reportId: input.reportId ?? null,
    },
    reason: input.reason,
  });
  const words = { decision: input.decision, reason: input.reason, rule: input.rule };
  await noticeToAdvertiser(ctx, input.accountId, statementText({ ...words, what: input.what }), deps, statementText({ ...words, what: '' }));
  return { id };
}
