/** /backend/purchase-history/{id}/: one order's receipt page (./ReceiptView.tsx). */
import { useStore } from '@nanostores/react';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { backendRouter } from '../routes.ts';
import type { BackendScreenProps } from '../screen-props.ts';
import { ReceiptView } from './ReceiptView.tsx';

export default function PurchaseHistoryItemScreen(_props: BackendScreenProps) {
  const t = useAppT(backendI18n);
  const page = useStore(backendRouter);
  const id = page?.route === 'purchaseHistoryItem' ? page.params.id : '';
  if (!/^\d{1,9}$/.test(id)) return <p className="text-slate-800">{t('app.notFound')}</p>;
  return <ReceiptView key={id} orderId={Number(id)} titleKey="screens.purchaseHistoryItem" />;
}
