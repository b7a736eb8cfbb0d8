/** /support/review-adverts/ (Support): the review queue, pending changes first (see ./ReviewScreen.tsx). */
import type { SupportScreenProps } from '../screen-props.ts';
import { ReviewQueue } from './ReviewScreen.tsx';

export default function ReviewAdvertsScreen({ search }: SupportScreenProps) {
  return <ReviewQueue route="reviewAdverts" search={search} />;
}
