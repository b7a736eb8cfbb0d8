/**
 * The dashboard's query parameters (spec §4): `orderId` after a purchase (until purchaseitem says Paid,
 * Failed or Expired, 'Payment is still processing…', asked again: ../commerce/PaymentStatus.tsx; with
 * `declined=1`, the provider's decline address, the refusal at once),
 * `sessionId` after an identity check (on to the verification screen), `ageVerify` (true or false) after
 * the age verification.
 */
import { useMemo } from 'react';
import type { TFunction } from 'i18next';
import { FormNotice } from '../../../components/form/Field.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { backendPath, backendRouter } from '../routes.ts';
import { PaymentStatus } from '../commerce/PaymentStatus.tsx';

export function QueryMessages({ t, onPaid }: { t: TFunction; onPaid: () => void }) {
  const query = useMemo(() => new URLSearchParams(location.search), []);
  const orderId = query.get('orderId');
  const sessionId = query.get('sessionId');
  const ageVerify = query.get('ageVerify');
  if (!orderId && !sessionId && ageVerify === null) return null;
  return (
    <div className="mt-4 space-y-3" data-query-messages>
      {orderId && /^\d{1,9}$/.test(orderId) ? <PaymentStatus orderId={Number(orderId)} t={t} onPaid={onPaid} declined={query.get('declined') === '1'} /> : null}
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
