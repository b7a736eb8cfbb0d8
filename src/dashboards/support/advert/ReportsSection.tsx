/** Reports of adverts/{id}/reports/: every report about the advert, open or decided (GET advertreports), each linking to its item in content-reports/. */
import type { TFunction } from 'i18next';
import { supportAdvertsApi } from '#lib/api/support-adverts.ts';
import { formatDateTime } from '#lib/format.ts';
import type { AdvertProfile } from '#lib/schemas/support-adverts.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { supportPath, supportRouter } from '../routes.ts';
import { PriorityFlag, reasonText } from '../content-reports/report-words.tsx';
import { SectionData, Table, cell } from './advert-sections.tsx';

export function ReportsSection({ t, advert }: { t: TFunction; advert: AdvertProfile }) {
  return (
    <section aria-labelledby="advert-reports">
      <h2 id="advert-reports" className="text-lg font-semibold text-ink">
        {t('advert.reports.title')}
      </h2>
      <SectionData load={(signal) => supportAdvertsApi.reports(advert.id, signal)} loadError={t('advert.loadSectionError')}>
        {(items) =>
          items.length === 0 ? (
            <p className="mt-4 text-slate-700">{t('advert.reports.empty')}</p>
          ) : (
            <Table caption={t('advert.reports.title')} columns={['reason', 'received', 'reporter', 'status', 'decided'].map((column) => t(`advert.reports.${column}`))}>
              {items.map((report) => (
                <tr key={report.id} data-report={report.id}>
                  <th scope="row" className={`${cell} font-medium`}>
                    <PriorityFlag t={t} priority={report.priority} />
                    <AppLink router={supportRouter} href={`${supportPath('contentReports')}${report.id}/`} className="text-brand-700 underline">
                      {reasonText(t, report.reason)}
                    </AppLink>
                  </th>
                  <td className={`${cell} whitespace-nowrap`}>{formatDateTime(report.createdAt)}</td>
                  <td className={cell}>{report.reporterName ?? t('contentReports.anonymous')}</td>
                  <td className={cell}>
                    {t(`moderation.reportStatus.${report.status}`)}
                    {report.decision ? <span className="block text-sm text-slate-600">{t(`moderation.reportDecisions.${report.decision}`, { defaultValue: report.decision })}</span> : null}
                  </td>
                  <td className={`${cell} whitespace-nowrap`}>{report.decidedAt ? formatDateTime(report.decidedAt) : t('advert.none')}</td>
                </tr>
              ))}
            </Table>
          )
        }
      </SectionData>
    </section>
  );
}
