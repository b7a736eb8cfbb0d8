/**
 * The support app (/support/...), client-only. Guard: GET /api/support/supportprofile; signed out →
 * /support/login/?redirectTo={path and query}; a screen the user's permissions do not open → the first page
 * of their first permission (spec section 6). Screens that later issues build show "coming".
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { supportApi } from '#lib/api/support.ts';
import { isApiError } from '#lib/api/errors.ts';
import { $locale } from '#lib/stores/locale.ts';
import Toaster from '../../components/Toaster.tsx';
import { AppFrame, type NavGroup } from '../shared/AppFrame.tsx';
import { AppLink } from '../shared/AppLink.tsx';
import { ComingScreen } from '../shared/ComingScreen.tsx';
import { LanguageSwitch } from '../shared/LanguageSwitch.tsx';
import { StatusScreen } from '../shared/StatusScreen.tsx';
import { useAppT } from '../shared/use-t.ts';
import { supportI18n } from './i18n.ts';
import { supportPath, supportRouter } from './routes.ts';
import { canOpen, landingRoute, requiresSignIn, supportNav } from './permissions.ts';
import { $supportProfile } from './session.ts';
import { LoginScreen, afterLogin } from './login/LoginScreen.tsx';
import { LogOutScreen } from './log-out/LogOutScreen.tsx';

export default function SupportApp() {
  const t = useAppT(supportI18n);
  const page = useStore(supportRouter);
  const profile = useStore($supportProfile);
  const locale = useStore($locale);
  const [loadError, setLoadError] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const route = page?.route;
  const isLogOut = route === 'logOut';

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  // Who is signed in (once, and again after "try again").
  useEffect(() => {
    if (isLogOut || $supportProfile.get() !== undefined) return;
    const controller = new AbortController();
    setLoadError(false);
    supportApi.supportProfile(controller.signal).then(
      (value) => $supportProfile.set(value),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isApiError(error, 401) || isApiError(error, 403)) $supportProfile.set(null);
        else setLoadError(true);
      },
    );
    return () => controller.abort();
  }, [isLogOut, attempt]);

  // Guards: sign-in, permissions, signed-in users on the login screen.
  const permissions = profile?.permissions ?? [];
  useEffect(() => {
    if (profile === undefined) return;
    if ((!page || requiresSignIn(page.route)) && profile === null) {
      const target = `${location.pathname}${location.search}`;
      supportRouter.open(`${supportPath('login')}?redirectTo=${encodeURIComponent(target)}`, true);
      return;
    }
    if (!page) return;
    if (profile && page.route === 'login') {
      const target = afterLogin(page.search['redirectTo'], profile.permissions);
      if (target) supportRouter.open(target, true);
      return;
    }
    if (profile && (page.route === 'root' || !canOpen(page.route, profile.permissions))) {
      const landing = landingRoute(profile.permissions);
      if (landing) supportRouter.open(supportPath(landing), true);
      else supportRouter.open(`${supportPath('login')}?noPermission=1`, true);
    }
  }, [page, profile]);

  const screenTitle = route && route !== 'root' ? t(`screens.${route}`) : t('app.title');
  useEffect(() => {
    document.title = `${screenTitle} | ${t('app.title')}`;
  }, [screenTitle, t]);

  const languageSwitch = (
    <LanguageSwitch label={t('common:language.label')} names={{ da: t('common:languages.da'), en: t('common:languages.en') }} />
  );

  if (isLogOut) return <LogOutScreen text={t('app.signingOut')} />;

  if (loadError) {
    return (
      <StatusScreen>
        <p>{t('app.loadError')}</p>
        <button type="button" className="mt-4 rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white" onClick={() => setAttempt((n) => n + 1)}>
          {t('app.retry')}
        </button>
      </StatusScreen>
    );
  }

  // Sign-in screens: a card without the sidebar.
  if (route === 'login' || route === 'forgot' || route === 'change') {
    if (route === 'login' && profile === undefined) return <StatusScreen>{t('app.loading')}</StatusScreen>;
    if (route === 'login' && profile && landingRoute(profile.permissions)) return <StatusScreen>{t('app.loading')}</StatusScreen>;
    return (
      <SignInCard title={t('app.title')} languageSwitch={languageSwitch}>
        {route === 'login' ? (
          <LoginScreen
            t={t}
            i18n={supportI18n}
            router={supportRouter}
            redirectTo={page?.search['redirectTo']}
            noPermission={page?.search['noPermission'] === '1' || (profile !== null && profile !== undefined)}
          />
        ) : (
          <>
            <ComingScreen title={screenTitle} text={t('app.coming')} />
            <p className="mt-6 text-sm">
              <AppLink router={supportRouter} href={supportPath('login')} className="font-medium text-brand-700 underline">
                {t('login.backToLogin')}
              </AppLink>
            </p>
          </>
        )}
      </SignInCard>
    );
  }

  if (profile === undefined || profile === null || !page || !canOpen(page.route, permissions) || route === 'root') {
    if (!page && profile) {
      return (
        <Frame t={t} permissions={permissions} route={undefined} name={profile.name} languageSwitch={languageSwitch}>
          <ComingScreen title={t('app.title')} text={t('app.notFound')} />
        </Frame>
      );
    }
    return <StatusScreen>{t('app.loading')}</StatusScreen>;
  }

  return (
    <Frame t={t} permissions={permissions} route={route} name={profile.name} languageSwitch={languageSwitch}>
      <ComingScreen title={screenTitle} text={t('app.coming')} />
    </Frame>
  );
}

type FrameProps = {
  t: ReturnType<typeof useAppT>;
  permissions: readonly string[];
  route: string | undefined;
  name: string;
  languageSwitch: ReactNode;
  children: ReactNode;
};

function Frame({ t, permissions, route, name, languageSwitch, children }: FrameProps) {
  const groups: NavGroup[] = supportNav
    .filter(({ permission }) => permissions.includes(permission))
    .map(({ permission, routes }) => ({
      label: t(`permissions.${permission}`),
      items: routes.map((r) => ({ href: supportPath(r), label: t(`screens.${r}`), current: route === r })),
    }));
  groups.push({ label: name, items: [{ href: supportPath('logOut'), label: t('screens.logOut'), current: false }] });
  const landing = landingRoute(permissions);
  return (
    <>
      <AppFrame
        router={supportRouter}
        title={t('app.title')}
        homeHref={landing ? supportPath(landing) : supportPath('login')}
        navLabel={t('app.nav')}
        openMenuLabel={t('app.openMenu')}
        closeMenuLabel={t('app.closeMenu')}
        groups={groups}
        topRight={
          <>
            <span className="hidden text-sm text-slate-600 md:inline" data-signed-in-as>
              {t('app.signedInAs', { name })}
            </span>
            {languageSwitch}
          </>
        }
      >
        {children}
      </AppFrame>
      <Toaster closeLabel={t('common:toast.close')} regionLabel={t('common:toast.region')} />
    </>
  );
}

function SignInCard({ title, languageSwitch, children }: { title: string; languageSwitch: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <header className="flex h-14 items-center justify-between border-b border-slate-200 bg-white px-4">
        <span className="font-bold text-ink">{title}</span>
        {languageSwitch}
      </header>
      <main id="main" className="flex flex-1 items-start justify-center p-4 md:items-center">
        <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8">{children}</div>
      </main>
    </div>
  );
}
