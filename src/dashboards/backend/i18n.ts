/** The advertiser app's translations: its own namespace plus common, both languages (switch in place). */
import { createI18n } from '#lib/i18n/index.ts';
import daBackend from '#lib/i18n/da/backend.json' with { type: 'json' };
import enBackend from '#lib/i18n/en/backend.json' with { type: 'json' };
import daCommon from '#lib/i18n/da/common.json' with { type: 'json' };
import enCommon from '#lib/i18n/en/common.json' with { type: 'json' };

export const backendI18n = createI18n({
  locale: 'da',
  catalogs: { da: { backend: daBackend, common: daCommon }, en: { backend: enBackend, common: enCommon } },
  defaultNamespace: 'backend',
});
