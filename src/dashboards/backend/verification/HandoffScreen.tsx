/**
 * /backend/verification/?handoff={token}: the verification page opened from the QR code on a phone,
 * WITHOUT a session (the backend app lets this one address past its sign-in guard). The token stands in
 * for the session on the upload, look and delete calls, so only the upload part is shown. An expired or
 * ended link (401 `handoffExpired`) says to scan a new QR code.
 */
import { useCallback, useState } from 'react';
import { isApiError } from '#lib/api/errors.ts';
import { useScreenData } from '../../shared/screen-data.tsx';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { ScreenShell } from '../screen-data.tsx';
import { verificationApi, type VerificationFiles } from './api.ts';
import { FileSlots, StateNotice } from './VerificationFiles.tsx';

export default function HandoffScreen({ handoff }: { handoff: string }) {
  const t = useAppT(backendI18n);
  const [expired, setExpired] = useState(false);
  const { state, reload } = useScreenData<VerificationFiles | 'expired'>(async (signal) => {
    try {
      return await verificationApi.load(handoff, signal);
    } catch (error) {
      // Any 401 here is the link (there is no session to end).
      if (isApiError(error, 401)) return 'expired';
      throw error;
    }
  });
  const [submitted, setSubmitted] = useState(false);
  const onExpired = useCallback(() => setExpired(true), []);
  // Sending the last file ends the link (the verification went to support): say so instead of loading again.
  const onSubmitted = useCallback(() => setSubmitted(true), []);
  return (
    <ScreenShell id="verification-title" title={t('screens.verification')} intro={t('verification.handoff.intro')} state={state} loadError={t('verification.loadError')} onRetry={reload}>
      {(files) =>
        submitted ? (
          <div className="mt-6 rounded-xl border border-emerald-300 bg-emerald-50 p-5" role="status">
            <p className="font-semibold text-ink">{t('verification.handoff.submitted')}</p>
          </div>
        ) : files === 'expired' || expired ? (
          <div className="mt-6 rounded-xl border border-red-300 bg-red-50 p-5" role="alert">
            <p className="font-semibold text-ink">{t('verification.refusal.handoffExpired')}</p>
          </div>
        ) : (
          <div className="mt-6 space-y-6">
            <StateNotice t={t} files={files} />
            <FileSlots t={t} files={files} handoff={handoff} onChanged={reload} onExpired={onExpired} onSubmitted={onSubmitted} />
          </div>
        )
      }
    </ScreenShell>
  );
}
