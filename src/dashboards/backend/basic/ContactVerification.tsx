/**
 * Whether the account's email and phone are confirmed, with a way to confirm them: a new email link
 * (sendemail), or an SMS code (sendsms, then codeverification).
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { isApiError } from '#lib/api/errors.ts';
import type { UserProfile } from '#lib/api/types.ts';
import { Field, controlClass } from '../../../components/form/Field.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { basicApi } from './api.ts';
import { failureKey, fieldText, noticeText } from '../../shared/form-text.ts';

type Props = { profile: UserProfile; reloadProfile: () => void; t: TFunction };

function Badge({ ok, t }: { ok: boolean; t: TFunction }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ${ok ? 'bg-emerald-100 text-emerald-900' : 'bg-amber-100 text-amber-900'}`}
    >
      {ok ? t('basic.verified') : t('basic.notVerified')}
    </span>
  );
}

export function ContactVerification({ profile, reloadProfile, t }: Props) {
  const [emailMessage, setEmailMessage] = useState<string | null>(null);
  const [phoneMessage, setPhoneMessage] = useState<string | null>(null);
  const [codeId, setCodeId] = useState<number | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>(undefined);

  async function sendEmail() {
    setEmailMessage(null);
    try {
      await basicApi.sendEmail();
      setEmailMessage(t('basic.linkSent'));
    } catch (error) {
      if (isApiError(error, 401)) return goToLogin();
      setEmailMessage(noticeText(t, failureKey(error)));
    }
  }

  async function sendCode() {
    setPhoneMessage(null);
    try {
      const sent = await basicApi.sendSms();
      setCodeId(sent.id);
      setPhoneMessage(t('basic.codeSent'));
    } catch (error) {
      if (isApiError(error, 401)) return goToLogin();
      setPhoneMessage(noticeText(t, failureKey(error)));
    }
  }

  async function confirmCode(event: React.FormEvent) {
    event.preventDefault();
    if (codeId === null) return;
    setCodeError(undefined);
    try {
      await basicApi.verifyCode(codeId, code);
      setCodeId(null);
      setCode('');
      setPhoneMessage(t('basic.phoneConfirmed'));
      reloadProfile();
    } catch (error) {
      if (isApiError(error, 401)) return goToLogin();
      setCodeError(fieldText(t, failureKey(error).replace(/^errors\..*/, 'invalid')));
    }
  }

  return (
    <section className="mt-6 rounded-xl border border-slate-200 bg-white p-4" aria-labelledby="contact-verification-title">
      <h2 id="contact-verification-title" className="text-lg font-semibold text-ink">
        {t('basic.verificationTitle')}
      </h2>
      <div className="mt-3 space-y-3">
        <div>
          <h3 className="text-sm font-semibold text-ink">{t('basic.email')}</h3>
          <div className="mt-1 flex flex-wrap items-center gap-3">
            <span className="text-slate-800">{profile.email}</span>
            <Badge ok={profile.emailVerified} t={t} />
            {profile.emailVerified ? null : (
              <button type="button" onClick={sendEmail} className="text-sm font-semibold text-brand-700 underline">
                {t('basic.sendNewLink')}
              </button>
            )}
          </div>
          {emailMessage ? (
            <p role="status" className="mt-1 text-sm text-slate-800">
              {emailMessage}
            </p>
          ) : null}
        </div>
        <div>
          <h3 className="text-sm font-semibold text-ink">{t('basic.accountPhone')}</h3>
          <div className="mt-1 flex flex-wrap items-center gap-3">
            <Badge ok={profile.phoneVerified} t={t} />
            {profile.phoneVerified ? null : (
              <button type="button" onClick={sendCode} className="text-sm font-semibold text-brand-700 underline">
                {t('basic.sendCode')}
              </button>
            )}
          </div>
          {phoneMessage ? (
            <p role="status" className="mt-1 text-sm text-slate-800">
              {phoneMessage}
            </p>
          ) : null}
          {codeId !== null ? (
            <form onSubmit={confirmCode} noValidate className="mt-2 flex flex-wrap items-end gap-3">
              <Field id="basic-sms-code" label={t('basic.code')} error={codeError}>
                {(c) => (
                  <input
                    {...c}
                    value={code}
                    onChange={(event) => setCode(event.target.value)}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    className={controlClass(!!codeError, 'h-11 w-40')}
                  />
                )}
              </Field>
              <button type="submit" className="min-h-11 rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800">
                {t('basic.confirmCode')}
              </button>
            </form>
          ) : null}
        </div>
      </div>
    </section>
  );
}
