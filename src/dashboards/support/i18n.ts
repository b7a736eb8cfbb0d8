/**
 * The support app's translations: its own namespace plus common, both languages (switch in place).
 * The support namespace is support.json (the frame, words every screen uses, the support calls' own
 * refusals under `validation`) merged with one file per screen under support/ (each holding one
 * top-level key, the screen's route name).
 */
import { createI18n, type Catalog } from '#lib/i18n/index.ts';
import daSupport from '#lib/i18n/da/support.json' with { type: 'json' };
import enSupport from '#lib/i18n/en/support.json' with { type: 'json' };
import daCommon from '#lib/i18n/da/common.json' with { type: 'json' };
import enCommon from '#lib/i18n/en/common.json' with { type: 'json' };
import daLogin from '#lib/i18n/da/support/login.json' with { type: 'json' };
import enLogin from '#lib/i18n/en/support/login.json' with { type: 'json' };
import daForgot from '#lib/i18n/da/support/forgot.json' with { type: 'json' };
import enForgot from '#lib/i18n/en/support/forgot.json' with { type: 'json' };
import daChange from '#lib/i18n/da/support/change.json' with { type: 'json' };
import enChange from '#lib/i18n/en/support/change.json' with { type: 'json' };
import daTwoFactor from '#lib/i18n/da/support/twoFactor.json' with { type: 'json' };
import enTwoFactor from '#lib/i18n/en/support/twoFactor.json' with { type: 'json' };
import daUsers from '#lib/i18n/da/support/users.json' with { type: 'json' };
import enUsers from '#lib/i18n/en/support/users.json' with { type: 'json' };
import daUser from '#lib/i18n/da/support/user.json' with { type: 'json' };
import enUser from '#lib/i18n/en/support/user.json' with { type: 'json' };
import daDashboard from '#lib/i18n/da/support/dashboard.json' with { type: 'json' };
import enDashboard from '#lib/i18n/en/support/dashboard.json' with { type: 'json' };
import daContentReports from '#lib/i18n/da/support/contentReports.json' with { type: 'json' };
import enContentReports from '#lib/i18n/en/support/contentReports.json' with { type: 'json' };
import daContentReport from '#lib/i18n/da/support/contentReport.json' with { type: 'json' };
import enContentReport from '#lib/i18n/en/support/contentReport.json' with { type: 'json' };
import daAppeals from '#lib/i18n/da/support/appeals.json' with { type: 'json' };
import enAppeals from '#lib/i18n/en/support/appeals.json' with { type: 'json' };
import daAppeal from '#lib/i18n/da/support/appeal.json' with { type: 'json' };
import enAppeal from '#lib/i18n/en/support/appeal.json' with { type: 'json' };
import daValidationQueue from '#lib/i18n/da/support/validationQueue.json' with { type: 'json' };
import enValidationQueue from '#lib/i18n/en/support/validationQueue.json' with { type: 'json' };
import daValidationItem from '#lib/i18n/da/support/validationItem.json' with { type: 'json' };
import enValidationItem from '#lib/i18n/en/support/validationItem.json' with { type: 'json' };
import daReview from '#lib/i18n/da/support/review.json' with { type: 'json' };
import enReview from '#lib/i18n/en/support/review.json' with { type: 'json' };
import daReviewAdvert from '#lib/i18n/da/support/reviewAdvert.json' with { type: 'json' };
import enReviewAdvert from '#lib/i18n/en/support/reviewAdvert.json' with { type: 'json' };
import daRiskWords from '#lib/i18n/da/support/riskWords.json' with { type: 'json' };
import enRiskWords from '#lib/i18n/en/support/riskWords.json' with { type: 'json' };

import daImpersonate from '#lib/i18n/da/support/impersonate.json' with { type: 'json' };
import enImpersonate from '#lib/i18n/en/support/impersonate.json' with { type: 'json' };
import daAdverts from '#lib/i18n/da/support/adverts.json' with { type: 'json' };
import enAdverts from '#lib/i18n/en/support/adverts.json' with { type: 'json' };
import daAdvert from '#lib/i18n/da/support/advert.json' with { type: 'json' };
import enAdvert from '#lib/i18n/en/support/advert.json' with { type: 'json' };

import daOrders from '#lib/i18n/da/support/orders.json' with { type: 'json' };
import enOrders from '#lib/i18n/en/support/orders.json' with { type: 'json' };
import daOrder from '#lib/i18n/da/support/order.json' with { type: 'json' };
import enOrder from '#lib/i18n/en/support/order.json' with { type: 'json' };
import daProducts from '#lib/i18n/da/support/products.json' with { type: 'json' };
import enProducts from '#lib/i18n/en/support/products.json' with { type: 'json' };
import daProduct from '#lib/i18n/da/support/product.json' with { type: 'json' };
import enProduct from '#lib/i18n/en/support/product.json' with { type: 'json' };
import daNews from '#lib/i18n/da/support/news.json' with { type: 'json' };
import enNews from '#lib/i18n/en/support/news.json' with { type: 'json' };
import daNewsItem from '#lib/i18n/da/support/newsItem.json' with { type: 'json' };
import enNewsItem from '#lib/i18n/en/support/newsItem.json' with { type: 'json' };
import daKeywords from '#lib/i18n/da/support/keywords.json' with { type: 'json' };
import enKeywords from '#lib/i18n/en/support/keywords.json' with { type: 'json' };
import daPlaces from '#lib/i18n/da/support/places.json' with { type: 'json' };
import enPlaces from '#lib/i18n/en/support/places.json' with { type: 'json' };
import daLandingPages from '#lib/i18n/da/support/landingPages.json' with { type: 'json' };
import enLandingPages from '#lib/i18n/en/support/landingPages.json' with { type: 'json' };
import daLandingPage from '#lib/i18n/da/support/landingPage.json' with { type: 'json' };
import enLandingPage from '#lib/i18n/en/support/landingPage.json' with { type: 'json' };

import daPendingReviews from '#lib/i18n/da/support/pendingReviews.json' with { type: 'json' };
import enPendingReviews from '#lib/i18n/en/support/pendingReviews.json' with { type: 'json' };
import daPendingReview from '#lib/i18n/da/support/pendingReview.json' with { type: 'json' };
import enPendingReview from '#lib/i18n/en/support/pendingReview.json' with { type: 'json' };
import daStatistics from '#lib/i18n/da/support/statistics.json' with { type: 'json' };
import enStatistics from '#lib/i18n/en/support/statistics.json' with { type: 'json' };

const merge = (...parts: Catalog[]): Catalog => Object.assign({}, ...parts) as Catalog;

export const supportI18n = createI18n({
  locale: 'da',
  catalogs: {
    da: { support: merge(daSupport, daLogin, daForgot, daChange, daTwoFactor, daUsers, daUser, daDashboard, daContentReports, daContentReport, daAppeals, daAppeal, daValidationQueue, daValidationItem, daReview, daReviewAdvert, daRiskWords, daImpersonate, daAdverts, daAdvert, daPendingReviews, daPendingReview, daOrders, daOrder, daProducts, daProduct, daNews, daNewsItem, daKeywords, daPlaces, daLandingPages, daLandingPage, daStatistics), common: daCommon },
    en: { support: merge(enSupport, enLogin, enForgot, enChange, enTwoFactor, enUsers, enUser, enDashboard, enContentReports, enContentReport, enAppeals, enAppeal, enValidationQueue, enValidationItem, enReview, enReviewAdvert, enRiskWords, enImpersonate, enAdverts, enAdvert, enPendingReviews, enPendingReview, enOrders, enOrder, enProducts, enProduct, enNews, enNewsItem, enKeywords, enPlaces, enLandingPages, enLandingPage, enStatistics), common: enCommon },
  },
  defaultNamespace: 'support',
});
