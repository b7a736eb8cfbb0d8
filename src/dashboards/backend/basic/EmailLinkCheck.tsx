/**
 * The emailed link opens /backend/basic/?url={token}: confirms the address once (emailverification) and
 * says so, or says the link is invalid or expired and offers a new one (sendemail).
 */
import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { isApiError } from '#lib/api/errors.ts';
import { FormNotice } from '../../../components/form/Field.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { basicApi } from './api.ts';
import { failureKey, noticeText } from '../../shared/form-text.ts';

type State = { status: 'checking' } | { status: 'confirmed' } | { status: 'failed'; message: string };

/** Links already sent to the server from this page (a link works once; effects may run twice). */
const checked = new Map<string, Promise<unknown>>();

export function EmailLinkCheck({ token, t, reloadProfile }: { token: string; t: TFunction; reloadProfile: () => void }) {
  const [state, setState] = useState<State>({ status: 'checking' });
  const [resent, setResent] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    let request = checked.get(token);
    if (!request) {
      request = basicApi.verifyEmail(token);
      checked.set(token, request);
    }
    request.then(
      () => {
        if (!active) return;
        setState({ status: 'confirmed' });
        reloadProfile();
      },
      (error: unknown) => {
        if (!active) return;
        if (isApiError(error, 401)) return goToLogin();
        const key = failureKey(error);
        setState({ status: 'failed', message: noticeText(t, key) ?? '' });
      },
    );
    return () => {
      active = false;
    };
  }, [token, t, reloadProfile]);

  async function sendNewLink() {
    setResent(null);
    try {
      await basicApi.sendEmail();
      setResent(t('basic.linkSent'));
    } catch (error) {
      if (isApiError(error, 401)) return goToLogin();
      const key = failureKey(error);
      setResent(noticeText(t, key));
    }
  }

  if (state.status === 'checking') {
    return (
      <p className="mt-4 text-slate-700" role="status">
        {t('basic.checkingLink')}
      </p>
    );
  }
  if (state.status === 'confirmed') {
    return (
      <div className="mt-4">
        <FormNotice tone="success" message={t('basic.emailConfirmed')} />
      </div>
    );
  }
  return (
    <div className="mt-4 space-y-3">
      <FormNotice message={state.message} />
      <button type="button" onClick={sendNewLink} className="min-h-11 rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800">
        {t('basic.sendNewLink')}
      </button>
      {resent ? (
        <p role="status" className="text-sm text-slate-800">
          {resent}
        </p>
      ) : null}
    </div>
  );
}
