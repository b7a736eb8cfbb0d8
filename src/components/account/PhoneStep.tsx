/**
 * Step 2 of /create: the code from the SMS (codeverification with the code's id). The advertiser can ask
 * for a new code (sendsms) or correct a mistyped number (sendsms with Phone: the code goes to the new
 * number, which then becomes the account's), or confirm later from the dashboard.
 */
import { useState } from 'react';
import * as v from 'valibot';
import { frontendApi } from '#lib/api/frontend.ts';
import { CodeVerificationSchema, danishPhone } from '#lib/schemas/account.ts';
import { Field, FormNotice, SubmitButton, controlClass } from '../form/Field.tsx';
import { useApiForm } from '../form/use-api-form.ts';
import type { AccountTexts } from './texts.ts';
import { primaryButton, secondaryButton } from './buttons.ts';
import { fieldErrorsOf } from '#lib/api/errors.ts';

const CodeSchema = v.object({ Code: CodeVerificationSchema.entries.Code }, 'required');
const PhoneSchema = v.object({ Phone: danishPhone }, 'required');

/** "+45 20 30 40 50" for the 8 digits of a Danish number. */
export function displayPhone(phone: string): string {
  return /^\d{8}$/.test(phone) ? `+45 ${phone.replace(/(\d{2})(?=\d)/g, '$1 ')}` : phone;
}

type Props = {
  texts: AccountTexts;
  phone: string;
  codeId: number;
  onNewCode: (phone: string, codeId: number) => void;
  onDone: () => void;
  onLater: () => void;
};


export function PhoneStep({ texts, phone, codeId, onNewCode, onDone, onLater }: Props) {
  const { t, field } = texts;
  const [status, setStatus] = useState<string | null>(null);
  const [resendError, setResendError] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const [correcting, setCorrecting] = useState(false);

  const codeForm = useApiForm({
    schema: CodeSchema,
    defaultValues: { Code: '' },
    onValid: async ({ Code }) => {
      await frontendApi.codeVerification(codeId, Code);
      onDone();
    },
  });

  const phoneForm = useApiForm({
    schema: PhoneSchema,
    defaultValues: { Phone: '' },
    onValid: async ({ Phone }) => {
      setStatus(null);
      const sent = await frontendApi.sendSms(Phone);
      onNewCode(Phone, sent.id);
      setCorrecting(false);
      phoneForm.reset({ Phone: '' });
      codeForm.reset({ Code: '' });
      setStatus(t('create.resent', { phone: displayPhone(Phone) }));
    },
  });

  async function resend() {
    setResending(true);
    setStatus(null);
    setResendError(null);
    try {
      const sent = await frontendApi.sendSms();
      onNewCode(phone, sent.id);
      setStatus(t('create.resent', { phone: displayPhone(phone) }));
    } catch (error) {
      const reason = fieldErrorsOf(error)[0]?.message;
      setResendError(reason ? (field(reason) ?? null) : error instanceof TypeError ? t('errors.network') : t('errors.generic'));
    } finally {
      setResending(false);
    }
  }

  const codeErrors = codeForm.formState.errors;
  const phoneErrors = phoneForm.formState.errors;
  return (
    <div className="space-y-6">
      <p className="text-slate-700">{t('create.phoneText', { phone: displayPhone(phone) })}</p>
      <p role="status" className="text-sm font-medium text-emerald-800 empty:hidden">
        {status}
      </p>
      <form method="post" noValidate onSubmit={codeForm.submit} className="space-y-5">
        <FormNotice message={texts.notice(codeForm.notice)} />
        <Field id="create-code" label={t('create.code')} required error={field(codeErrors.Code?.message)}>
          {(control) => (
            <input
              {...control}
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              className={controlClass(Boolean(codeErrors.Code), 'h-11 text-lg tracking-widest sm:max-w-48')}
              {...codeForm.register('Code')}
            />
          )}
        </Field>
        <SubmitButton busy={codeForm.formState.isSubmitting} className={primaryButton}>
          {codeForm.formState.isSubmitting ? t('create.verifying') : t('create.verify')}
        </SubmitButton>
      </form>

      <div className="space-y-3 border-t border-slate-200 pt-5">
        <FormNotice message={resendError} />
        <div className="flex flex-wrap gap-3">
          <button type="button" onClick={() => void resend()} disabled={resending} className={secondaryButton}>
            {resending ? t('create.resending') : t('create.resend')}
          </button>
          <button type="button" aria-expanded={correcting} onClick={() => setCorrecting((open) => !open)} className={secondaryButton}>
            {t('create.wrongNumber')}
          </button>
          <button type="button" onClick={onLater} className="min-h-11 px-2 font-medium text-brand-700 underline">
            {t('create.later')}
          </button>
        </div>
        {correcting ? (
          <form method="post" noValidate onSubmit={phoneForm.submit} className="space-y-4 rounded-lg border border-slate-200 p-4">
            <FormNotice message={texts.notice(phoneForm.notice)} />
            <Field id="create-new-phone" label={t('create.newPhone')} hint={t('create.phoneHint')} required error={field(phoneErrors.Phone?.message)}>
              {(control) => (
                <input
                  {...control}
                  type="tel"
                  autoComplete="tel-national"
                  inputMode="tel"
                  className={controlClass(Boolean(phoneErrors.Phone), 'h-11')}
                  {...phoneForm.register('Phone')}
                />
              )}
            </Field>
            <SubmitButton busy={phoneForm.formState.isSubmitting} className={secondaryButton}>
              {phoneForm.formState.isSubmitting ? t('create.resending') : t('create.changePhone')}
            </SubmitButton>
          </form>
        ) : null}
      </div>
    </div>
  );
}
