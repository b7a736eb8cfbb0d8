import { eq } from 'drizzle-orm';
import type { StatementDecision, TermsRule } from '#lib/schemas/moderation.ts';
import { accounts, notifications, statementsOfReasons } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { advertiserNoticeMessage, asLocale, getSite } from '../accounts/account-messages.ts';
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
  const [row] = await ctx.db.insert(notifications).values({
    accountId,
    titleDa: text.titleDa,
    titleEn: text.titleEn,
    bodyDa: text.bodyDa,
    bodyEn: text.bodyEn,
    link: text.link,
    createdAt: ctx.now(),
  }).returning({ id: notifications.id });
  const notice = { id: row!.id };
  const account = await findAccountAddress(ctx.db, accountId);
  if (!account) return notice;
  const locale = asLocale(account.locale);
  const words = locale === 'en' ? { title: email.titleEn, body: email.bodyEn } : { title: email.titleDa, body: email.bodyDa };
  await deps.messaging.sendEmail(advertiserNoticeMessage(await getSite(ctx.db), locale, account.email, words));
  return notice;
}

async function findAccountAddress(db: Db, accountId: number): Promise<{ email: string; locale: string } | null> {
  const [row] = await db
    .select({ email: accounts.email, locale: accounts.locale, deletedAt: accounts.deletedAt })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row && row.deletedAt === null ? row : null;
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
      createdBy,
      createdAt: ctx.now(),
    })
    .returning({ id: statementsOfReasons.id });
  const id = row!.id;
  await writeAudit(ctx, {
    action: 'statement.issue',
    targetType: 'statement',
    targetId: id,
    after: { decision: input.decision, advertId: input.advertId, accountId: input.accountId, targetId: input.targetId ?? null, rule: input.rule },
    reason: input.reason,
  });
  const words = { decision: input.decision, reason: input.reason, rule: input.rule };
  await noticeToAdvertiser(ctx, input.accountId, statementText({ ...words, what: input.what }), deps, statementText({ ...words, what: '' }));
  return { id };
}
