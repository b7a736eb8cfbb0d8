import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { SKIPPABLE_DASHBOARD_ITEMS, type SkippableDashboardItem } from '#lib/schemas/advert-edit.ts';
import {
  accounts,
  notifications,
  orders,
  pictures,
  priceListItems,
  promotions,
  scheduleEntries,
  type Account,
  type Advert,
  type Notification,
} from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { getOwnAdvert, requireAdvertiserAccountId, updateOwnAdvert } from './own-advert.ts';
import { newsForAdvertiser } from '../news/news.ts';
import { PROFILE_STATUS } from './statuses.ts';
import { waitingPackagesOf } from '../commerce/fulfilment.ts';
import { verificationWaitingSince } from '../verification/verification-records.ts';

import type { ChecklistItem, ChecklistKey, Dashboard, NewsItem, NextStep, StatusWord } from '#lib/schemas/backend-answers.ts';

export type { ChecklistItem, ChecklistKey, Dashboard, NewsItem, NextStep, StatusWord };

/** Items that are the support's or the shop's to complete, not the advertiser's. */
const AWAITED_ITEMS: readonly ChecklistKey[] = ['approval', 'package'];

/**
 * What is missing before the advert can go live, in the order to do it. Required items block
 * publication (the visibility rule needs approval, age/identity verification and a package; the
 * account needs verified email and phone; the advert needs a picture); price list and schedule are
 * recommended and may be skipped (hidden) by the advertiser.
 */
export function buildChecklist(
  facts: Record<ChecklistKey, boolean>,
  skipped: readonly string[],
  waiting: Partial<Record<ChecklistKey, Date>> = {},
): ChecklistItem[] {
  const order: ChecklistKey[] = ['emailVerified', 'phoneVerified', 'pictures', 'priceList', 'schedule', 'identityVerification', 'approval', 'package'];
  return order.map((key) => {
    const skippable = (SKIPPABLE_DASHBOARD_ITEMS as readonly string[]).includes(key);
    const since = facts[key] ? undefined : waiting[key];
    return { key, done: facts[key], required: !skippable, skippable, skipped: skippable && skipped.includes(key), waitingSince: since?.toISOString() ?? null };
  });
}

/** The status word and the next step for an advert (pure; `checklist` from buildChecklist). */
export function describeStatus(
  advert: Pick<Advert, 'status' | 'expirationDate' | 'holidayUntil' | 'approvedAt' | 'ageVerifiedAt' | 'pendingChanges'>,
  checklist: readonly ChecklistItem[],
  now: Date,
): { word: StatusWord; nextStep: NextStep } {
  const verificationWaits = checklist.some((item) => item.key === 'identityVerification' && item.waitingSince !== null);
  switch (advert.status) {
    case PROFILE_STATUS.Deleted:
      return { word: 'Deleted', nextStep: 'restore' };
    case PROFILE_STATUS.Locked:
      return { word: 'Locked', nextStep: 'contactSupport' };
    case PROFILE_STATUS.Deactivated:
      return { word: 'Deactivated', nextStep: 'reactivate' };
    case PROFILE_STATUS.New: {
      // What the advertiser still has to do: not what waits for support or the shop.
      const open = checklist.filter((item) => item.required && !item.done && item.waitingSince === null && !AWAITED_ITEMS.includes(item.key));
      if (open.length === 0) return { word: 'Pending', nextStep: verificationWaits ? 'waitForVerification' : 'waitForApproval' };
      return { word: 'New', nextStep: open.some((i) => i.key === 'identityVerification') && open.length === 1 ? 'verifyAge' : 'completeChecklist' };
    }
    default: {
      if (!advert.expirationDate || advert.expirationDate <= now) return { word: 'Expired', nextStep: 'buyPackage' };
      if (advert.holidayUntil && advert.holidayUntil > now) return { word: 'Holiday', nextStep: 'endHoliday' };
      if (!advert.ageVerifiedAt) return { word: 'Active', nextStep: verificationWaits ? 'waitForVerification' : 'verifyAge' };
      // Live, with changes waiting for support: the public still sees the approved values.
      if (advert.pendingChanges && Object.keys(advert.pendingChanges).length) return { word: 'Pending', nextStep: 'waitForChanges' };
      return { word: 'Active', nextStep: 'none' };
    }
  }
}

async function getAccount(ctx: DomainContext, accountId: number): Promise<Account> {
  const [account] = await ctx.db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw notFound('Account');
  return account;
}

async function checklistOf(ctx: DomainContext, advert: Advert, account: Account, now: Date): Promise<ChecklistItem[]> {
  const [[pictureCount], [priceCount], [scheduleCount], verificationSince] = await Promise.all([
    ctx.db.select({ n: count() }).from(pictures).where(and(eq(pictures.advertId, advert.id), isNull(pictures.deletedAt))),
    ctx.db.select({ n: count() }).from(priceListItems).where(eq(priceListItems.advertId, advert.id)),
    ctx.db.select({ n: count() }).from(scheduleEntries).where(eq(scheduleEntries.advertId, advert.id)),
    verificationWaitingSince(ctx.db, advert.id),
  ]);
  return buildChecklist(
    {
      emailVerified: account.emailVerifiedAt !== null,
      phoneVerified: account.phoneVerifiedAt !== null,
      pictures: (pictureCount?.n ?? 0) > 0,
      priceList: (priceCount?.n ?? 0) > 0,
      schedule: (scheduleCount?.n ?? 0) > 0,
      identityVerification: advert.ageVerifiedAt !== null,
      approval: advert.approvedAt !== null,
      package: advert.expirationDate !== null && advert.expirationDate > now,
    },
    advert.skippedDashboardItems,
    verificationSince ? { identityVerification: verificationSince } : {},
  );
}


/** dashboard: status in plain words with the next step, expiration, checklist, unread count and news. */
export async function getDashboard(ctx: DomainContext): Promise<Dashboard> {
  const accountId = requireAdvertiserAccountId(ctx);
  const [advert, account] = await Promise.all([getOwnAdvert(ctx), getAccount(ctx, accountId)]);
  const now = ctx.now();
  const [checklist, [unread], newsRows] = await Promise.all([
    checklistOf(ctx, advert, account, now),
    ctx.db.select({ n: count() }).from(notifications).where(and(eq(notifications.accountId, accountId), eq(notifications.status, 0))),
    newsForAdvertiser(ctx, accountId, account.locale, 5),
  ]);
  return {
    profileStatus: advert.status,
    status: describeStatus(advert, checklist, now),
    verificationWaitingSince: checklist.find((item) => item.key === 'identityVerification')?.waitingSince ?? null,
    expirationDate: advert.expirationDate?.toISOString() ?? null,
    holidayUntil: advert.holidayUntil && advert.holidayUntil > now ? advert.holidayUntil.toISOString() : null,
    checklist,
    canGoLive: checklist.every((item) => !item.required || item.done),
    pendingFields: Object.keys(advert.pendingChanges ?? {}),
    unreadNotifications: unread?.n ?? 0,
    news: newsRows,
  };
}

export type SkipItems = { items: SkippableDashboardItem[]; skippable: readonly SkippableDashboardItem[] };

/** skipdashboarditems: the checklist items the advertiser has hidden, and those that may be. */
export async function getSkipItems(ctx: DomainContext): Promise<SkipItems> {
  const advert = await getOwnAdvert(ctx);
  return {
    items: SKIPPABLE_DASHBOARD_ITEMS.filter((item) => advert.skippedDashboardItems.includes(item)),
    skippable: SKIPPABLE_DASHBOARD_ITEMS,
  };
}

/** updateskipitems: the whole set of hidden checklist items (only skippable ones are accepted). */
export async function updateSkipItems(ctx: DomainContext, items: SkippableDashboardItem[]): Promise<SkipItems> {
  const advert = await getOwnAdvert(ctx);
  await updateOwnAdvert(ctx, advert, { skippedDashboardItems: items });
  await writeAudit(ctx, {
    action: 'advert.dashboard.skip_items',
    targetType: 'advert',
    targetId: advert.id,
    before: advert.skippedDashboardItems,
    after: items,
  });
  return { items, skippable: SKIPPABLE_DASHBOARD_ITEMS };
}

export type NotificationView = { id: number; title: string; body: string; link: string | null; status: number; read: boolean; createdAt: string };

function notificationView(row: Notification, locale: string): NotificationView {
  const en = locale === 'en';
  return {
    id: row.id,
    title: en ? row.titleEn : row.titleDa,
    body: en ? row.bodyEn : row.bodyDa,
    link: row.link,
    status: row.status,
    read: row.status === 1,
    createdAt: row.createdAt.toISOString(),
  };
}

/** notifications: the account's last 50 messages in one language (default: the account's), with the unread count. */
export async function listNotifications(ctx: DomainContext, locale?: 'da' | 'en'): Promise<{ items: NotificationView[]; unread: number }> {
  const accountId = requireAdvertiserAccountId(ctx);
  const language = locale ?? (await getAccount(ctx, accountId)).locale;
  const rows = await ctx.db
    .select()
    .from(notifications)
    .where(eq(notifications.accountId, accountId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(50);
  const [unread] = await ctx.db.select({ n: count() }).from(notifications).where(and(eq(notifications.accountId, accountId), eq(notifications.status, 0)));
  return { items: rows.map((row) => notificationView(row, language)), unread: unread?.n ?? 0 };
}

/** updatenotification: marks one of the account's notifications read (1) or unread (0); others 404. */
export async function updateNotification(ctx: DomainContext, input: { Id: number; Status: number }): Promise<NotificationView> {
  const accountId = requireAdvertiserAccountId(ctx);
  const [before] = await ctx.db.select().from(notifications).where(and(eq(notifications.id, input.Id), eq(notifications.accountId, accountId)));
  if (!before) throw notFound('Notification');
  const [updated] = await ctx.db
    .update(notifications)
    .set({ status: input.Status })
    .where(and(eq(notifications.id, input.Id), eq(notifications.accountId, accountId)))
    .returning();
  await writeAudit(ctx, { action: 'notification.status', targetType: 'notification', targetId: input.Id, before: { status: before.status }, after: { status: input.Status } });
  const account = await getAccount(ctx, accountId);
  return notificationView(updated!, account.locale);
}

/** A promotion on the dashboard; a package paid before the advert was ever shown waits (no dates yet). */
export type PromotionView = { id: number; orderId: number | null; type: number; startsAt: string | null; endsAt: string | null; active: boolean; waiting: boolean };

/**
 * dashboardlastpromotions: the packages that wait for the advert's first approval (issue 29), then the
 * advert's last five promotions (1 Membership, 2 FrontpageBoost, 3 SearchBoost); may be empty.
 */
export async function listLastPromotions(ctx: DomainContext): Promise<PromotionView[]> {
  const advert = await getOwnAdvert(ctx);
  const now = ctx.now();
  const waiting = await ctx.db
    .select({ orderId: orders.id, type: orders.productType })
    .from(orders)
    .where(waitingPackagesOf(advert.id))
    .orderBy(desc(orders.id));
  const rows = await ctx.db
    .select()
    .from(promotions)
    .where(eq(promotions.advertId, advert.id))
    .orderBy(desc(promotions.startsAt), desc(promotions.id))
    .limit(5);
  return [
    ...waiting.map((order) => ({ id: 0, orderId: order.orderId, type: order.type, startsAt: null, endsAt: null, active: false, waiting: true })),
    ...rows.map((row) => ({
      id: row.id,
      orderId: row.orderId,
      type: row.type,
      startsAt: row.startsAt.toISOString(),
      endsAt: row.endsAt.toISOString(),
      active: row.startsAt <= now && row.endsAt > now,
      waiting: false,
    })),
  ];
}
