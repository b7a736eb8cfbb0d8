/**
 * /create's second screen after the form (issue 31, item 7): check your email, and a button that sends
 * the email again. Sending again posts the same sign-up once more (createprofile, kept in memory only):
 * for an address whose sign-up waits for its link the server sends a new link, and for any other it
 * does what the first sending did, so the screen still tells nothing about the address. The server sends
 * a new link at most once a minute (SIGN_UP_RESEND_SECONDS): the button waits as long after each sending,
 * and says how long, so "sent again" is never said of an email that was not sent.
 */
import { useEffect, useState } from 'react';
import { frontendApi } from '#lib/api/frontend.ts';
import { fieldErrorsOf } from '#lib/api/errors.ts';
import { SIGN_UP_RESEND_SECONDS, type CreateProfileInput } from '#lib/schemas/account.ts';
import { FormNotice } from '../form/Field.tsx';
import type { AccountTexts } from './texts.ts';
import { secondaryButton } from './buttons.ts';

type Props = { texts: AccountTexts; input: CreateProfileInput; linkHours: number };

export function CheckEmailStep({ texts, input, linkHours }: Props) {
  const { t, field } = texts;
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Seconds until the email can be sent again (from the first sending on). */
  const [wait, setWait] = useState(SIGN_UP_RESEND_SECONDS);
  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((left) => left - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  async function sendAgain() {
    setSending(true);
    setSent(null);
    setError(null);
    try {
      await frontendApi.createProfile(input);
      setSent(t('create.emailSentAgain', { email: input.Email }));
      setWait(SIGN_UP_RESEND_SECONDS);
    } catch (failure) {
      const reason = fieldErrorsOf(failure)[0]?.message;
      setError(reason ? (field(reason) ?? t('errors.generic')) : failure instanceof TypeError ? t('errors.network') : t('errors.generic'));
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="space-y-4">
      <div role="status" className="space-y-3 text-slate-700">
        <p>{t('create.checkEmailText', { email: input.Email })}</p>
        <p>{t('create.checkEmailLifetime', { hours: linkHours })}</p>
        <p>{t('create.checkEmailNothingElse')}</p>
        <p>{t('create.checkEmailSpam')}</p>
      </div>
      <p role="status" className="font-medium text-emerald-800" data-email-sent-again>
        {sent}
      </p>
      <FormNotice message={error} />
      <button type="button" onClick={() => void sendAgain()} disabled={sending || wait > 0} className={secondaryButton} data-send-again>
        {sending ? t('create.resending') : t('create.sendEmailAgain')}
      </button>
      {wait > 0 ? (
        <p className="text-sm text-slate-700" data-send-again-wait>
          {t('create.sendEmailAgainWait', { seconds: wait })}
        </p>
      ) : null}
    </div>
  );
}
