/** A price in DKK with "incl. VAT" (money is stored in øre, VAT included). */
import { formatDkk } from '#lib/format.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';

export function Price({ ore }: { ore: number }) {
  const t = useAppT(backendI18n);
  return (
    <span>
      {formatDkk(ore)} <span className="text-sm text-slate-600">{t('priceList.inclVat')}</span>
    </span>
  );
}
