/**
 * The backend's screen loading (see ../shared/screen-data.tsx): `useScreenData`, and `ScreenShell` with the
 * backend's texts.
 */
import { createScreenShell } from '../shared/screen-data.tsx';
import { backendI18n } from './i18n.ts';

export { useScreenData, type Loadable } from '../shared/screen-data.tsx';

export const ScreenShell = createScreenShell(backendI18n);
