/**
 * Mounts the report form (ReportAdvertDialog) on the first click of an advert's "Report" button. Loaded
 * with import() by advert-interactions.ts, so React comes only with the first report.
 */
import { createRoot } from 'react-dom/client';
import ReportAdvertDialog, { type ReportAdvertDialogProps } from './ReportAdvertDialog.tsx';

export function mountReportDialog(container: HTMLElement, props: ReportAdvertDialogProps): void {
  createRoot(container).render(<ReportAdvertDialog {...props} />);
}
