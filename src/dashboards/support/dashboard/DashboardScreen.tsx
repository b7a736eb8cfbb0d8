/**
 * /support/dashboard/ (Support): how many items wait in each moderation queue (GET pendingcounts) and how
 * old the oldest is, each card linking to its queue; reports say how many are urgent (suspected minors or
 * trafficking), flagged in red. When nothing waits the screen says so.
 */
import type { TFunction } from 'i18next';
import { supportApi } from '#lib/api/support.ts';
import type { PendingCount, PendingCounts } from '#lib/api/types.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter, type SupportRoute } from '../routes.ts';
import { ScreenShell } from '../screen-data.tsx';
import { relativeAge } from './relative-age.ts';

/** The queues in the order of the spec, each with the screen that works it. */
const QUEUES: readonly { key: keyof PendingCounts; route: SupportRoute }[] = [
  { key: 'newAdverts', route: 'review' },
  { key: 'verifications', route: 'validation' },
  { key: 'pendingChanges', route: 'reviewAdverts' },
  { key: 'pendingMedia', route: 'review' },
  { key: 'reports', route: 'contentReports' },
  { key: 'pendingReviews', route: 'pendingReviews' },
  { key: 'appeals', route: 'appeals' },
];

export function ageText(t: TFunction, oldest: string, now: Date): string {
  const age = relativeAge(oldest, now);
  return age.unit === 'justNow' ? t('dashboard.age.justNow') : t(`dashboard.age.${age.unit}`, { count: age.count });
}

export default function DashboardScreen() {
  const t = useAppT(supportI18n);
  const { state, reload } = useScreenData(supportApi.pendingCounts);
  return (
    <ScreenShell id="dashboard-heading" title={t('screens.dashboard')} intro={t('dashboard.intro')} state={state} loadError={t('dashboard.loadError')} onRetry={reload}>
      {(counts) => <Queues t={t} counts={counts} />}
    </ScreenShell>
  );
}

function Queues({ t, counts }: { t: TFunction; counts: PendingCounts }) {
  const now = new Date();
  const nothing = QUEUES.every(({ key }) => counts[key].count === 0);
  return (
    <>
      {nothing ? (
        <p role="status" className="mt-6 rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-900" data-dashboard-empty>
          {t('dashboard.empty')}
        </p>
      ) : null}
      <h2 className="sr-only">{t('dashboard.queues')}</h2>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {QUEUES.map(({ key, route }) => {
          const queue: PendingCount = counts[key];
          const urgent = key === 'reports' ? counts.reports.urgent : 0;
          return (
            <li key={key}>
              <AppLink
                router={supportRouter}
                href={supportPath(route)}
                data-queue={key}
                className={`flex h-full flex-col rounded-xl border bg-white p-5 shadow-sm hover:border-brand-700 ${urgent > 0 ? 'border-red-400' : 'border-slate-200'}`}
              >
                <span className="font-semibold text-ink">{t(`dashboard.${key}`)}</span>
                <span className="mt-2 text-3xl font-bold text-ink" data-count>
                  {queue.count}
                </span>
                {urgent > 0 ? (
                  <span className="mt-2 self-start rounded-md bg-red-700 px-2 py-0.5 text-sm font-semibold text-white" data-urgent>
                    {t('dashboard.urgent', { count: urgent })}
                  </span>
                ) : null}
                {queue.count > 0 && queue.oldest ? (
                  <span className="mt-2 text-sm text-slate-700">{t('dashboard.oldest', { age: ageText(t, queue.oldest, now) })}</span>
                ) : null}
              </AppLink>
            </li>
          );
        })}
      </ul>
    </>
  );
}
