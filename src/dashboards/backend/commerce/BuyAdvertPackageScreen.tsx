/**
 * /backend/buy-advert-package/: pick a package (promotions?TypeId=1) and a payment method the server
 * offers; before paying, what it is, the price incl. 25% VAT, for how long, whether it renews and how to
 * cancel, and the 14-day withdrawal right with the express request to start at once (EU 2011/83 art.
 * 16(a)); then buyproduct and on to the provider. Its return never means paid (callback-payment/).
 * `?from=front-page|search`: sent here from a promotion page, which needs a running package first.
 */
import { useMemo } from 'react';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import type { BackendScreenProps } from '../screen-props.ts';
import { BuyProductChoice } from './BuyProductChoice.tsx';

export default function BuyAdvertPackageScreen(_props: BackendScreenProps) {
  const t = useAppT(backendI18n);
  const from = useMemo(() => new URLSearchParams(location.search).get('from'), []);
  return <BuyProductChoice typeId={1} route="buyAdvertPackage" intro={from ? t('commerce.promotion.needsPackage') : undefined} />;
}
