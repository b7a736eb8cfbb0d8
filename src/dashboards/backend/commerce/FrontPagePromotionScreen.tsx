/** /backend/front-page-promotion/: a front-page boost (product type 2); see ./PromotionScreen.tsx. */
import type { BackendScreenProps } from '../screen-props.ts';
import { PromotionScreen } from './PromotionScreen.tsx';

export default function FrontPagePromotionScreen(props: BackendScreenProps) {
  return <PromotionScreen {...props} typeId={2} />;
}
