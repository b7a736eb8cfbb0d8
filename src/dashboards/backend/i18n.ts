/**
 * The advertiser app's translations: its own namespace plus common, both languages (switch in place).
 * The backend namespace is backend.json (the frame, words every screen uses) merged with one file per
 * screen under backend/ (each holding one top-level key, the screen's route name).
 */
import { createI18n, type Catalog } from '#lib/i18n/index.ts';
import daBackend from '#lib/i18n/da/backend.json' with { type: 'json' };
import enBackend from '#lib/i18n/en/backend.json' with { type: 'json' };
import daCommon from '#lib/i18n/da/common.json' with { type: 'json' };
import enCommon from '#lib/i18n/en/common.json' with { type: 'json' };
import daDashboard from '#lib/i18n/da/backend/dashboard.json' with { type: 'json' };
import enDashboard from '#lib/i18n/en/backend/dashboard.json' with { type: 'json' };
import daBasic from '#lib/i18n/da/backend/basic.json' with { type: 'json' };
import enBasic from '#lib/i18n/en/backend/basic.json' with { type: 'json' };
import daPersonal from '#lib/i18n/da/backend/personal.json' with { type: 'json' };
import enPersonal from '#lib/i18n/en/backend/personal.json' with { type: 'json' };
import daPriceList from '#lib/i18n/da/backend/priceList.json' with { type: 'json' };
import enPriceList from '#lib/i18n/en/backend/priceList.json' with { type: 'json' };
import daSchedule from '#lib/i18n/da/backend/schedule.json' with { type: 'json' };
import enSchedule from '#lib/i18n/en/backend/schedule.json' with { type: 'json' };
import daCloseAdvert from '#lib/i18n/da/backend/closeAdvert.json' with { type: 'json' };
import enCloseAdvert from '#lib/i18n/en/backend/closeAdvert.json' with { type: 'json' };
import daReviews from '#lib/i18n/da/backend/reviews.json' with { type: 'json' };
import enReviews from '#lib/i18n/en/backend/reviews.json' with { type: 'json' };
import daBlacklist from '#lib/i18n/da/backend/blacklist.json' with { type: 'json' };
import enBlacklist from '#lib/i18n/en/backend/blacklist.json' with { type: 'json' };
import daPictures from '#lib/i18n/da/backend/pictures.json' with { type: 'json' };
import enPictures from '#lib/i18n/en/backend/pictures.json' with { type: 'json' };
import daVideos from '#lib/i18n/da/backend/videos.json' with { type: 'json' };
import enVideos from '#lib/i18n/en/backend/videos.json' with { type: 'json' };
import daVerification from '#lib/i18n/da/backend/verification.json' with { type: 'json' };
import enVerification from '#lib/i18n/en/backend/verification.json' with { type: 'json' };
import daCallbackAgeVerification from '#lib/i18n/da/backend/callbackAgeVerification.json' with { type: 'json' };
import enCallbackAgeVerification from '#lib/i18n/en/backend/callbackAgeVerification.json' with { type: 'json' };
import daImpersonation from '#lib/i18n/da/backend/impersonation.json' with { type: 'json' };
import enImpersonation from '#lib/i18n/en/backend/impersonation.json' with { type: 'json' };
import daCommerce from '#lib/i18n/da/backend/commerce.json' with { type: 'json' };
import enCommerce from '#lib/i18n/en/backend/commerce.json' with { type: 'json' };

const merge = (...parts: Catalog[]): Catalog => Object.assign({}, ...parts) as Catalog;

export const backendI18n = createI18n({
  locale: 'da',
  catalogs: {
    da: {
      backend: merge(daBackend, daDashboard, daBasic, daPersonal, daPriceList, daSchedule, daCloseAdvert, daReviews, daBlacklist, daPictures, daVideos, daVerification, daCallbackAgeVerification, daImpersonation, daCommerce),
      common: daCommon,
    },
    en: {
      backend: merge(enBackend, enDashboard, enBasic, enPersonal, enPriceList, enSchedule, enCloseAdvert, enReviews, enBlacklist, enPictures, enVideos, enVerification, enCallbackAgeVerification, enImpersonation, enCommerce),
      common: enCommon,
    },
  },
  defaultNamespace: 'backend',
});
