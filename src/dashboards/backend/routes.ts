/**
 * Routes of the advertiser app under /backend/ (spec section 2). The route names are also the keys of
 * `screens.*` in the backend catalog. Paths are written without the trailing slash (the router ignores it);
 * links add it (see backendPath).
 */
import { createRouter, getPagePath } from '@nanostores/router';

export const backendRouter = createRouter(
  {
    root: '/backend',
    dashboard: '/backend/dashboard',
    basic: '/backend/basic',
    reviews: '/backend/reviews',
    priceList: '/backend/price-list',
    personal: '/backend/personal',
    pictures: '/backend/pictures',
    videos: '/backend/videos',
    schedule: '/backend/schedule',
    closeAdvert: '/backend/close-advert',
    verification: '/backend/verification',
    promotionReceipt: '/backend/promotion/receipt/:orderId?',
    paymentReceipt: '/backend/payment/receipt',
    advertPackage: '/backend/advert-package',
    frontPagePromotion: '/backend/front-page-promotion',
    searchPromotion: '/backend/search-promotion',
    buyAdvertPackage: '/backend/buy-advert-package',
    purchaseHistory: '/backend/purchase-history',
    purchaseHistoryItem: '/backend/purchase-history/:id',
    blacklist: '/backend/blacklist',
    logOut: '/backend/log-out',
    callbackPayment: '/backend/callback-payment',
    callbackAgeVerification: '/backend/callback-age-verification',
  },
  { links: false },
);

export type BackendRoute = Exclude<NonNullable<ReturnType<typeof backendRouter.get>>['route'], 'root'>;

/** The path of a parameterless screen, with the trailing slash the site uses. */
export function backendPath(route: BackendRoute): string {
  return `${getPagePath(backendRouter, route as 'dashboard')}/`;
}

/** Sidebar: the screens an advertiser can open from the menu, grouped. */
export const backendNav: { group: 'advert' | 'promotion' | 'account'; routes: BackendRoute[] }[] = [
  {
    group: 'advert',
    routes: ['dashboard', 'basic', 'personal', 'priceList', 'pictures', 'videos', 'schedule', 'verification', 'reviews', 'closeAdvert'],
  },
  {
    group: 'promotion',
    routes: ['advertPackage', 'buyAdvertPackage', 'frontPagePromotion', 'searchPromotion', 'purchaseHistory'],
  },
  { group: 'account', routes: ['blacklist', 'logOut'] },
];

/**
 * The hand-off token of /backend/verification/?handoff=… (the QR code's link), or null. That page opens
 * without a session: the token stands in for it on the verification's upload, look and delete calls.
 */
export function handoffOf(page: { route: string; search: Record<string, string> } | undefined): string | null {
  if (page?.route !== 'verification') return null;
  const token = page.search['handoff']?.trim();
  return token ? token : null;
}
