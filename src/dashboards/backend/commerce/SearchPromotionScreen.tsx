/** /backend/search-promotion/: a search boost (product type 3); see ./PromotionScreen.tsx. */
import type { BackendScreenProps } from '../screen-props.ts';
import { PromotionScreen } from './PromotionScreen.tsx';

export default function SearchPromotionScreen(props: BackendScreenProps) {
  return <PromotionScreen {...props} typeId={3} />;
}
