/**
 * /support/content-reports/ (Support): the reports from the public profiles (GET contentreports). Open ones
 * by default, urgent first (suspected minors and trafficking, flagged in red with words), then oldest;
 * `?status=decided` or `all` shows the decided ones too. Pages of PAGE_SIZE (`?skip=`); filter and page are
 * in the address so back and reload keep them.
 */
import type { TFunction } from 'i18next';
import { supportApi, type Paged } from '#lib/api/support.ts';
import { formatDateTime } from '#lib/format.ts';
import type { ContentReportItem, ContentReportsQueryInput } from '#lib/schemas/moderation.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { smallButton } from '../../shared/form-text.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';
import { supportPath, supportRouter } from '../routes.ts';
import { Paging } from '../paging.tsx';
import type { SupportScreenProps } from '../screen-props.ts';
import { ScreenShell } from '../screen-data.tsx';
import { PriorityFlag, reasonText, reporterText } from './report-words.tsx';
import { skipOf } from '../../shared/paging.tsx';

export const PAGE_SIZE = 50;

type Status = ContentReportsQueryInput['Status'];
const STATUSES: readonly Status[] = ['open', 'decided', 'all'];

/** The list's address for a filter and a first row. */
export function contentReportsHref(status: Status, skip: number): string {
  const query = new URLSearchParams();
  if (status !== 'open') query.set('status', status);
  if (skip > 0) query.set('skip', String(skip));
  const search = query.toString();
  return `${supportPath('contentReports')}${search ? `?${search}` : ''}`;
}

export default function ContentReportsScreen({ search }: SupportScreenProps) {
  const status = (STATUSES as readonly string[]).includes(search['status'] ?? '') ? (search['status'] as Status) : 'open';
  const skip = skipOf(search);
  return <ReportsList key={`${status}\n${skip}`} status={status} skip={skip} />;
}

function ReportsList({ status, skip }: { status: Status; skip: number }) {
  const t = useAppT(supportI18n);
  const { state, reload } = useScreenData((signal) => supportApi.contentReports({ Status: status, Skip: skip, Take: PAGE_SIZE }, signal));
  return (
    <ScreenShell
      id="content-reports-heading"
      title={t('screens.contentReports')}
      intro={t('contentReports.intro')}
      aside={<Filter t={t} status={status} />}
      state={state}
      loadError={t('contentReports.loadError')}
      onRetry={reload}
    >
      {(list) => <ReportsTable t={t} list={list} status={status} skip={skip} />}
    </ScreenShell>
  );
}

function Filter({ t, status }: { t: TFunction; status: Status }) {
  return (
    <nav aria-label={t('contentReports.filter')} className="mt-4">
      <ul className="flex flex-wrap gap-2">
        {STATUSES.map((value) => (
          <li key={value}>
            <AppLink
              router={supportRouter}
              href={contentReportsHref(value, 0)}
              aria-current={value === status ? 'page' : undefined}
              className={`${smallButton} ${value === status ? 'border-brand-700 bg-brand-50 font-semibold' : ''}`}
            >
              {t(`contentReports.status.${value}`)}
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function ReportsTable({ t, list, status, skip }: { t: TFunction; list: Paged<ContentReportItem>; status: Status; skip: number }) {
  if (list.items.length === 0) return <p className="mt-6 text-slate-700">{t(`contentReports.empty.${status}`)}</p>;
  return (
    <>
      <div className="mt-6 overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('contentReports.caption')}</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              {(['reason', 'advert', 'reporter', 'received', 'state'] as const).map((column) => (
                <th key={column} scope="col" className="px-3 py-2 font-semibold">
                  {t(`contentReports.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {list.items.map((report) => (
              <tr key={report.id} data-report={report.id} data-priority={report.priority} className={report.priority === 2 ? 'bg-red-50' : undefined}>
                <th scope="row" className={`px-3 py-2 font-medium ${report.priority === 2 ? 'border-l-4 border-red-700' : ''}`}>
                  <PriorityFlag t={t} priority={report.priority} />
                  <AppLink router={supportRouter} href={`${supportPath('contentReports')}${report.id}/`} className="text-brand-700 underline">
                    {reasonText(t, report.reason)}
                  </AppLink>
                </th>
                <td className="px-3 py-2 text-slate-800">
                  {report.advertName === null ? (
                    t('contentReports.noAdvert')
                  ) : report.advertUrl ? (
                    <a href={report.advertUrl} target="_blank" rel="noopener" className="text-brand-700 underline">
                      {report.advertName}
                      <span className="sr-only"> ({t('contentReports.opensPublicPage')})</span>
                    </a>
                  ) : (
                    report.advertName
                  )}
                </td>
                <td className="px-3 py-2 text-slate-800">{reporterText(t, report)}</td>
                <td className="whitespace-nowrap px-3 py-2 text-slate-800">{formatDateTime(report.createdAt)}</td>
                <td className="px-3 py-2 text-slate-800">{t(`moderation.reportStatus.${report.status}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Paging t={t} total={list.total} count={list.items.length} skip={skip} pageSize={PAGE_SIZE} href={(next) => contentReportsHref(status, next)} />
    </>
  );
}
