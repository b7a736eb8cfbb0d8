/**
 * News for advertisers (issue 17): Administration writes, changes and deletes them (audited, with before
 * and after); advertisers see the published ones of their language on the dashboard, pinned first, then
 * newest, with the unread ones marked, and opening one marks it read for that advertiser only.
 */
import { and, count, desc, eq, gt, ilike, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { NewsChangeInput, NewsLocale, NewsState, SupportNewsItem, SupportNewsQueryInput } from '#lib/schemas/news.ts';
import type { NewsItem } from '#lib/schemas/backend-answers.ts';
import { isoDayOf } from '#lib/format.ts';
import { renderMarkdown } from '#lib/markdown.ts';
import { news, newsReads, type News } from '../../db/schema.ts';
import { containing } from '../../db/like.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { writeAudit } from '../audit.ts';
import { requireAdvertiserAccountId } from '../adverts/own-advert.ts';
import { startOfCopenhagenDay } from '../commerce/copenhagen-days.ts';

/** The form's day (yyyy-MM-dd, Copenhagen) of an instant; none: empty. */
const dayOf = (at: Date | null): string => (at ? isoDayOf(at) : '');

function stateOf(row: Pick<News, 'publishedAt' | 'endsAt'>, now: Date): NewsState {
  if (!row.publishedAt) return 'draft';
  if (row.publishedAt > now) return 'scheduled';
  if (row.endsAt && row.endsAt <= now) return 'ended';
  return 'published';
}

function supportItemOf(row: News, now: Date): SupportNewsItem {
  return {
    id: row.id,
    locale: row.locale === 'en' ? 'en' : 'da',
    title: row.title,
    body: row.body,
    publishFrom: dayOf(row.publishedAt),
    endsOn: dayOf(row.endsAt),
    pinned: row.pinned,
    state: stateOf(row, now),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit records of a news item. */
const audited = (row: Pick<News, 'locale' | 'title' | 'body' | 'publishedAt' | 'endsAt' | 'pinned'>) => ({
  locale: row.locale,
  title: row.title,
  body: row.body,
  publishedAt: row.publishedAt?.toISOString() ?? null,
  endsAt: row.endsAt?.toISOString() ?? null,
  pinned: row.pinned,
});

/** news (GET, Administration): a page of news, newest first; Title matches words anywhere, LocaleId one language. */
export async function listSupportNews(ctx: DomainContext, query: SupportNewsQueryInput): Promise<{ total: number; items: SupportNewsItem[] }> {
  requirePermission(ctx.actor, 'news:manage:any');
  const filters: SQL[] = [];
  if (query.Title) filters.push(ilike(news.title, containing(query.Title)));
  if (query.LocaleId) filters.push(eq(news.locale, query.LocaleId));
  const where = filters.length > 0 ? and(...filters) : undefined;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(news)
      .where(where)
      .orderBy(sql`${news.publishedAt} desc nulls first`, desc(news.id))
      .offset(query.Skip)
      .limit(query.Take),
    ctx.db.select({ n: count() }).from(news).where(where),
  ]);
  const now = ctx.now();
  return { total: total?.n ?? 0, items: rows.map((row) => supportItemOf(row, now)) };
}

/** newsitem (GET, Administration): one news item. */
export async function getSupportNews(ctx: DomainContext, id: number): Promise<SupportNewsItem> {
  requirePermission(ctx.actor, 'news:manage:any');
  const [row] = await ctx.db.select().from(news).where(eq(news.id, id)).limit(1);
  if (!row) throw notFound('News');
  return supportItemOf(row, ctx.now());
}

/** news (POST, Administration): adds a news item (no Id) or changes one; audited with before and after. */
export async function saveNews(ctx: DomainContext, input: NewsChangeInput): Promise<SupportNewsItem> {
  requirePermission(ctx.actor, 'news:manage:any');
  const now = ctx.now();
  const values = {
    locale: input.LocaleId,
    title: input.Title,
    body: input.Body,
    publishedAt: input.PublishFrom ? startOfCopenhagenDay(input.PublishFrom) : null,
    endsAt: input.EndsOn ? startOfCopenhagenDay(input.EndsOn) : null,
    pinned: input.Pinned,
  };
  return ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    if (!input.Id) {
      const [created] = await tx.insert(news).values({ ...values, createdAt: now, updatedAt: now }).returning();
      await writeAudit(txCtx, { action: 'news.created', targetType: 'news', targetId: created!.id, after: audited(created!) });
      return supportItemOf(created!, now);
    }
    const [before] = await tx.select().from(news).where(eq(news.id, input.Id)).limit(1).for('update');
    if (!before) throw notFound('News');
    const [after] = await tx.update(news).set({ ...values, updatedAt: now }).where(eq(news.id, before.id)).returning();
    await writeAudit(txCtx, { action: 'news.changed', targetType: 'news', targetId: before.id, before: audited(before), after: audited(after!) });
    return supportItemOf(after!, now);
  });
}

/** news (DELETE, Administration): deletes a news item (and who read it); the audit keeps what it said. */
export async function deleteNews(ctx: DomainContext, id: number): Promise<void> {
  requirePermission(ctx.actor, 'news:manage:any');
  await ctx.db.transaction(async (tx) => {
    const [deleted] = await tx.delete(news).where(eq(news.id, id)).returning();
    if (!deleted) throw notFound('News');
    await writeAudit({ ...ctx, db: tx }, { action: 'news.deleted', targetType: 'news', targetId: id, before: audited(deleted) });
  });
}

/** The news an advertiser sees now: published in their language and not ended; pinned first, then newest. */
const shownTo = (locale: NewsLocale, now: Date) =>
  and(eq(news.locale, locale), isNotNull(news.publishedAt), lte(news.publishedAt, now), or(isNull(news.endsAt), gt(news.endsAt, now)));

/** The dashboard's news: the `limit` first the advertiser sees, each marked read or unread for them. */
export async function newsForAdvertiser(ctx: DomainContext, accountId: number, locale: string, limit: number): Promise<NewsItem[]> {
  const rows = await ctx.db
    .select({ id: news.id, title: news.title, body: news.body, publishedAt: news.publishedAt, pinned: news.pinned, readAt: newsReads.readAt })
    .from(news)
    .leftJoin(newsReads, and(eq(newsReads.newsId, news.id), eq(newsReads.accountId, accountId)))
    .where(shownTo(locale === 'en' ? 'en' : 'da', ctx.now()))
    .orderBy(desc(news.pinned), desc(news.publishedAt), desc(news.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    body: row.body,
    html: renderMarkdown(row.body),
    publishedAt: row.publishedAt!.toISOString(),
    pinned: row.pinned,
    read: row.readAt !== null,
  }));
}

/** readnews (POST, advertiser): marks a news item the advertiser can see as read (again: nothing changes). */
export async function markNewsRead(ctx: DomainContext, id: number): Promise<{ read: true }> {
  const accountId = requireAdvertiserAccountId(ctx);
  const [row] = await ctx.db.select({ id: news.id }).from(news).where(and(eq(news.id, id), isNotNull(news.publishedAt), lte(news.publishedAt, ctx.now()))).limit(1);
  if (!row) throw notFound('News');
  await ctx.db.insert(newsReads).values({ newsId: id, accountId, readAt: ctx.now() }).onConflictDoNothing();
  return { read: true };
}
