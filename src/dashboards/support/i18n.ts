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

const merge = (...parts: Catalog[]): Catalog => Object.assign({}, ...parts) as Catalog;

export const supportI18n = createI18n({
  locale: 'da',
  catalogs: {
    da: { support: merge(daSupport, daLogin, daForgot, daChange, daTwoFactor, daUsers, daUser, daDashboard), common: daCommon },
    en: { support: merge(enSupport, enLogin, enForgot, enChange, enTwoFactor, enUsers, enUser, enDashboard), common: enCommon },
  },
  defaultNamespace: 'support',
});
