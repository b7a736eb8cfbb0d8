/**
 * /create (and /en/create/): one flow that creates the account and the advert draft (step 1, createprofile,
 * which signs in), confirms the phone with the SMS code (step 2) and asks to open the email link (step 3).
 * For an address that has an account already, createprofile creates nothing and emails the owner; the
 * flow then asks to check that mailbox (never "email taken", issue 15).
 * A visitor who is already signed in is told so, with a link to the dashboard.
 */
import { useEffect, useRef, useState } from 'react';
import type { Messages } from '#lib/i18n/messages.ts';
import type { Locale } from '#lib/i18n/locales.ts';
import { frontendApi } from '#lib/api/frontend.ts';
import { accountTexts } from './texts.ts';
import { CreateProfileForm } from './CreateProfileForm.tsx';
import { PhoneStep } from './PhoneStep.tsx';
import { EmailStep } from './EmailStep.tsx';

type Props = { messages: Messages; locale: Locale; termsHref: string; loginHref: string; dashboardHref: string };

type Step =
  | { n: 1 }
  | { n: 2; email: string; phone: string; codeId: number }
  | { n: 3; email: string; phoneConfirmed: boolean }
  /** The address has an account already: its owner got an email (sign in or reset); nothing was created. */
  | { n: 'checkEmail'; email: string };

export default function CreateAccount({ messages, locale, termsHref, loginHref, dashboardHref }: Props) {
  const texts = accountTexts(messages);
  const { t } = texts;
  const [step, setStep] = useState<Step>({ n: 1 });
  const [signedIn, setSignedIn] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    frontendApi.session(controller.signal).then(
      (session) => setSignedIn(session.signedIn),
      () => undefined,
    );
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (step.n !== 1) heading.current?.focus();
  }, [step.n]);

  if (signedIn && step.n === 1) {
    return (
      <div className="space-y-4">
        <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
          {t('create.already')}
        </p>
        <a
          href={dashboardHref}
          className="inline-flex h-11 w-full items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800"
        >
          {t('create.toDashboard')}
        </a>
      </div>
    );
  }

  const titles = [t('create.step1'), t('create.step2'), t('create.step3')];
  return (
    <div>
      <ol aria-label={t('create.steps')} className="mb-6 flex flex-wrap gap-2 text-sm">
        {titles.map((title, index) => {
          const current = step.n === index + 1;
          return (
            <li
              key={title}
              aria-current={current ? 'step' : undefined}
              className={`rounded-full border px-3 py-1 ${
                current ? 'border-brand-700 bg-brand-50 font-semibold text-brand-800' : 'border-slate-300 text-slate-700'
              }`}
            >
              <span className="sr-only">{t('create.stepOf', { step: index + 1 })}: </span>
              {title}
            </li>
          );
        })}
      </ol>

      {step.n === 1 ? (
        <>
          <p className="mb-6 text-slate-700">
            {t('create.intro')} {t('create.haveAccount')}{' '}
            <a href={loginHref} className="font-medium text-brand-700 underline">
              {t('create.loginLink')}
            </a>
          </p>
          <CreateProfileForm
            texts={texts}
            locale={locale}
            termsHref={termsHref}
            onCreated={(created) => setStep('checkEmail' in created ? { n: 'checkEmail', email: created.email } : { n: 2, ...created })}
          />
        </>
      ) : step.n === 'checkEmail' ? (
        <section aria-labelledby="create-step-heading" className="space-y-4">
          <h2 id="create-step-heading" ref={heading} tabIndex={-1} className="mb-4 text-xl font-semibold text-ink">
            {t('create.checkEmailHeading')}
          </h2>
          <p role="status" className="text-slate-700">
            {t('create.checkEmailText', { email: step.email })}
          </p>
          <a href={loginHref} className="inline-flex h-11 w-full items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800">
            {t('create.loginLink')}
          </a>
        </section>
      ) : (
        <section aria-labelledby="create-step-heading">
          <h2 id="create-step-heading" ref={heading} tabIndex={-1} className="mb-4 text-xl font-semibold text-ink">
            {step.n === 2 ? t('create.phoneHeading') : t('create.emailHeading')}
          </h2>
          {step.n === 2 ? (
            <PhoneStep
              texts={texts}
              phone={step.phone}
              codeId={step.codeId}
              onNewCode={(phone, codeId) => setStep({ ...step, phone, codeId })}
              onDone={() => setStep({ n: 3, email: step.email, phoneConfirmed: true })}
              onLater={() => setStep({ n: 3, email: step.email, phoneConfirmed: false })}
            />
          ) : (
            <EmailStep texts={texts} email={step.email} phoneConfirmed={step.phoneConfirmed} dashboardHref={dashboardHref} />
          )}
        </section>
      )}
    </div>
  );
}
