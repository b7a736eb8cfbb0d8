/**
 * /backend/dashboard/: the advert's status in plain words with what to do next, its expiration date, the
 * checklist of what is missing before it can go live (price list and schedule may be skipped), support's
 * decisions about the advert with the appeal (./Decisions.tsx), the notifications (read/unread), news for advertisers and the last promotions. Handles the `orderId`,
 * `sessionId` and `ageVerify` query parameters (spec §4) with a message (./QueryMessages.tsx).
 */
import { useCallback, useState } from 'react';
import type { TFunction } from 'i18next';
import { isApiError } from '#lib/api/errors.ts';
import { formatDate } from '#lib/format.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { FormNotice } from '../../../components/form/Field.tsx';
import { backendI18n } from '../i18n.ts';
import { backendPath, backendRouter, type BackendRoute } from '../routes.ts';
import type { BackendScreenProps } from '../screen-props.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import { dashboardApi, type ChecklistItem, type ChecklistKey, type Dashboard, type NextStep, type Promotion } from './api.ts';
import { NotificationList } from './NotificationList.tsx';
import { NewsList } from './NewsList.tsx';
import { Decisions } from './Decisions.tsx';
import { QueryMessages } from './QueryMessages.tsx';

type Loaded = { dashboard: Dashboard; promotions: Promotion[]; skipped: string[] };

export default function DashboardScreen({ reloadProfile }: BackendScreenProps) {
  const t = useAppT(backendI18n);
  const { state, reload } = useScreenData<Loaded>((signal) =>
    Promise.all([dashboardApi.dashboard(signal), dashboardApi.lastPromotions(signal), dashboardApi.skipItems(signal)]).then(
      ([dashboard, promotions, skip]) => ({ dashboard, promotions, skipped: skip.items }),
    ),
  );

  const onPaid = useCallback(() => {
    reload();
    reloadProfile();
  }, [reload, reloadProfile]);

  return (
    <div className="max-w-4xl">
      <ScreenShell
        id="dashboard-screen-heading"
        title={t('screens.dashboard')}
        aside={<QueryMessages t={t} onPaid={onPaid} />}
        state={state}
        loadError={t('dashboard.loadError')}
        onRetry={reload}
      >
        {(loaded) => (
          <div className="mt-6 space-y-8">
            <StatusCard dashboard={loaded.dashboard} t={t} />
            <Decisions t={t} />
            <Checklist items={loaded.dashboard.checklist} skipped={loaded.skipped} t={t} onChanged={reload} />
            <NotificationList t={t} />
            <NewsList news={loaded.dashboard.news} t={t} />
            <Promotions promotions={loaded.promotions} t={t} />
          </div>
        )}
      </ScreenShell>
    </div>
  );
}

/** Where the next step is done. */
const STEP_ROUTES: Partial<Record<NextStep | 'waitForChanges', BackendRoute>> = {
  verifyAge: 'verification',
  waitForVerification: 'verification',
  buyPackage: 'buyAdvertPackage',
  endHoliday: 'closeAdvert',
  reactivate: 'closeAdvert',
  waitForChanges: 'basic',
};

const ITEM_ROUTES: Partial<Record<ChecklistKey, BackendRoute>> = {
  emailVerified: 'basic',
  phoneVerified: 'basic',
  pictures: 'pictures',
  priceList: 'priceList',
  schedule: 'schedule',
  identityVerification: 'verification',
  package: 'buyAdvertPackage',
};

function StatusCard({ dashboard, t }: { dashboard: Dashboard; t: TFunction }) {
  const { word: shownWord, nextStep: step } = dashboard.status;
  const route = STEP_ROUTES[step];
  return (
    <section aria-labelledby="dashboard-status-title" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="dashboard-status-title" className="text-lg font-semibold text-ink">
        {t('dashboard.statusTitle')}
      </h2>
      <p className="mt-2 text-2xl font-bold text-ink" data-status={shownWord}>
        {t(`dashboard.status.${shownWord}`)}
      </p>
      <p className="mt-2 text-slate-800" data-next-step={step}>
        {t(`dashboard.next.${step}`, { date: dashboard.verificationWaitingSince ? formatDate(dashboard.verificationWaitingSince) : '' })}
      </p>
      {route ? (
        <p className="mt-3">
          <AppLink router={backendRouter} href={backendPath(route)} className="font-semibold text-brand-700 underline">
            {t(`dashboard.nextLink.${step}`)}
          </AppLink>
        </p>
      ) : null}
      <dl className="mt-4 grid gap-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-semibold text-ink">{t('dashboard.expiration')}</dt>
          <dd className="text-slate-800">{dashboard.expirationDate ? formatDate(dashboard.expirationDate) : t('dashboard.noPackage')}</dd>
        </div>
        {dashboard.holidayUntil ? (
          <div>
            <dt className="font-semibold text-ink">{t('dashboard.holidayUntil')}</dt>
            <dd className="text-slate-800">{formatDate(dashboard.holidayUntil)}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

function Checklist({ items, skipped, t, onChanged }: { items: ChecklistItem[]; skipped: string[]; t: TFunction; onChanged: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const open = items.filter((item) => !item.done);

  async function setSkipped(key: string, skip: boolean) {
    setError(null);
    const next = skip ? [...new Set([...skipped, key])] : skipped.filter((k) => k !== key);
    try {
      await dashboardApi.updateSkipItems(next);
      onChanged();
    } catch (failure) {
      if (isApiError(failure, 401)) return goToLogin();
      setError(t('common:errors.generic'));
    }
  }

  return (
    <section aria-labelledby="dashboard-checklist-title">
      <h2 id="dashboard-checklist-title" className="text-lg font-semibold text-ink">
        {t('dashboard.checklistTitle')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{open.length === 0 ? t('dashboard.checklistDone') : t('dashboard.checklistIntro')}</p>
      <FormNotice message={error} />
      <ul className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
        {items.map((item) => {
          const route = ITEM_ROUTES[item.key];
          const state = item.done ? 'done' : item.skipped ? 'skipped' : item.waitingSince ? 'waiting' : 'missing';
          const label = t(`dashboard.items.${item.key}`);
          return (
            <li key={item.key} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3" data-item={item.key} data-state={state}>
              <span className="flex items-center gap-3">
                <span
                  className={`inline-flex min-w-24 justify-center rounded-full px-2 py-0.5 text-xs font-semibold ${
                    state === 'done'
                      ? 'bg-emerald-100 text-emerald-900'
                      : state === 'skipped'
                        ? 'bg-slate-100 text-slate-800'
                        : state === 'waiting'
                          ? 'bg-sky-100 text-sky-900'
                          : 'bg-amber-100 text-amber-900'
                  }`}
                >
                  {t(`dashboard.itemState.${state}`)}
                </span>
                {route && !item.done ? (
                  <AppLink router={backendRouter} href={backendPath(route)} className="text-brand-700 underline">
                    {label}
                  </AppLink>
                ) : (
                  <span className="text-slate-900">{label}</span>
                )}
                {!item.required ? <span className="text-xs text-slate-600">({t('form.optional')})</span> : null}
                {item.waitingSince ? (
                  <span className="text-xs text-slate-700" data-waiting-since>
                    {t('dashboard.waitingSince', { date: formatDate(item.waitingSince) })}
                  </span>
                ) : null}
              </span>
              {item.skippable && !item.done ? (
                <button
                  type="button"
                  onClick={() => void setSkipped(item.key, !item.skipped)}
                  className="text-sm font-semibold text-brand-700 underline"
                  aria-label={item.skipped ? t('dashboard.unskipItem', { item: label }) : t('dashboard.skipItem', { item: label })}
                >
                  {item.skipped ? t('dashboard.unskip') : t('dashboard.skip')}
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Promotions({ promotions, t }: { promotions: Promotion[]; t: TFunction }) {
  return (
    <section aria-labelledby="dashboard-promotions-title">
      <h2 id="dashboard-promotions-title" className="text-lg font-semibold text-ink">
        {t('dashboard.promotionsTitle')}
      </h2>
      {promotions.length === 0 ? (
        <p className="mt-2 text-slate-700">{t('dashboard.noPromotions')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {promotions.map((promotion) => (
            <li key={`${promotion.id}-${promotion.orderId}`} data-promotion={promotion.type} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
              <span className="font-semibold text-ink">{t(`dashboard.promotionType.${promotion.type}`, { defaultValue: t('dashboard.promotionType.other') })}</span>
              <span className="text-sm text-slate-800" {...(promotion.waiting ? { 'data-promotion-waiting': '' } : {})}>
                {promotion.startsAt && promotion.endsAt
                  ? t('dashboard.period', { from: formatDate(promotion.startsAt), to: formatDate(promotion.endsAt) })
                  : t('dashboard.promotionWaiting')}
              </span>
              {promotion.active ? (
                <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">{t('dashboard.promotionActive')}</span>
              ) : null}
              {promotion.orderId ? (
                <AppLink router={backendRouter} href={`${backendPath('promotionReceipt')}${promotion.orderId}/`} className="text-sm font-semibold text-brand-700 underline">
                  {t('commerce.seeReceipt')}
                </AppLink>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
