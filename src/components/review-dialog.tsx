/**
 * Mounts the review form (WriteReviewDialog) on the first click of an advert's "Write a review" button.
 * Loaded with import() by advert-interactions.ts, so React comes only with the first review.
 */
import { createRoot } from 'react-dom/client';
import WriteReviewDialog, { type WriteReviewDialogProps } from './WriteReviewDialog.tsx';

export function mountReviewDialog(container: HTMLElement, props: WriteReviewDialogProps): void {
  createRoot(container).render(<WriteReviewDialog {...props} />);
}
