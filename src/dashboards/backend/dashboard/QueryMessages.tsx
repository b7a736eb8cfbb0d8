/**
 * The dashboard's query parameters (spec §4): `orderId` after a purchase (the payment is confirmed when the
 * order shows up among the last promotions; until then 'Payment is still processing…', checked again every
 * few seconds), `sessionId` after an identity check (on to the verification screen), `ageVerify` (true or
 * false) after the age verification.
 */
import { useEffect, useMemo, useState } from 'react';
import type { TFunction } from 'i18next';
import { isApiError } from '#lib/api/errors.ts';
import { FormNotice } from '../../../components/form/Field.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { backendPath, backendRouter } from '../routes.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { dashboardApi } from './api.ts';

const POLL_MS = 5000;
const POLL_TIMES = 24;

export function QueryMessages({ t, onPaid }: { t: TFunction; onPaid: () => void }) {
  const query = useMemo(() => new URLSearchParams(location.search), []);
  const orderId = query.get('orderId');
  const sessionId = query.get('sessionId');
  const ageVerify = query.get('ageVerify');
  const [paid, setPaid] = useState(false);

  useEffect(() => {
    if (!orderId) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let tries = 0;
    const controller = new AbortController();
    const check = () => {
      tries += 1;
      dashboardApi.lastPromotions(controller.signal).then(
        (promotions) => {
          if (promotions.some((p) => String(p.orderId) === orderId)) {
            setPaid(true);
            onPaid();
          } else if (tries < POLL_TIMES) timer = setTimeout(check, POLL_MS);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (isApiError(error, 401)) goToLogin();
          else if (tries < POLL_TIMES) timer = setTimeout(check, POLL_MS);
        },
      );
    };
    check();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [orderId, onPaid]);

  if (!orderId && !sessionId && ageVerify === null) return null;
  return (
    <div className="mt-4 space-y-3" data-query-messages>
      {orderId ? <FormNotice tone="success" message={paid ? t('dashboard.query.paid') : t('dashboard.query.processing')} /> : null}
      {sessionId ? (
        <div className="rounded-lg border border-slate-300 bg-white px-4 py-3 text-sm" role="status">
          {t('dashboard.query.session')}{' '}
          <AppLink router={backendRouter} href={`${backendPath('verification')}?sessionId=${encodeURIComponent(sessionId)}`} className="font-semibold text-brand-700 underline">
            {t('dashboard.query.sessionLink')}
          </AppLink>
        </div>
      ) : null}
      {ageVerify === 'true' ? <FormNotice tone="success" message={t('dashboard.query.ageVerified')} /> : null}
      {ageVerify !== null && ageVerify !== 'true' ? (
        <div className="space-y-2">
          <FormNotice message={t('dashboard.query.ageFailed')} />
          <AppLink router={backendRouter} href={backendPath('verification')} className="inline-block font-semibold text-brand-700 underline">
            {t('dashboard.query.tryAgain')}
          </AppLink>
        </div>
      ) : null}
    </div>
  );
}
