/**
 * Every screen of the site a walk opens (issue 31: consoles clean, and axe at both sizes on every public,
 * backend and support screen): the backend's and support's screens by route name, so that a screen added
 * to a router without being added here fails `everyRouteWalked` (console.spec.ts), and the public page types.
 */
import type { APIRequestContext } from '@playwright/test';
import { backendRouter } from '../../src/dashboards/backend/routes.ts';
import { supportRouter } from '../../src/dashboards/support/routes.ts';

/**
 * How a walk reaches a route: a path; a detail screen, the first row's link on its list (not its "new"
 * link); several of these; or why it is not walked here.
 */
type Visit = string | { firstLinkOn: string };
export type Step = Visit | Visit[] | { skip: string };

/** The advertiser's backend, as a new advertiser with one paid order (`{order}`) sees it. */
export const BACKEND_SCREENS = {
  root: { skip: 'sends on to the dashboard' },
  dashboard: '/backend/dashboard/',
  basic: '/backend/basic/',
  reviews: '/backend/reviews/',
  priceList: '/backend/price-list/',
  personal: '/backend/personal/',
  pictures: '/backend/pictures/',
  videos: '/backend/videos/',
  schedule: '/backend/schedule/',
  closeAdvert: '/backend/close-advert/',
  verification: '/backend/verification/',
  promotionReceipt: '/backend/promotion/receipt/{order}/',
  paymentReceipt: '/backend/payment/receipt/',
  advertPackage: '/backend/advert-package/',
  frontPagePromotion: '/backend/front-page-promotion/',
  searchPromotion: '/backend/search-promotion/',
  buyAdvertPackage: '/backend/buy-advert-package/',
  purchaseHistory: '/backend/purchase-history/',
  purchaseHistoryItem: '/backend/purchase-history/{order}/',
  blacklist: '/backend/blacklist/',
  logOut: { skip: 'signs out (accounts.spec.ts)' },
  callbackPayment: { skip: "a payment provider's return with its parameters (backend-commerce*.spec.ts check it with axe)" },
  callbackAgeVerification: { skip: "the age provider's return with its parameters (verification.spec.ts checks it with axe)" },
} satisfies Record<string, Step>;

/** Support, as Administration sees it (every permission). */
export const SUPPORT_SCREENS = {
  root: { skip: 'sends on to the dashboard' },
  login: { skip: 'walked signed out, before the others' },
  forgot: { skip: 'walked signed out, before the others' },
  change: { skip: "a reset link's screen with its token (support-access.spec.ts)" },
  dashboard: '/support/dashboard/',
  review: '/support/review/',
  validation: '/support/validation/',
  // A verification waits (the walk's own advertiser passes the age check first).
  validationItem: { firstLinkOn: '/support/validation/' },
  orders: '/support/orders/',
  order: { firstLinkOn: '/support/orders/' },
  statistics: '/support/statistics/',
  logOut: { skip: 'signs out (support.spec.ts)' },
  twoFactor: '/support/two-factor/',
  adverts: '/support/adverts/',
  advert: { firstLinkOn: '/support/adverts/' },
  landingPages: '/support/landing-pages/',
  landingPage: [{ firstLinkOn: '/support/landing-pages/' }, '/support/landing-pages/new/'],
  ignoredKeywords: '/support/ignored-keywords/',
  pairedKeywords: '/support/paired-keywords/',
  matchedKeywords: '/support/matched-keywords/',
  matchedKeyword: { firstLinkOn: '/support/matched-keywords/' },
  unmatchedKeywords: '/support/unmatched-keywords/',
  unmatchedKeyword: { firstLinkOn: '/support/unmatched-keywords/' },
  contentReports: '/support/content-reports/',
  // A report waits (the walk's own visitor reports an advert first).
  contentReport: { firstLinkOn: '/support/content-reports/' },
  appeals: '/support/appeals/',
  appeal: { skip: 'the demo has no appeal: support-reports.spec.ts makes one and checks its screen with axe at both sizes' },
  users: '/support/users/',
  user: [{ firstLinkOn: '/support/users/' }, '/support/users/new/'],
  products: '/support/products/',
  product: { firstLinkOn: '/support/products/' },
  pendingReviews: '/support/pending-reviews/',
  pendingReview: { firstLinkOn: '/support/pending-reviews/' },
  migrateAdverts: '/support/migrate-adverts/',
  migrateAdvert: { skip: "the demo has no old site's advert: support-migration.spec.ts imports one and checks its screen with axe at both sizes" },
  reviewAdverts: '/support/review-adverts/',
  reviewAdvert: { firstLinkOn: '/support/review-adverts/' },
  riskWords: '/support/risk-words/',
  places: '/support/places/',
  news: '/support/news/',
  newsItem: [{ firstLinkOn: '/support/news/' }, '/support/news/new/'],
} satisfies Record<string, Step>;

/** The route names of a router (its `routes`: [name, pattern, …]). */
const routeNames = (router: { routes: [string, ...unknown[]][] }) => router.routes.map(([name]) => name).sort();

/** The routes of each app that the lists above do not name (none, when every screen is walked or skipped with a reason). */
export function unwalkedRoutes(): { backend: string[]; support: string[] } {
  return {
    backend: routeNames(backendRouter).filter((name) => !(name in BACKEND_SCREENS)),
    support: routeNames(supportRouter).filter((name) => !(name in SUPPORT_SCREENS)),
  };
}

/** The visits of a list in order: its paths with `{order}` filled in, its first-link visits as they are. */
export function stepsOf(screens: Record<string, Step>, values: Record<string, string | number> = {}): Visit[] {
  return Object.values(screens)
    .flatMap((step): Visit[] => (Array.isArray(step) ? step : typeof step === 'string' || 'firstLinkOn' in step ? [step] : []))
    .map((step) => (typeof step === 'string' ? step.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key])) : step));
}

/**
 * One page of each public page type in a language (the English ones under /en). The service and article
 * pages are the language's own (an English page of a Danish-only article does not exist), and not the
 * pages other tests make and remove meanwhile (their slugs begin with `e2e-`).
 */
export async function publicPages(request: APIRequestContext, locale: 'da' | 'en'): Promise<string[]> {
  const prefix = locale === 'en' ? '/en' : '';
  const answer = await request.get('/api/frontend/searchpageprofiles', { params: { Locale: locale, PageSize: '1', Url: '/escort/' } });
  const [advert] = ((await answer.json()) as { items: { url: string; regionSlug: string; citySlug: string }[] }).items;
  const lasting = async (kind: 'service' | 'artikler') => {
    const pages = (await (await request.get(`/api/frontend/landingpagepages?Kind=${kind}&Locale=${locale}`)).json()) as { url: string }[];
    const page = pages.find((candidate) => !candidate.url.startsWith('e2e-'));
    if (!page) throw new Error(`no ${kind} page in ${locale}`);
    return page.url;
  };
  const paths = [
    '/',
    '/escort/',
    '/thaimassage/',
    '/trans-escort/',
    `/escort/${advert!.regionSlug}/`,
    `/escort/${advert!.regionSlug}/${advert!.citySlug}/`,
    advert!.url.replace(/^\/en\//, '/'),
    '/search/',
    '/search/anna/',
    '/service/',
    `/service/${await lasting('service')}/`,
    '/artikler/',
    `/artikler/${await lasting('artikler')}/`,
    '/ranking/',
    '/login/',
    '/login/forgot/',
    '/create/',
    '/advert-blocked/',
    '/terms-condition/',
    '/privacy-policy/',
    '/cookies/',
  ];
  return paths.map((path) => `${prefix}${path}`);
}
