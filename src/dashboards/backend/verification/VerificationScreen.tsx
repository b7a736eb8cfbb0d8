/**
 * /backend/verification/ (spec §2, §7 Verification; issue 6): why we verify (adults only, identity before
 * the advert goes live, files private and deleted 30 days after the decision), the state in words, and
 * three ways: the provider's online age check (ageestimation → its page), an ID document and a selfie or
 * a short video (./VerificationFiles.tsx), or the same upload on a phone through a QR code
 * (ageverificationbyqrcode). With `?sessionId=` (back from the provider) the page records the check on the
 * advert (updateidentification, spec §4) and says how it went.
 */
import { useEffect, useMemo, useState } from 'react';
import type { TFunction } from 'i18next';
import { isApiError } from '#lib/api/errors.ts';
import { formatDateTime } from '#lib/format.ts';
import { VERIFICATION_LIMITS, type HandoffLink } from '#lib/schemas/verification.ts';
import { FormNotice } from '../../../components/form/Field.tsx';
import { failureKey, primaryButton, secondaryButton } from '../../shared/form-text.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import type { BackendScreenProps } from '../screen-props.ts';
import { verificationApi } from './api.ts';
import { FileSlots, StateNotice, isOpenState } from './VerificationFiles.tsx';

export default function VerificationScreen({ profile }: BackendScreenProps) {
  const t = useAppT(backendI18n);
  const sessionId = useMemo(() => new URLSearchParams(location.search).get('sessionId'), []);
  const { state, reload } = useScreenData((signal) => verificationApi.load(null, signal));
  return (
    <ScreenShell
      id="verification-title"
      title={t('screens.verification')}
      intro={t('verification.intro')}
      aside={
        <>
          <Why t={t} />
          {sessionId ? <SessionResult t={t} sessionId={sessionId} advertId={profile.advertId ?? null} onDone={reload} /> : null}
        </>
      }
      state={state}
      loadError={t('verification.loadError')}
      onRetry={reload}
    >
      {(files) => (
        <div className="mt-6 space-y-6">
          <StateNotice t={t} files={files} />
          {files.onlineCheck && isOpenState(files.state) && files.state !== 'pending' ? <AgeCheck t={t} /> : null}
          <FileSlots t={t} files={files} handoff={null} onChanged={reload} onExpired={goToLogin} />
          {isOpenState(files.state) && files.state !== 'pending' ? <PhoneHandoff t={t} /> : null}
        </div>
      )}
    </ScreenShell>
  );
}

function Why({ t }: { t: TFunction }) {
  return (
    <ul className="mt-3 max-w-prose list-disc space-y-1 pl-5 text-slate-700" aria-label={t('verification.whyLabel')}>
      <li>{t('verification.why.adults')}</li>
      <li>{t('verification.why.beforeLive')}</li>
      <li>{t('verification.why.private', { days: VERIFICATION_LIMITS.filesKeptDays })}</li>
    </ul>
  );
}

type Outcome = { status: 'checking' } | { status: 'verified' } | { status: 'passedWaiting' } | { status: 'notVerified' } | { status: 'error'; key: string };

/**
 * Back from the provider with `?sessionId=`: record the check on the advert (updateidentification) and say
 * how it went. A passed check is not a verification: it waits for support, and the screen says so.
 */
function SessionResult({ t, sessionId, advertId, onDone }: { t: TFunction; sessionId: string; advertId: number | null; onDone: () => void }) {
  const [outcome, setOutcome] = useState<Outcome>({ status: 'checking' });
  useEffect(() => {
    let cancelled = false;
    const check = async (): Promise<Outcome['status']> => {
      const result = await verificationApi.checkSession(sessionId);
      if (!result.valid) return 'notVerified';
      if (advertId === null) return 'passedWaiting';
      return (await verificationApi.updateIdentification(advertId)).ageVerifiedAt !== null ? 'verified' : 'passedWaiting';
    };
    check().then(
      (status) => {
        if (cancelled) return;
        setOutcome({ status } as Outcome);
        onDone();
      },
      (error: unknown) => {
        if (cancelled) return;
        if (isApiError(error, 401)) return goToLogin();
        setOutcome({ status: 'error', key: isApiError(error, 404) ? 'unknownSession' : failureKey(error) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [sessionId, advertId, onDone]);
  if (outcome.status === 'checking') return <p role="status" className="mt-4 text-slate-700">{t('verification.session.checking')}</p>;
  if (outcome.status === 'verified') return <div className="mt-4"><FormNotice tone="success" message={t('verification.session.verified')} /></div>;
  if (outcome.status === 'passedWaiting') return <div className="mt-4" data-age-check-waiting><FormNotice tone="success" message={t('verification.session.passedWaiting')} /></div>;
  if (outcome.status === 'notVerified') return <div className="mt-4"><FormNotice message={t('verification.session.notVerified')} /></div>;
  return <div className="mt-4"><FormNotice message={t([`verification.refusal.${outcome.key}`, 'verification.session.failed'])} /></div>;
}

/** a. The provider's online check: a session, then its page. */
function AgeCheck({ t }: { t: TFunction }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function start() {
    setBusy(true);
    setError(null);
    try {
      const { uri } = await verificationApi.startAgeCheck();
      location.assign(uri);
    } catch (failure) {
      setBusy(false);
      if (isApiError(failure, 401)) return goToLogin();
      setError(t([`verification.refusal.${failureKey(failure)}`, 'verification.refusal.uploadFailed']));
    }
  }
  return (
    <section aria-labelledby="verification-online-title" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="verification-online-title" className="text-lg font-semibold text-ink">
        {t('verification.online.title')}
      </h2>
      <p className="mt-1 max-w-prose text-slate-700">{t('verification.online.intro')}</p>
      {error ? <div className="mt-3"><FormNotice message={error} /></div> : null}
      <button type="button" className={`${primaryButton} mt-4`} disabled={busy} onClick={() => void start()}>
        {busy ? t('verification.online.starting') : t('verification.online.start')}
      </button>
    </section>
  );
}

/** c. Continue on the phone: a QR code with a link that works for 30 minutes. */
function PhoneHandoff({ t }: { t: TFunction }) {
  const [link, setLink] = useState<HandoffLink | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function make() {
    setBusy(true);
    setError(null);
    try {
      setLink(await verificationApi.handoff());
    } catch (failure) {
      if (isApiError(failure, 401)) return goToLogin();
      setError(t([`verification.refusal.${failureKey(failure)}`, 'verification.refusal.uploadFailed']));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section aria-labelledby="verification-phone-title" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="verification-phone-title" className="text-lg font-semibold text-ink">
        {t('verification.phone.title')}
      </h2>
      <p className="mt-1 max-w-prose text-slate-700">{t('verification.phone.intro', { minutes: VERIFICATION_LIMITS.handoffMinutes })}</p>
      {error ? <div className="mt-3"><FormNotice message={error} /></div> : null}
      {link ? (
        <div className="mt-4 flex flex-wrap items-start gap-6" data-handoff>
          <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(link.qrSvg)}`} alt={t('verification.phone.qrAlt')} width={192} height={192} className="h-48 w-48 rounded-lg border border-slate-200 bg-white p-2" />
          <div className="min-w-0 flex-1 space-y-2 text-sm">
            <p className="text-slate-700">{t('verification.phone.orOpen')}</p>
            <p>
              <a href={link.url} className="break-all font-medium text-brand-700 underline" data-handoff-link>
                {link.url}
              </a>
            </p>
            <p className="text-slate-700">{t('verification.phone.expires', { time: formatDateTime(link.expiresAt) })}</p>
            <p className="text-slate-700">{t('verification.phone.reload')}</p>
          </div>
        </div>
      ) : null}
      <button type="button" className={`${link ? secondaryButton : primaryButton} mt-4`} disabled={busy} onClick={() => void make()}>
        {link ? t('verification.phone.newCode') : t('verification.phone.start')}
      </button>
    </section>
  );
}
