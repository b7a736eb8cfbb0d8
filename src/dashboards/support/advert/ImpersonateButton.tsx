/**
 * "Sign in as the advertiser" on support's advert screen (issue 6, impersonation): asks the server for a
 * one-time link (POST /api/support/impersonation, ProfileId; the Support role only) and opens it in this
 * tab: /impersonate/ uses it up and lands on the advertiser's dashboard with the impersonation banner,
 * whose Stop comes back to /support/adverts/{id}/. A refusal (401 sends to sign-in) says so here.
 */
import { useState } from 'react';
import { isApiError } from '#lib/api/errors.ts';
import { supportApi } from '#lib/api/support.ts';
import { failureKey, noticeText, secondaryButton } from '../../shared/form-text.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { useAppT } from '../../shared/use-t.ts';
import { supportI18n } from '../i18n.ts';

export function ImpersonateButton({ advertId }: { advertId: number }) {
  const t = useAppT(supportI18n);
  const [state, setState] = useState<'idle' | 'working' | { failed: string }>('idle');

  function start() {
    setState('working');
    supportApi.impersonation(advertId).then(
      (link) => location.assign(link.url),
      (error: unknown) => {
        if (isApiError(error, 401)) {
          goToLogin();
          return;
        }
        const key = failureKey(error);
        setState({ failed: key === 'errors.generic' ? t('impersonate.failed') : (noticeText(t, key) ?? t('impersonate.failed')) });
      },
    );
  }

  return (
    <div className="w-full space-y-2 border-t border-slate-200 pt-3">
      <button type="button" className={secondaryButton} onClick={start} disabled={state === 'working'}>
        {state === 'working' ? t('impersonate.working') : t('impersonate.button')}
      </button>
      <p className="text-sm text-slate-600">{t('impersonate.hint')}</p>
      {typeof state === 'object' ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {state.failed}
        </p>
      ) : null}
    </div>
  );
}
