/**
 * /backend/callback-payment/: the provider's return (spec §4): type purchase goes to the dashboard with
 * the order's id (found by its referenceID: this tab remembers it from buyproduct, else the purchase
 * history), otherwise with saleId; the decline address (`declined=1&orderId=`) with `declined=1`. The
 * return itself never means paid: the dashboard waits for the order.
 */
import { useEffect } from 'react';
import { isApiError } from '#lib/api/errors.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { backendPath, backendRouter } from '../routes.ts';
import type { BackendScreenProps } from '../screen-props.ts';
import { orderIdOfReturn } from './api.ts';

/** The dashboard address for a provider's return query. */
export async function dashboardAfterPayment(query: URLSearchParams, signal?: AbortSignal): Promise<string> {
  const dashboard = backendPath('dashboard');
  const orderId = await orderIdOfReturn(query, signal);
  // The provider's decline address (FlexPay sends no postback for a declined card): said at once.
  if (query.get('declined') === '1') return orderId ? `${dashboard}?orderId=${orderId}&declined=1` : dashboard;
  if (query.get('type') === 'purchase' || !query.get('saleID')) {
    return orderId ? `${dashboard}?orderId=${orderId}` : dashboard;
  }
  const sale = `saleId=${encodeURIComponent(query.get('saleID') ?? '')}`;
  return orderId ? `${dashboard}?${sale}&orderId=${orderId}` : `${dashboard}?${sale}`;
}

export default function CallbackPaymentScreen(_props: BackendScreenProps) {
  const t = useAppT(backendI18n);
  useEffect(() => {
    const controller = new AbortController();
    dashboardAfterPayment(new URLSearchParams(location.search), controller.signal).then(
      (href) => backendRouter.open(href, true),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isApiError(error, 401)) return goToLogin();
        backendRouter.open(backendPath('dashboard'), true);
      },
    );
    return () => controller.abort();
  }, []);
  return <p className="text-slate-700">{t('commerce.returning')}</p>;
}
