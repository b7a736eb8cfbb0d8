/** The support app's screen loading (see ../shared/screen-data.tsx): `ScreenShell` with the support texts. */
import { createScreenShell } from '../shared/screen-data.tsx';
import { supportI18n } from './i18n.ts';

export const ScreenShell = createScreenShell(supportI18n);
