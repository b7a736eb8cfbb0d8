/**
 * The account's notifications in the app's language, each marked read or unread (updatenotification). A
 * notification with a link (decisions of support, appeals) links to it; a link to the dashboard itself goes
 * to the decisions section (./Decisions.tsx).
 */
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import type { TFunction } from 'i18next';
import { isApiError } from '#lib/api/errors.ts';
import { formatDateTime } from '#lib/format.ts';
import { $locale } from '#lib/stores/locale.ts';
import { FormNotice } from '../../../components/form/Field.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { backendRouter } from '../routes.ts';
import { DECISIONS_ANCHOR } from './Decisions.tsx';
import { dashboardApi, type Notifications } from './api.ts';

export function NotificationList({ t }: { t: TFunction }) {
  const locale = useStore($locale);
  const [data, setData] = useState<Notifications | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    dashboardApi.notifications(locale, controller.signal).then(setData, (failure: unknown) => {
      if (controller.signal.aborted) return;
      if (isApiError(failure, 401)) goToLogin();
      else setError(t('common:errors.generic'));
    });
    return () => controller.abort();
  }, [locale, t]);

  async function mark(id: number, read: boolean) {
    setError(null);
    try {
      const updated = await dashboardApi.updateNotification(id, read);
      setData((current) => {
        if (!current) return current;
        const items = current.items.map((item) => (item.id === id ? { ...item, read: updated.read, status: updated.status } : item));
        return { items, unread: items.filter((item) => !item.read).length };
      });
    } catch (failure) {
      if (isApiError(failure, 401)) return goToLogin();
      setError(t('common:errors.generic'));
    }
  }

  return (
    <section aria-labelledby="dashboard-notifications-title">
      <h2 id="dashboard-notifications-title" className="text-lg font-semibold text-ink">
        {t('dashboard.notificationsTitle')}
        {data && data.unread > 0 ? <span className="ml-2 text-base font-normal text-slate-700">({t('dashboard.unreadCount', { n: data.unread })})</span> : null}
      </h2>
      <FormNotice message={error} />
      {!data ? null : data.items.length === 0 ? (
        <p className="mt-2 text-slate-700">{t('dashboard.noNotifications')}</p>
      ) : (
        <ul className="mt-3 space-y-3">
          {data.items.map((item) => (
            <li
              key={item.id}
              data-read={item.read ? 'true' : 'false'}
              className={`rounded-xl border p-4 ${item.read ? 'border-slate-200 bg-white' : 'border-brand-100 bg-brand-50'}`}
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h3 className="font-semibold text-ink">
                  {item.read ? null : <span className="mr-2 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">{t('dashboard.unread')}</span>}
                  {item.title}
                </h3>
                <button type="button" onClick={() => void mark(item.id, !item.read)} className="text-sm font-semibold text-brand-700 underline">
                  {item.read ? t('dashboard.markUnread') : t('dashboard.markRead')}
                  <span className="sr-only">: {item.title}</span>
                </button>
              </div>
              <p className="text-sm text-slate-600">{formatDateTime(item.createdAt)}</p>
              <p className="mt-1 whitespace-pre-line text-slate-800">{item.body}</p>
              {item.link ? <NotificationLink t={t} link={item.link} title={item.title} /> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const DASHBOARD_PATHS = ['/backend', '/backend/', '/backend/dashboard', '/backend/dashboard/'];

/** What a notification's link says: the receipt, the package, the verification, or a decision (the dashboard and the rest). */
function linkLabelOf(link: string): string {
  if (link.startsWith('/backend/purchase-history/') || link.startsWith('/backend/promotion/receipt/')) return 'dashboard.notificationLinks.receipt';
  if (link.startsWith('/backend/advert-package/')) return 'dashboard.notificationLinks.package';
  if (link.startsWith('/backend/verification/')) return 'dashboard.notificationLinks.verification';
  return 'dashboard.notificationLink';
}

/** A notification's link: to the decisions section when it points at the dashboard, else to its screen. */
function NotificationLink({ t, link, title }: { t: TFunction; link: string; title: string }) {
  const className = 'mt-2 inline-block text-sm font-semibold text-brand-700 underline';
  const label = (
    <>
      {t(linkLabelOf(link))}
      <span className="sr-only">: {title}</span>
    </>
  );
  if (DASHBOARD_PATHS.includes(link)) {
    return (
      <a
        href={`#${DECISIONS_ANCHOR}`}
        className={className}
        onClick={(event) => {
          const target = document.getElementById(DECISIONS_ANCHOR);
          if (!target) return;
          event.preventDefault();
          target.scrollIntoView();
          target.focus();
        }}
      >
        {label}
      </a>
    );
  }
  if (!link.startsWith('/backend/')) return null;
  return (
    <AppLink router={backendRouter} href={link} className={className}>
      {label}
    </AppLink>
  );
}
