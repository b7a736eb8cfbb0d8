/**
 * Advertiser login (/login/): signed-in users go straight to the dashboard (or `redirectTo`); a successful
 * POST /api/frontend/login does the same. The right password of a profile deleted less than 30 days ago is
 * refused with `profileDeleted`: the island then offers to restore it (restoreprofile with the same email
 * and password), which signs in and goes on to the dashboard; after 30 days (`restoreExpired`) it says so.
 */
import { useEffect, useRef, useState } from 'react';
import { messagesT, type Messages } from '#lib/i18n/messages.ts';
import { validationKey } from '#lib/i18n/validation.ts';
import { frontendApi } from '#lib/api/frontend.ts';
import type { SignInInput } from '#lib/schemas/sign-in.ts';
import CredentialsForm from './CredentialsForm.tsx';
import { FormNotice } from './form/Field.tsx';
import { fieldErrorsOf } from '#lib/api/errors.ts';
import { safeRedirect } from './safe-redirect.ts';

type Props = { messages: Messages };

const DASHBOARD = '/backend/dashboard/';

function destination(): string {
  return safeRedirect(new URLSearchParams(location.search).get('redirectTo'), '/backend/', DASHBOARD);
}

export default function LoginForm({ messages }: Props) {
  const t = messagesT(messages);
  const translate = (message: string) => t(validationKey(message, (key) => key in messages));
  /** The credentials of a deleted, restorable profile (kept only in memory, for restoreprofile). */
  const [deleted, setDeleted] = useState<SignInInput | null>(null);
  const [restoring, setRestoring] = useState(false);
  const [restoreError, setRestoreError] = useState<string | null>(null);
  /** The right password of a profile deleted more than 30 days ago: too late to restore it. */
  const [expired, setExpired] = useState(false);
  const restoreHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    // Signed in already: on to the dashboard (the session call answers 200 either way: no 401 in the console).
    frontendApi.session(controller.signal).then(
      (answer) => {
        if (answer.signedIn) location.replace(destination());
      },
      () => undefined,
    );
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (deleted) restoreHeading.current?.focus();
  }, [deleted]);

  async function restore() {
    if (!deleted) return;
    setRestoring(true);
    setRestoreError(null);
    try {
      await frontendApi.restoreProfile({ Email: deleted.email, Password: deleted.password });
      location.assign(destination());
    } catch (error) {
      const reason = fieldErrorsOf(error)[0]?.message;
      setRestoreError(reason ? translate(reason) : error instanceof TypeError ? t('errors.network') : t('errors.generic'));
      setRestoring(false);
    }
  }

  return (
    <>
      {deleted ? (
        <section aria-labelledby="restore-heading" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 px-4 py-4 text-amber-950">
          <h2 id="restore-heading" ref={restoreHeading} tabIndex={-1} className="text-lg font-semibold">
            {t('restore.title')}
          </h2>
          <p className="mt-1 text-sm">{t('restore.text')}</p>
          <div className="mt-3 space-y-3">
            <FormNotice message={restoreError} />
            <button
              type="button"
              onClick={() => void restore()}
              disabled={restoring}
              className="inline-flex h-11 w-full items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
            >
              {restoring ? t('restore.submitting') : t('restore.submit')}
            </button>
          </div>
        </section>
      ) : null}
      {expired ? (
        <div className="mb-5">
          <FormNotice message={translate('restoreExpired')} />
        </div>
      ) : null}
      <CredentialsForm
        idPrefix="login"
        text={{
          email: t('login.email'),
          password: t('login.password'),
          submit: t('login.submit'),
          submitting: t('login.submitting'),
          wrongCredentials: t('login.wrongCredentials'),
          generic: t('errors.generic'),
          network: t('errors.network'),
          tooMany: t('errors.tooMany'),
        }}
        translate={translate}
        onSubmit={async (values) => {
          setDeleted(null);
          setExpired(false);
          try {
            await frontendApi.login(values);
          } catch (error) {
            const reasons = fieldErrorsOf(error).map((e) => e.message);
            if (reasons.includes('profileDeleted')) {
              setDeleted(values);
              return;
            }
            if (reasons.includes('restoreExpired')) {
              setExpired(true);
              return;
            }
            throw error;
          }
          location.assign(destination());
        }}
      />
    </>
  );
}
