/**
 * /backend/buy-advert-package/: pick a package (promotions?TypeId=1) and a payment method the server
 * offers; before paying, what it is, the price incl. 25% VAT, for how long, whether it renews and how to
 * cancel, and the 14-day withdrawal right with the express request to start at once (EU 2011/83 art.
 * 16(a)); then buyproduct and on to the provider. Its return never means paid (callback-payment/).
 */
import { BuyProductChoice } from './BuyProductChoice.tsx';
import type { BackendScreenProps } from '../screen-props.ts';

export default function BuyAdvertPackageScreen(_props: BackendScreenProps) {
  return <BuyProductChoice typeId={1} route="buyAdvertPackage" />;
}
