/**
 * Step 3 of /create: the email link (sent by createprofile) confirms the address when opened; the
 * advertiser can have it sent again (sendemail) and goes on to the dashboard.
 */
import { useState } from 'react';
import { FormNotice } from '../form/Field.tsx';
import type { AccountTexts } from './texts.ts';
import { fieldErrorsOf } from '#lib/api/errors.ts';
import { sendVerificationEmail } from './api.ts';

type Props = { texts: AccountTexts; email: string; phoneConfirmed: boolean; dashboardHref: string };

export function EmailStep({ texts, email, phoneConfirmed, dashboardHref }: Props) {
  const { t, field } = texts;
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function resend() {
    setSending(true);
    setStatus(null);
    setError(null);
    try {
      await sendVerificationEmail();
      setStatus(t('create.emailResent', { email }));
    } catch (failure) {
      const reason = fieldErrorsOf(failure)[0]?.message;
      setError(reason ? (field(reason) ?? null) : failure instanceof TypeError ? t('errors.network') : t('errors.generic'));
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="space-y-5">
      {phoneConfirmed ? <FormNotice tone="success" message={t('create.phoneDone')} /> : null}
      <p className="text-slate-700">{t('create.emailText', { email })}</p>
      <p role="status" className="text-sm font-medium text-emerald-800 empty:hidden">
        {status}
      </p>
      <FormNotice message={error} />
      <button
        type="button"
        onClick={() => void resend()}
        disabled={sending}
        className="inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 bg-white px-4 font-semibold text-ink hover:bg-slate-50 disabled:opacity-70"
      >
        {sending ? t('create.emailResending') : t('create.emailResend')}
      </button>
      <p className="text-slate-700">{t('create.nextSteps')}</p>
      <a
        href={dashboardHref}
        className="inline-flex h-11 w-full items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800"
      >
        {t('create.toDashboard')}
      </a>
    </div>
  );
}
