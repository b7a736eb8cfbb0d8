/**
 * /support/login/: email + password (react-hook-form + valibot), POST /api/support/login; then redirectTo
 * (when it is a support page) or the first page of the user's first permission.
 */
import type { i18n, TFunction } from 'i18next';
import { supportApi } from '#lib/api/support.ts';
import { validationKey } from '#lib/i18n/validation.ts';
import CredentialsForm from '../../../components/CredentialsForm.tsx';
import { safeRedirect } from '../../../components/safe-redirect.ts';
import { AppLink, type AppNavigator } from '../../shared/AppLink.tsx';
import { $supportProfile } from '../session.ts';
import { landingRoute } from '../permissions.ts';
import { supportPath } from '../routes.ts';

type Props = { t: TFunction; i18n: i18n; router: AppNavigator; redirectTo: string | undefined; noPermission: boolean };

/** Where to go after signing in. */
export function afterLogin(redirectTo: string | undefined, permissions: readonly string[]): string | null {
  const landing = landingRoute(permissions);
  if (!landing) return null;
  const fallback = supportPath(landing);
  const target = safeRedirect(redirectTo, '/support/', fallback);
  return target.startsWith('/support/login') || target.startsWith('/support/log-out') ? fallback : target;
}

export function LoginScreen({ t, i18n, router, redirectTo, noPermission }: Props) {
  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight text-ink">{t('login.title')}</h1>
      {noPermission ? (
        <p role="alert" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          {t('app.noPermission')}
        </p>
      ) : null}
      <div className="mt-6">
        <CredentialsForm
          idPrefix="support-login"
          text={{
            email: t('login.email'),
            password: t('login.password'),
            submit: t('login.submit'),
            submitting: t('login.submitting'),
            wrongCredentials: t('login.wrongCredentials'),
            generic: t('common:errors.generic'),
            network: t('common:errors.network'),
          }}
          translate={(message) => t(`common:${validationKey(message, (key) => i18n.exists(`common:${key}`))}`)}
          onSubmit={async (values) => {
            const profile = await supportApi.login(values);
            $supportProfile.set(profile);
            const target = afterLogin(redirectTo, profile.permissions);
            if (target) router.open(target, true);
          }}
        />
      </div>
      <p className="mt-6 text-sm">
        <AppLink router={router} href={supportPath('forgot')} className="font-medium text-brand-700 underline">
          {t('login.forgot')}
        </AppLink>
      </p>
    </div>
  );
}
