/**
 * /backend/promotion/receipt/{orderId?}/: the receipt of an order (./ReceiptView.tsx); without an id, the
 * newest paid order's, else the purchase history.
 */
import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { isApiError } from '#lib/api/errors.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { backendPath, backendRouter } from '../routes.ts';
import type { BackendScreenProps } from '../screen-props.ts';
import { commerceApi } from './api.ts';
import { ReceiptView } from './ReceiptView.tsx';

export default function PromotionReceiptScreen(_props: BackendScreenProps) {
  const t = useAppT(backendI18n);
  const page = useStore(backendRouter);
  const id = page?.route === 'promotionReceipt' ? (page.params.orderId ?? '') : '';
  const valid = /^\d{1,9}$/.test(id);

  useEffect(() => {
    if (valid) return;
    const controller = new AbortController();
    commerceApi.history(controller.signal).then(
      ({ items }) => {
        const paid = items.find((order) => order.status === 1);
        backendRouter.open(paid ? `${backendPath('promotionReceipt')}${paid.id}/` : backendPath('purchaseHistory'), true);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isApiError(error, 401)) return goToLogin();
        backendRouter.open(backendPath('purchaseHistory'), true);
      },
    );
    return () => controller.abort();
  }, [valid]);

  if (!valid) return <p className="text-slate-700">{t('app.loading')}</p>;
  return <ReceiptView key={id} orderId={Number(id)} titleKey="screens.promotionReceipt" />;
}
