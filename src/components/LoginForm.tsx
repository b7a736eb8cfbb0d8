/**
 * Advertiser login (/login/): signed-in users go straight to the dashboard (or `redirectTo`); a successful
 * POST /api/frontend/login does the same.
 */
import { useEffect } from 'react';
import { messagesT, type Messages } from '#lib/i18n/messages.ts';
import { validationKey } from '#lib/i18n/validation.ts';
import { backendApi } from '#lib/api/backend.ts';
import { frontendApi } from '#lib/api/frontend.ts';
import CredentialsForm from './CredentialsForm.tsx';
import { safeRedirect } from './safe-redirect.ts';

type Props = { messages: Messages };

const DASHBOARD = '/backend/dashboard/';

function destination(): string {
  return safeRedirect(new URLSearchParams(location.search).get('redirectTo'), '/backend/', DASHBOARD);
}

export default function LoginForm({ messages }: Props) {
  const t = messagesT(messages);

  useEffect(() => {
    const controller = new AbortController();
    backendApi.userProfile(controller.signal).then(
      () => location.replace(destination()),
      () => undefined,
    );
    return () => controller.abort();
  }, []);

  return (
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
      }}
      translate={(message) => t(validationKey(message, (key) => key in messages))}
      onSubmit={async (values) => {
        await frontendApi.login(values);
        location.assign(destination());
      }}
    />
  );
}
