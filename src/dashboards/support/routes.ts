/**
 * Routes of the support app under /support/ (spec section 2). Route names are also the keys of
 * `screens.*` in the support catalog. Paths without the trailing slash (the router ignores it).
 */
import { createRouter, getPagePath } from '@nanostores/router';

export const supportRouter = createRouter(
  {
    root: '/support',
    login: '/support/login',
    forgot: '/support/login/forgot',
    change: '/support/login/change',
    dashboard: '/support/dashboard',
    review: '/support/review',
    validation: '/support/validation',
    validationItem: '/support/validation/:id',
    orders: '/support/orders',
    order: '/support/orders/:id',
    statistics: '/support/statistics',
    logOut: '/support/log-out',
    twoFactor: '/support/two-factor',
    adverts: '/support/adverts',
    advert: '/support/adverts/:id/:section?/:subsection?',
    landingPages: '/support/landing-pages',
    landingPage: '/support/landing-pages/:id',
    ignoredKeywords: '/support/ignored-keywords',
    pairedKeywords: '/support/paired-keywords',
    matchedKeywords: '/support/matched-keywords',
    matchedKeyword: '/support/matched-keywords/:keyword',
    unmatchedKeywords: '/support/unmatched-keywords',
    unmatchedKeyword: '/support/unmatched-keywords/:keyword',
    contentReports: '/support/content-reports',
    contentReport: '/support/content-reports/:id',
    appeals: '/support/appeals',
    appeal: '/support/appeals/:id',
    users: '/support/users',
    user: '/support/users/:id',
    products: '/support/products',
    product: '/support/products/:id',
    pendingReviews: '/support/pending-reviews',
    pendingReview: '/support/pending-reviews/:id',
    migrateAdverts: '/support/migrate-adverts',
    migrateAdvert: '/support/migrate-adverts/:id',
    reviewAdverts: '/support/review-adverts',
    reviewAdvert: '/support/review-adverts/:id',
    riskWords: '/support/risk-words',
    places: '/support/places',
    news: '/support/news',
    newsItem: '/support/news/:id',
  },
  { links: false },
);

export type SupportRoute = NonNullable<ReturnType<typeof supportRouter.get>>['route'];

/** The path of a parameterless screen, with the trailing slash the site uses. */
export function supportPath(route: SupportRoute): string {
  return `${getPagePath(supportRouter, route as 'dashboard')}/`;
}
