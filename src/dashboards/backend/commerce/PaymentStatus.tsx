/**
 * The status of an order after the provider's return (spec §4 and §8): the return never means paid. Until
 * purchaseitem says Paid, Failed or Expired the screen says 'Payment is still processing…' and asks again
 * (every 2 s, backing off to 15 s, for up to 10 minutes, then a note to look in the purchase history later).
 * After the provider's decline address (`declined`), an unpaid order is shown declined at once.
 */
import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { isApiError } from '#lib/api/errors.ts';
import { AppLink } from '../../shared/AppLink.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { backendPath, backendRouter } from '../routes.ts';
import { FINAL_STATUSES, commerceApi, type OrderView } from './api.ts';
import { useStore } from '@nanostores/react';
import { productNameOf } from '#lib/schemas/commerce.ts';
import { $locale } from '#lib/stores/locale.ts';

const FIRST_DELAY_MS = 2000;
const MAX_DELAY_MS = 15_000;
const GIVE_UP_MS = 10 * 60_000;

type Phase = { kind: 'waiting' } | { kind: 'done'; order: OrderView } | { kind: 'gaveUp' } | { kind: 'missing' };

const linkClass = 'font-semibold text-brand-700 underline';

export function PaymentStatus({ orderId, t, onPaid, declined = false }: { orderId: number; t: TFunction; onPaid?: () => void; declined?: boolean }) {
  const [phase, setPhase] = useState<Phase>({ kind: 'waiting' });
  const locale = useStore($locale);

  useEffect(() => {
    const controller = new AbortController();
    const started = Date.now();
    let delay = FIRST_DELAY_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const again = () => {
      if (Date.now() - started > GIVE_UP_MS) return setPhase({ kind: 'gaveUp' });
      timer = setTimeout(check, delay);
      delay = Math.min(MAX_DELAY_MS, Math.round(delay * 1.5));
    };
    const check = () => {
      commerceApi.order(orderId, controller.signal).then(
        (order) => {
          if (FINAL_STATUSES.has(order.status)) {
            setPhase({ kind: 'done', order });
            if (order.status === 1) onPaid?.();
          } else if (declined) {
            // The provider sent the buyer to our decline address: nothing was charged, the order stays unpaid and expires.
            setPhase({ kind: 'done', order: { ...order, status: 2, statusName: 'Failed' } });
          } else again();
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (isApiError(error, 401)) return goToLogin();
          if (isApiError(error, 404)) return setPhase({ kind: 'missing' });
          again();
        },
      );
    };
    check();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [orderId, onPaid, declined]);

  const receiptHref = `${backendPath('promotionReceipt').replace(/\/$/, '')}/${orderId}/`;
  const retryHref = (order: OrderView) =>
    order.productType === 2 ? backendPath('frontPagePromotion') : order.productType === 3 ? backendPath('searchPromotion') : backendPath('buyAdvertPackage');

  if (phase.kind === 'waiting') {
    return (
      <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-ink" data-payment-status="processing">
        {t('commerce.processing')}
      </p>
    );
  }
  if (phase.kind === 'gaveUp' || phase.kind === 'missing') {
    return (
      <p role="status" className="rounded-lg border border-slate-300 bg-white px-4 py-3 text-ink" data-payment-status={phase.kind}>
        {t(phase.kind === 'gaveUp' ? 'commerce.stillProcessingLater' : 'commerce.orderMissing')}{' '}
        <AppLink router={backendRouter} href={backendPath('purchaseHistory')} className={linkClass}>
          {t('screens.purchaseHistory')}
        </AppLink>
      </p>
    );
  }
  const { order } = phase;
  if (order.status === 1) {
    return (
      <div role="status" className="rounded-lg border border-green-300 bg-green-50 px-4 py-3 text-ink" data-payment-status="paid">
        <p className="font-semibold">{t('commerce.paid', { product: productNameOf(order, locale) })}</p>
        <AppLink router={backendRouter} href={receiptHref} className={linkClass}>
          {t('commerce.seeReceipt')}
        </AppLink>
      </div>
    );
  }
  return (
    <div role="status" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-ink" data-payment-status={order.statusName.toLowerCase()}>
      <p className="font-semibold">{t(`commerce.ended.${order.statusName}`, { defaultValue: t('commerce.ended.Failed') })}</p>
      <AppLink router={backendRouter} href={retryHref(order)} className={linkClass}>
        {t('commerce.tryAgain')}
      </AppLink>
    </div>
  );
}
