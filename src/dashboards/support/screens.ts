/**
 * The screens of the support app, each its own chunk, loaded when first opened (a chunk that fails to load
 * reloads the page once, ../shared/lazy-screen.ts). Routes without a screen here show "coming" (later
 * issues build them).
 */
import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyScreen } from '../shared/lazy-screen.ts';
import type { SupportRoute } from './routes.ts';
import type { SupportScreenProps } from './screen-props.ts';

type Screen = LazyExoticComponent<ComponentType<SupportScreenProps>>;

const screen = (load: () => Promise<{ default: ComponentType<SupportScreenProps> }>): Screen => lazyScreen('support-chunk-reloaded', load);

export const supportScreens: Partial<Record<SupportRoute, Screen>> = {
  login: screen(() => import('./login/LoginScreen.tsx')),
  forgot: screen(() => import('./forgot/ForgotScreen.tsx')),
  change: screen(() => import('./change/ChangeScreen.tsx')),
  twoFactor: screen(() => import('./two-factor/TwoFactorScreen.tsx')),
  users: screen(() => import('./users/UsersScreen.tsx')),
  user: screen(() => import('./user/UserScreen.tsx')),
  dashboard: screen(() => import('./dashboard/DashboardScreen.tsx')),
  contentReports: screen(() => import('./content-reports/ContentReportsScreen.tsx')),
  contentReport: screen(() => import('./content-report/ContentReportScreen.tsx')),
  pendingReviews: screen(() => import('./pending-reviews/PendingReviewsScreen.tsx')),
  pendingReview: screen(() => import('./pending-review/PendingReviewScreen.tsx')),
  appeals: screen(() => import('./appeals/AppealsScreen.tsx')),
  appeal: screen(() => import('./appeal/AppealScreen.tsx')),
  validation: screen(() => import('./validation/ValidationsScreen.tsx')),
  validationItem: screen(() => import('./validation-item/ValidationItemScreen.tsx')),
  review: screen(() => import('./review/ReviewScreen.tsx')),
  reviewAdverts: screen(() => import('./review/ReviewAdvertsScreen.tsx')),
  reviewAdvert: screen(() => import('./review-advert/ReviewAdvertScreen.tsx')),
  adverts: screen(() => import('./adverts/AdvertsScreen.tsx')),
  advert: screen(() => import('./advert/AdvertScreen.tsx')),
  riskWords: screen(() => import('./risk-words/RiskWordsScreen.tsx')),
  orders: screen(() => import('./orders/OrdersScreen.tsx')),
  order: screen(() => import('./order/OrderScreen.tsx')),
  products: screen(() => import('./products/ProductsScreen.tsx')),
  product: screen(() => import('./product/ProductScreen.tsx')),
  news: screen(() => import('./news/NewsScreen.tsx')),
  newsItem: screen(() => import('./news-item/NewsItemScreen.tsx')),
  landingPages: screen(() => import('./landing-pages/LandingPagesScreen.tsx')),
  landingPage: screen(() => import('./landing-page/LandingPageScreen.tsx')),
  matchedKeywords: screen(() => import('./keywords/KeywordsScreen.tsx').then((m) => ({ default: m.MatchedKeywordsScreen }))),
  unmatchedKeywords: screen(() => import('./keywords/KeywordsScreen.tsx').then((m) => ({ default: m.UnmatchedKeywordsScreen }))),
  pairedKeywords: screen(() => import('./keywords/KeywordsScreen.tsx').then((m) => ({ default: m.PairedKeywordsScreen }))),
  ignoredKeywords: screen(() => import('./keywords/KeywordsScreen.tsx').then((m) => ({ default: m.IgnoredKeywordsScreen }))),
  matchedKeyword: screen(() => import('./keyword/KeywordScreen.tsx')),
  unmatchedKeyword: screen(() => import('./keyword/KeywordScreen.tsx')),
  places: screen(() => import('./places/PlacesScreen.tsx')),
  statistics: screen(() => import('./statistics/StatisticsScreen.tsx')),
  migrateAdverts: screen(() => import('./migrate-adverts/MigrateAdvertsScreen.tsx')),
  migrateAdvert: screen(() => import('./migrate-advert/MigrateAdvertScreen.tsx')),
};
