/** The support app's translations: its own namespace plus common, both languages (switch in place). */
import { createI18n } from '#lib/i18n/index.ts';
import daSupport from '#lib/i18n/da/support.json' with { type: 'json' };
import enSupport from '#lib/i18n/en/support.json' with { type: 'json' };
import daCommon from '#lib/i18n/da/common.json' with { type: 'json' };
import enCommon from '#lib/i18n/en/common.json' with { type: 'json' };

export const supportI18n = createI18n({
  locale: 'da',
  catalogs: { da: { support: daSupport, common: daCommon }, en: { support: enSupport, common: enCommon } },
  defaultNamespace: 'support',
});
