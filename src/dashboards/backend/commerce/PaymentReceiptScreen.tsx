/**
 * /backend/payment/receipt/ (spec §4, where api/CardBilling/Success leads): a purchase goes to the
 * promotion receipt of its order, anything else to the buy page.
 */
import { useEffect } from 'react';
import { isApiError } from '#lib/api/errors.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { backendPath, backendRouter } from '../routes.ts';
import type { BackendScreenProps } from '../screen-props.ts';
import { orderIdOfReturn } from './api.ts';

export default function PaymentReceiptScreen(_props: BackendScreenProps) {
  const t = useAppT(backendI18n);
  useEffect(() => {
    const controller = new AbortController();
    const query = new URLSearchParams(location.search);
    const go = async (): Promise<string> => {
      if (query.get('type') !== 'purchase') return backendPath('buyAdvertPackage');
      const orderId = await orderIdOfReturn(query, controller.signal);
      const receipt = backendPath('promotionReceipt').replace(/\/$/, '');
      return orderId ? `${receipt}/${orderId}/` : `${receipt}/`;
    };
    go().then(
      (href) => backendRouter.open(href, true),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isApiError(error, 401)) return goToLogin();
        backendRouter.open(backendPath('buyAdvertPackage'), true);
      },
    );
    return () => controller.abort();
  }, []);
  return <p className="text-slate-700">{t('commerce.returning')}</p>;
}
