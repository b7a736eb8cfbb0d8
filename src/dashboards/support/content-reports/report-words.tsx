/** Words the report screens share: the reason, the reporter, and the red flag of an urgent or high report. */
import type { TFunction } from 'i18next';
import { REPORT_REASONS } from '#lib/schemas/report-advert.ts';
import type { ContentReportItem } from '#lib/schemas/moderation.ts';

/** The reason in words (an unknown code as it is). */
export function reasonText(t: TFunction, reason: string): string {
  return (REPORT_REASONS as readonly string[]).includes(reason) ? t(`moderation.reportReasons.${reason}`) : reason;
}

/** Who reported: name and email, either, or "anonymous". */
export function reporterText(t: TFunction, report: Pick<ContentReportItem, 'reporterName' | 'reporterEmail'>): string {
  const parts = [report.reporterName, report.reporterEmail].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(', ') : t('contentReports.anonymous');
}

/** "Urgent" in white on red (suspected minors, trafficking) or "High" in red; nothing for normal reports. */
export function PriorityFlag({ t, priority }: { t: TFunction; priority: number }) {
  if (priority === 2) {
    return (
      <span className="mr-2 inline-block rounded-md bg-red-700 px-2 py-0.5 text-xs font-semibold uppercase text-white" data-urgent>
        {t('moderation.priority.2')}
      </span>
    );
  }
  if (priority === 1) {
    return <span className="mr-2 inline-block rounded-md border border-red-700 px-2 py-0.5 text-xs font-semibold text-red-800">{t('moderation.priority.1')}</span>;
  }
  return null;
}
