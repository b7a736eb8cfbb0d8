/**
 * /create (and /en/create/): the account and the advert draft (step 1, createprofile), then the emailed
 * link (step 2), then the SMS code (step 3). A sign-up completes by email (issue 15, docs/decisions/024):
 * after step 1 the screen always says "check your email", whether the address was new or has an account
 * (its owner is emailed instead; never "email taken"). The email's link opens this screen again with
 * `?confirm=<token>`, where the password chosen at sign-up confirms it (confirmsignup: signed in, the SMS
 * code sent); the token then leaves the address bar. A visitor who is already signed in is told so, with
 * a link to the dashboard. `?claim=<token>` is the invitation to take over an advert from the old site
 * (ClaimStep, issue 18), which goes on to the same SMS step.
 */
import { useEffect, useRef, useState } from 'react';
import type { CreateProfileInput } from '#lib/schemas/account.ts';
import { CheckEmailStep } from './CheckEmailStep.tsx';
import type { Messages } from '#lib/i18n/messages.ts';
import type { Locale } from '#lib/i18n/locales.ts';
import { frontendApi } from '#lib/api/frontend.ts';
import { SIGN_UP_LINK_HOURS } from '#lib/schemas/account.ts';
import { FormNotice } from '../form/Field.tsx';
import { accountTexts } from './texts.ts';
import { CreateProfileForm } from './CreateProfileForm.tsx';
import { ConfirmStep } from './ConfirmStep.tsx';
import { ClaimStep } from './ClaimStep.tsx';
import { PhoneStep } from './PhoneStep.tsx';

type Props = {
  messages: Messages;
  locale: Locale;
  termsHref: string;
  loginHref: string;
  forgotHref: string;
  createHref: string;
  dashboardHref: string;
};

type Step =
  | { n: 'form' }
  /** Sent: a sign-up link to a new address, or its owner's email to one with an account (told apart nowhere). */
  | { n: 'checkEmail'; input: CreateProfileInput }
  /** Opened from the emailed link: the password confirms the sign-up. */
  | { n: 'confirm'; token: string }
  /** Opened from the invitation to take over an advert from the old site (issue 18). */
  | { n: 'claim'; token: string }
  | { n: 'phone'; phone: string; codeId: number }
  | { n: 'done'; phoneConfirmed: boolean };

/** Which of the three steps a screen belongs to (1 form, 2 email, 3 phone). */
const STEP_NUMBER: Record<Step['n'], number> = { form: 1, checkEmail: 2, confirm: 2, claim: 2, phone: 3, done: 3 };

const primaryLink =
  'inline-flex h-11 w-full items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800';

export default function CreateAccount({ messages, locale, termsHref, loginHref, forgotHref, createHref, dashboardHref }: Props) {
  const texts = accountTexts(messages);
  const { t } = texts;
  const [step, setStep] = useState<Step>({ n: 'form' });
  const [signedIn, setSignedIn] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    // The emailed link: /create/?confirm=<token> (read once the island runs; the page itself is static).
    const query = new URLSearchParams(location.search);
    const token = query.get('confirm');
    const claim = query.get('claim');
    if (token) setStep({ n: 'confirm', token });
    else if (claim) setStep({ n: 'claim', token: claim });
    const controller = new AbortController();
    frontendApi.session(controller.signal).then(
      (session) => setSignedIn(session.signedIn),
      () => undefined,
    );
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (step.n !== 'form') heading.current?.focus();
  }, [step.n]);

  if (signedIn && step.n === 'form') {
    return (
      <div className="space-y-4">
        <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
          {t('create.already')}
        </p>
        <a href={dashboardHref} className={primaryLink}>
          {t('create.toDashboard')}
        </a>
      </div>
    );
  }

  const titles = [t('create.step1'), t('create.step2'), t('create.step3')];
  const headings: Record<Exclude<Step['n'], 'form'>, string> = {
    checkEmail: t('create.checkEmailHeading'),
    confirm: t('create.confirmHeading'),
    claim: t('claim.heading'),
    phone: t('create.phoneHeading'),
    done: t('create.doneHeading'),
  };
  return (
    <div>
      <ol aria-label={t('create.steps')} className="mb-6 flex flex-wrap gap-2 text-sm">
        {titles.map((title, index) => {
          const current = STEP_NUMBER[step.n] === index + 1;
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

      {step.n === 'form' ? (
        <>
          <p className="mb-6 text-slate-700">
            {t('create.intro')} {t('create.haveAccount')}{' '}
            <a href={loginHref} className="font-medium text-brand-700 underline">
              {t('create.loginLink')}
            </a>
          </p>
          <CreateProfileForm texts={texts} locale={locale} termsHref={termsHref} onSent={(input) => setStep({ n: 'checkEmail', input })} />
        </>
      ) : (
        <section aria-labelledby="create-step-heading" className="space-y-4">
          <h2 id="create-step-heading" ref={heading} tabIndex={-1} className="mb-4 text-xl font-semibold text-ink">
            {headings[step.n]}
          </h2>
          {step.n === 'checkEmail' ? (
            <CheckEmailStep texts={texts} input={step.input} linkHours={SIGN_UP_LINK_HOURS} />
          ) : step.n === 'confirm' ? (
            <ConfirmStep
              texts={texts}
              token={step.token}
              hrefs={{ login: loginHref, forgot: forgotHref, create: createHref }}
              onConfirmed={(confirmed) => {
                // The link is used up: keep its token out of the address bar and the history.
                history.replaceState(history.state, '', location.pathname);
                setStep({ n: 'phone', phone: confirmed.phone, codeId: confirmed.phoneVerificationId });
              }}
            />
          ) : step.n === 'claim' ? (
            <ClaimStep
              texts={texts}
              token={step.token}
              locale={locale}
              termsHref={termsHref}
              hrefs={{ login: loginHref, forgot: forgotHref }}
              onClaimed={(claimed) => {
                history.replaceState(history.state, '', location.pathname);
                setStep({ n: 'phone', phone: claimed.phone, codeId: claimed.phoneVerificationId });
              }}
            />
          ) : step.n === 'phone' ? (
            <PhoneStep
              texts={texts}
              phone={step.phone}
              codeId={step.codeId}
              onNewCode={(phone, codeId) => setStep({ ...step, phone, codeId })}
              onDone={() => setStep({ n: 'done', phoneConfirmed: true })}
              onLater={() => setStep({ n: 'done', phoneConfirmed: false })}
            />
          ) : (
            <div className="space-y-5">
              {step.phoneConfirmed ? <FormNotice tone="success" message={t('create.phoneDone')} /> : null}
              <p className="text-slate-700">{t('create.nextSteps')}</p>
              <a href={dashboardHref} className={primaryLink}>
                {t('create.toDashboard')}
              </a>
            </div>
          )}
        </section>
      )}
    </div>
  );
}
