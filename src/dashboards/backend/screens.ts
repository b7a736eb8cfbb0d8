/**
 * The screens of the advertiser app, each its own chunk, loaded when first opened. A chunk that fails to
 * load (a deploy replaced it) reloads the page once (spec §2: a failed dynamic load of a screen reloads).
 */
import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyScreen } from '../shared/lazy-screen.ts';
import type { BackendRoute } from './routes.ts';
import type { BackendScreenProps } from './screen-props.ts';

type Screen = LazyExoticComponent<ComponentType<BackendScreenProps>>;

const screen = (load: () => Promise<{ default: ComponentType<BackendScreenProps> }>): Screen => lazyScreen('backend-chunk-reloaded', load);

export const backendScreens: Partial<Record<BackendRoute, Screen>> = {
  dashboard: screen(() => import('./dashboard/DashboardScreen.tsx')),
  basic: screen(() => import('./basic/BasicScreen.tsx')),
  personal: screen(() => import('./personal/PersonalScreen.tsx')),
  priceList: screen(() => import('./price-list/PriceListScreen.tsx')),
  schedule: screen(() => import('./schedule/ScheduleScreen.tsx')),
  closeAdvert: screen(() => import('./close-advert/CloseAdvertScreen.tsx')),
  reviews: screen(() => import('./reviews/ReviewsScreen.tsx')),
  blacklist: screen(() => import('./blacklist/BlacklistScreen.tsx')),
  pictures: screen(() => import('./pictures/PicturesScreen.tsx')),
  videos: screen(() => import('./videos/VideosScreen.tsx')),
  verification: screen(() => import('./verification/VerificationScreen.tsx')),
  callbackAgeVerification: screen(() => import('./callback-age-verification/CallbackAgeVerificationScreen.tsx')),
  buyAdvertPackage: screen(() => import('./commerce/BuyAdvertPackageScreen.tsx')),
  callbackPayment: screen(() => import('./commerce/CallbackPaymentScreen.tsx')),
  paymentReceipt: screen(() => import('./commerce/PaymentReceiptScreen.tsx')),
  purchaseHistory: screen(() => import('./commerce/PurchaseHistoryScreen.tsx')),
  purchaseHistoryItem: screen(() => import('./commerce/PurchaseHistoryItemScreen.tsx')),
  promotionReceipt: screen(() => import('./commerce/PromotionReceiptScreen.tsx')),
  advertPackage: screen(() => import('./commerce/AdvertPackageScreen.tsx')),
  frontPagePromotion: screen(() => import('./commerce/FrontPagePromotionScreen.tsx')),
  searchPromotion: screen(() => import('./commerce/SearchPromotionScreen.tsx')),
};

/**
 * /backend/verification/?handoff=… opened from the QR code on a phone: no session, the token stands in
 * for it (the one address the app's sign-in guard lets through, see `handoffOf`).
 */
export const HandoffScreen = lazyScreen('backend-chunk-reloaded', () => import('./verification/HandoffScreen.tsx'));
