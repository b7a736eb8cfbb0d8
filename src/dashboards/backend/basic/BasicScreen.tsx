/** Placeholder until the screen is built. */
import { ComingScreen } from '../../shared/ComingScreen.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';

export default function BasicScreen() {
  const t = useAppT(backendI18n);
  return <ComingScreen title={t('screens.basic')} text={t('app.coming')} />;
}
