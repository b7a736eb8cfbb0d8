/**
 * /backend/advert-package/: the current package in plain words (what it gives, days left, ends or renews on
 * dd-MM-yyyy, paid until), a renewing subscription's cancel (confirmed first, then on to the card
 * provider's cancel page, decision 038; also opened by the reminder's link `?cancelSubscription={id}`,
 * decision 025: a GET link never changes anything itself), and the way to buy or extend.
 */
import { useMemo, useState } from 'react';
import { isApiError } from '#lib/api/errors.ts';
import { formatDate } from '#lib/format.ts';
import { toast } from '#lib/stores/toasts.ts';
import { FormNotice } from '../../../components/form/Field.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import { primaryButton, secondaryButton } from '../../shared/form-text.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { backendPath, backendRouter } from '../routes.ts';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import type { BackendScreenProps } from '../screen-props.ts';
import { buyFailureText } from './buy-errors.ts';
import { commerceApi, type PromotionsAnswer } from './api.ts';

const cardClass = 'rounded-xl border border-slate-200 bg-white p-5';
const DAY_MS = 86_400_000;

export default function AdvertPackageScreen({ reloadProfile }: BackendScreenProps) {
  const t = useAppT(backendI18n);
  const { state, reload } = useScreenData((signal) => commerceApi.promotions(1, signal));
  return (
    <div className="max-w-3xl">
      <ScreenShell id="advert-package-heading" title={t('screens.advertPackage')} state={state} loadError={t('commerce.loadError')} onRetry={reload}>
        {(offer) => (
          <PackageView
            offer={offer}
            onCancelled={() => {
              reload();
              reloadProfile();
            }}
          />
        )}
      </ScreenShell>
    </div>
  );
}

function PackageView({ offer, onCancelled }: { offer: PromotionsAnswer; onCancelled: () => void }) {
  const t = useAppT(backendI18n);
  const asked = useMemo(() => new URLSearchParams(location.search).get('cancelSubscription'), []);
  const subscription = offer.subscription;
  const [confirming, setConfirming] = useState(subscription !== null && asked === String(subscription.id));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const until = offer.runningUntil;
  const daysLeft = until ? Math.max(0, Math.ceil((new Date(until).getTime() - Date.now()) / DAY_MS)) : 0;

  async function cancel() {
    if (!subscription) return;
    setConfirming(false);
    setBusy(true);
    setError(null);
    try {
      const answer = await commerceApi.cancelSubscription(subscription.id);
      // The renewal is stopped on the provider's own page; it counts once the provider says so.
      if (answer.cancelUrl) return location.assign(answer.cancelUrl);
      toast({ title: t('commerce.package.cancelled'), variant: 'success' });
      onCancelled();
    } catch (failure) {
      if (isApiError(failure, 401)) return goToLogin();
      setError(buyFailureText(t, failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mt-6 space-y-6">
      <section aria-labelledby="package-now-title" className={cardClass} data-package>
        <h2 id="package-now-title" className="text-lg font-semibold text-ink">
          {t('commerce.package.nowTitle')}
        </h2>
        {until ? (
          <>
            <p className="mt-2 text-slate-800">{t('commerce.package.includes')}</p>
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-800">
              <dt className="font-medium">{t('commerce.package.paidUntil')}</dt>
              <dd data-paid-until>{formatDate(until)}</dd>
              <dt className="font-medium">{t('commerce.package.daysLeftLabel')}</dt>
              <dd data-days-left>{t('commerce.days', { count: daysLeft })}</dd>
              <dt className="font-medium">{t('commerce.renewal')}</dt>
              <dd data-renewal>
                {subscription?.nextChargeOn
                  ? t('commerce.package.renewsOn', { date: formatDate(subscription.nextChargeOn) })
                  : t('commerce.package.endsOn', { date: formatDate(until) })}
              </dd>
            </dl>
          </>
        ) : offer.waitingDays > 0 ? (
          <p className="mt-2 text-slate-800" data-package-waiting>
            {t('commerce.package.waiting', { days: offer.waitingDays })}
          </p>
        ) : (
          <p className="mt-2 text-slate-800" data-no-package>
            {t('commerce.package.none')}
          </p>
        )}
        {subscription ? (
          <div className="mt-4 space-y-3">
            <p className="text-slate-800">{t('commerce.package.cancelExplain')}</p>
            <FormNotice message={error} />
            <button type="button" className={secondaryButton} disabled={busy} onClick={() => setConfirming(true)}>
              {t('commerce.package.cancel')}
            </button>
          </div>
        ) : null}
      </section>
      <p>
        <AppLink router={backendRouter} href={backendPath('buyAdvertPackage')} className={`${primaryButton} inline-block`}>
          {until ? t('commerce.package.extend') : t('commerce.package.buy')}
        </AppLink>
      </p>
      <ConfirmDialog
        open={confirming}
        title={t('commerce.package.confirmTitle')}
        body={t('commerce.package.confirmBody', { date: until ? formatDate(until) : '' })}
        confirmLabel={t('commerce.package.confirm')}
        cancelLabel={t('commerce.package.keep')}
        onConfirm={() => void cancel()}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
