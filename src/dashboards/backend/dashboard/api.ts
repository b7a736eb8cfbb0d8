/** The dashboard's calls: dashboard, notifications, news read, skipped checklist items, last promotions. */
import { backendApi } from '#lib/api/backend.ts';
import type { ChecklistItem, ChecklistKey, Dashboard, NewsItem, NextStep, StatusWord } from '#lib/schemas/backend-answers.ts';

export type { ChecklistItem, ChecklistKey, Dashboard, NewsItem, NextStep, StatusWord };

export type NotificationItem = { id: number; title: string; body: string; link: string | null; status: number; read: boolean; createdAt: string };
export type Notifications = { items: NotificationItem[]; unread: number };
/** type: 1 Membership (advert package), 2 FrontpageBoost, 3 SearchBoost. */
/** A promotion; `waiting`: a package paid before the advert was ever shown, which starts at its first approval. */
export type Promotion = { id: number; orderId: number | null; type: number; startsAt: string | null; endsAt: string | null; active: boolean; waiting: boolean };
export type SkipItems = { items: string[]; skippable: string[] };

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

export const dashboardApi = {
  dashboard: (signal?: AbortSignal) => backendApi.client.get<Dashboard>('dashboard', withSignal(signal)),
  notifications: (locale: string, signal?: AbortSignal) =>
    backendApi.client.get<Notifications>('notifications', { searchParams: { Locale: locale }, ...withSignal(signal) }),
  lastPromotions: (signal?: AbortSignal) => backendApi.client.get<Promotion[]>('dashboardlastpromotions', withSignal(signal)),
  skipItems: (signal?: AbortSignal) => backendApi.client.get<SkipItems>('skipdashboarditems', withSignal(signal)),
  updateSkipItems: (items: string[]) => backendApi.client.post<SkipItems>('updateskipitems', { json: { Items: items } }),
  /** readnews: a news item opened, read for this advertiser from now on. */
  readNews: (id: number) => backendApi.client.post<{ read: true }>('readnews', { json: { Id: id } }),
  updateNotification: (id: number, read: boolean) =>
    backendApi.client.post<NotificationItem>('updatenotification', { json: { Id: id, Status: read ? 1 : 0 } }),
};
