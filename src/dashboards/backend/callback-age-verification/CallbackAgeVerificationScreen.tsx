/**
 * /backend/callback-age-verification/?sessionId=… (spec §4): where the age-verification provider sends the
 * browser back. checksession: not valid with a uri → the browser goes to it (the provider's page again, or
 * a new session to try again); valid → updateidentification for the advert, then the dashboard with
 * `ageVerify=true` (which says the check passed and waits for support: a check alone verifies no one);
 * not valid without a uri → the dashboard with `ageVerify=false`. The provider not answering (503
 * providerUnavailable) says to try again later.
 */
import { useEffect, useMemo, useState } from 'react';
import { isApiError } from '#lib/api/errors.ts';
import { FormNotice } from '../../../components/form/Field.tsx';
import { AppLink } from '../../shared/AppLink.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { backendPath, backendRouter } from '../routes.ts';
import type { BackendScreenProps } from '../screen-props.ts';
import { verificationApi } from '../verification/api.ts';

export default function CallbackAgeVerificationScreen({ profile }: BackendScreenProps) {
  const t = useAppT(backendI18n);
  const sessionId = useMemo(() => new URLSearchParams(location.search).get('sessionId'), []);
  const [failed, setFailed] = useState<null | 'failed' | 'providerUnavailable'>(null);
  const advertId = profile.advertId ?? null;

  useEffect(() => {
    if (!sessionId) return;
    const controller = new AbortController();
    const dashboard = (valid: boolean) => location.assign(`${backendPath('dashboard')}?ageVerify=${valid ? 'true' : 'false'}`);
    (async () => {
      const result = await verificationApi.checkSession(sessionId, controller.signal);
      if (!result.valid && result.uri) {
        location.assign(result.uri);
        return;
      }
      // The provider's callback usually recorded the check already; this records it when it came late.
      if (result.valid && advertId !== null) await verificationApi.updateIdentification(advertId);
      dashboard(result.valid);
    })().catch((error: unknown) => {
      if (controller.signal.aborted) return;
      if (isApiError(error, 401)) return goToLogin();
      console.warn('The age check could not be read', error);
      setFailed(isApiError(error, 503) ? 'providerUnavailable' : 'failed');
    });
    return () => controller.abort();
  }, [sessionId, advertId]);

  return (
    <section aria-labelledby="callback-age-title">
      <h1 id="callback-age-title" className="text-2xl font-bold tracking-tight text-ink">
        {t('screens.callbackAgeVerification')}
      </h1>
      {sessionId && !failed ? (
        <p role="status" className="mt-4 text-slate-700">
          {t('callbackAgeVerification.checking')}
        </p>
      ) : (
        <div className="mt-4 space-y-3">
          <FormNotice message={t(sessionId ? `callbackAgeVerification.${failed ?? 'failed'}` : 'callbackAgeVerification.noSession')} />
          <AppLink router={backendRouter} href={backendPath('verification')} className="inline-block font-semibold text-brand-700 underline">
            {t('callbackAgeVerification.toVerification')}
          </AppLink>
        </div>
      )}
    </section>
  );
}
