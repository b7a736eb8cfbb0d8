/**
 * The support app (/support/...), client-only. Guard: GET /api/support/supportprofile; signed out →
 * /support/login/?redirectTo={path and query}; a screen the user's permissions do not open → the first page
 * of their first permission (spec section 6), or two-factor/ for a user whose only permission,
 * Administration, waits for two-step sign-in. The profile is fetched again on every move to another
 * screen, so a removed permission or an ended session shows at the next navigation. Each screen is its own
 * chunk (./screens.ts); screens that later issues build show "coming".
 */
import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { supportApi } from '#lib/api/support.ts';
import { isApiError } from '#lib/api/errors.ts';
import type { SupportProfile } from '#lib/api/types.ts';
import { $locale } from '#lib/stores/locale.ts';
import Toaster from '../../components/Toaster.tsx';
import { AppFrame, type NavGroup } from '../shared/AppFrame.tsx';
import { AppLink } from '../shared/AppLink.tsx';
import { ComingScreen } from '../shared/ComingScreen.tsx';
import { LanguageSwitch } from '../shared/LanguageSwitch.tsx';
import { StatusScreen } from '../shared/StatusScreen.tsx';
import { useAppT } from '../shared/use-t.ts';
import { supportI18n } from './i18n.ts';
import { supportPath, supportRouter, type SupportRoute } from './routes.ts';
import { accountNav, canOpen, guardTarget, landingRoute, supportNav } from './permissions.ts';
import { $supportProfile, reloadSupportProfile } from './session.ts';
import { LogOutScreen } from './log-out/LogOutScreen.tsx';
import { supportScreens } from './screens.ts';

const SIGN_IN_ROUTES: readonly SupportRoute[] = ['login', 'forgot', 'change'];

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

  // Who is signed in (once, and again after "try again"). On the sign-in screens most visitors have no
  // session: ask first (the session call answers 200 either way), so their console shows no 401.
  const onSignInScreen = page !== null && page !== undefined && SIGN_IN_ROUTES.includes(page.route);
  useEffect(() => {
    if (isLogOut || $supportProfile.get() !== undefined) return;
    const controller = new AbortController();
    setLoadError(false);
    const hasSession = onSignInScreen ? supportApi.session(controller.signal).then((answer) => answer.signedIn) : Promise.resolve(true);
    hasSession
      .then((signedIn) => (signedIn ? supportApi.supportProfile(controller.signal) : null))
      .then(
        (value) => $supportProfile.set(value),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (isApiError(error, 401) || isApiError(error, 403)) $supportProfile.set(null);
          else setLoadError(true);
        },
      );
    return () => controller.abort();
  }, [isLogOut, attempt, onSignInScreen]);

  // On every move to another screen: the profile again (permissions may have changed, the session ended).
  const path = page?.path;
  useEffect(() => {
    if (isLogOut || !$supportProfile.get()) return;
    const controller = new AbortController();
    reloadSupportProfile(controller.signal).catch((error: unknown) => {
      if (!controller.signal.aborted) console.warn('Support profile could not be refreshed', error);
    });
    return () => controller.abort();
  }, [path, isLogOut]);

  // Guards: sign-in, permissions, signed-in users on the login screen.
  useEffect(() => {
    if (profile === undefined) return;
    if (!page) {
      // An unknown support path: only signed-out users are sent anywhere (to sign in).
      if (profile === null) supportRouter.open(`${supportPath('login')}?redirectTo=${encodeURIComponent(`${location.pathname}${location.search}`)}`, true);
      return;
    }
    const target = guardTarget(page.route, profile, `${location.pathname}${location.search}`, page.search['redirectTo']);
    if (target) supportRouter.open(target, true);
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

  const loading = <StatusScreen>{t('app.loading')}</StatusScreen>;

  function renderScreen(current: NonNullable<typeof page>, signedIn: SupportProfile | null) {
    const Screen = supportScreens[current.route];
    if (!Screen) return <ComingScreen title={screenTitle} text={t('app.coming')} />;
    return (
      <Suspense fallback={<p className="text-slate-700">{t('app.loading')}</p>}>
        <Screen key={current.route} profile={signedIn} params={current.params} search={current.search} />
      </Suspense>
    );
  }

  // Sign-in screens: a card without the sidebar.
  if (page && SIGN_IN_ROUTES.includes(page.route)) {
    if (page.route === 'login' && profile === undefined) return loading;
    if (page.route === 'login' && profile && landingRoute(profile.permissions, profile.twoFactorRequired)) return loading;
    return (
      <SignInCard title={t('app.title')} languageSwitch={languageSwitch}>
        {renderScreen(page, profile ?? null)}
      </SignInCard>
    );
  }

  if (profile === undefined || profile === null) return loading;
  if (!page) {
    return (
      <Frame t={t} profile={profile} route={undefined} languageSwitch={languageSwitch}>
        <ComingScreen title={t('app.title')} text={t('app.notFound')} />
      </Frame>
    );
  }
  if (page.route === 'root' || !canOpen(page.route, profile.permissions, profile.twoFactorRequired)) return loading;

  return (
    <Frame t={t} profile={profile} route={page.route} languageSwitch={languageSwitch}>
      {renderScreen(page, profile)}
    </Frame>
  );
}

type FrameProps = {
  t: ReturnType<typeof useAppT>;
  profile: SupportProfile;
  route: SupportRoute | undefined;
  languageSwitch: ReactNode;
  children: ReactNode;
};

function Frame({ t, profile, route, languageSwitch, children }: FrameProps) {
  const { permissions, name } = profile;
  const groups: NavGroup[] = supportNav
    .filter(({ permission }) => permissions.includes(permission))
    .map(({ permission, routes }) => ({
      label: t(`permissions.${permission}`),
      items: routes.map((r) => ({ href: supportPath(r), label: t(`screens.${r}`), current: route === r })),
    }));
  groups.push({ label: name, items: accountNav.map((r) => ({ href: supportPath(r), label: t(`screens.${r}`), current: route === r })) });
  const landing = landingRoute(permissions, profile.twoFactorRequired);
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
        {profile.twoFactorRequired && route !== 'twoFactor' ? (
          <p className="mb-6 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950" data-two-factor-notice>
            {t('twoFactorNotice.text')}{' '}
            <AppLink router={supportRouter} href={supportPath('twoFactor')} className="font-semibold underline">
              {t('twoFactorNotice.link')}
            </AppLink>
          </p>
        ) : null}
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
