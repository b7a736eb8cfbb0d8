/**
 * /backend/front-page-promotion/ and /backend/search-promotion/: buy a boost of N days (products of type 2
 * or 3), see the running boost's end, and the ranking page (payment affects the order). Open only by the
 * rule of ./promotion-rule.ts; otherwise on to the buy page.
 */
import { useEffect } from 'react';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { backendPath, backendRouter } from '../routes.ts';
import type { BackendScreenProps } from '../screen-props.ts';
import { BuyProductChoice } from './BuyProductChoice.tsx';
import { mayOpenPromotion } from './promotion-rule.ts';

export function PromotionScreen({ profile, typeId }: BackendScreenProps & { typeId: 2 | 3 }) {
  const t = useAppT(backendI18n);
  const open = mayOpenPromotion(profile);
  useEffect(() => {
    if (!open) backendRouter.open(`${backendPath('buyAdvertPackage')}?from=${typeId === 2 ? 'front-page' : 'search'}`, true);
  }, [open, typeId]);
  if (!open) return <p className="text-slate-700">{t('app.loading')}</p>;
  return (
    <BuyProductChoice
      typeId={typeId}
      route={typeId === 2 ? 'frontPagePromotion' : 'searchPromotion'}
      intro={t(typeId === 2 ? 'commerce.promotion.frontPageIntro' : 'commerce.promotion.searchIntro')}
    />
  );
}
