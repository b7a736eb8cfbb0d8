/**
 * The advertiser app (/backend/...), client-only. Guard: GET /api/backend/userprofile; a 401 sends the
 * browser to /login/?redirectTo={this path and query}; the one exception is the verification page opened
 * from the QR code on a phone (`/backend/verification/?handoff=…`), which needs no session. Each screen is its own chunk (./screens.ts);
 * screens that later issues build show "coming".
 */
import { Suspense, useCallback, useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { backendApi } from '#lib/api/backend.ts';
import { isApiError } from '#lib/api/errors.ts';
import type { UserProfile } from '#lib/api/types.ts';
import { $locale } from '#lib/stores/locale.ts';
import Toaster from '../../components/Toaster.tsx';
import { currentPathAndQuery } from '../../components/safe-redirect.ts';
import { AppFrame, type NavGroup } from '../shared/AppFrame.tsx';
import { ComingScreen } from '../shared/ComingScreen.tsx';
import { LanguageSwitch } from '../shared/LanguageSwitch.tsx';
import { StatusScreen } from '../shared/StatusScreen.tsx';
import { useAppT } from '../shared/use-t.ts';
import { backendI18n } from './i18n.ts';
import { backendNav, backendPath, backendRouter, handoffOf } from './routes.ts';
import { LogOutScreen } from './log-out/LogOutScreen.tsx';
import { ImpersonationBanner } from './ImpersonationBanner.tsx';
import { HandoffScreen, backendScreens } from './screens.ts';

type Session = { status: 'loading' } | { status: 'ready'; profile: UserProfile } | { status: 'error' };

export default function BackendApp() {
  const t = useAppT(backendI18n);
  const page = useStore(backendRouter);
  const locale = useStore($locale);
  const [session, setSession] = useState<Session>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [profileVersion, setProfileVersion] = useState(0);
  const reloadProfile = useCallback(() => setProfileVersion((n) => n + 1), []);
  const isLogOut = page?.route === 'logOut';
  // The QR code's link: no session needed (the token stands in for it), so no userprofile and no guard.
  const handoff = handoffOf(page);

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  useEffect(() => {
    if (page?.route === 'root') backendRouter.open(backendPath('dashboard') + location.search, true);
  }, [page?.route]);

  useEffect(() => {
    if (isLogOut || handoff) return;
    const controller = new AbortController();
    backendApi.userProfile(controller.signal).then(
      (profile) => setSession({ status: 'ready', profile }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // A failed refresh keeps the screen that is open.
        if (profileVersion > 0 && !isApiError(error, 401)) return;
        if (isApiError(error, 401)) {
          location.assign(`/login/?redirectTo=${encodeURIComponent(currentPathAndQuery())}`);
          return;
        }
        setSession({ status: 'error' });
      },
    );
    return () => controller.abort();
  }, [isLogOut, handoff, attempt, profileVersion]);

  const screenTitle = page && page.route !== 'root' ? t(`screens.${page.route}`) : t('app.title');
  useEffect(() => {
    document.title = `${screenTitle} | ${t('app.title')}`;
  }, [screenTitle, t]);

  if (isLogOut) return <LogOutScreen text={t('app.signingOut')} />;
  const languageSwitch = <LanguageSwitch label={t('common:language.label')} names={{ da: t('common:languages.da'), en: t('common:languages.en') }} />;
  if (handoff) {
    return (
      <>
        <AppFrame
          router={backendRouter}
          title={t('app.title')}
          homeHref={`${backendPath('verification')}?handoff=${encodeURIComponent(handoff)}`}
          navLabel={t('app.nav')}
          openMenuLabel={t('app.openMenu')}
          closeMenuLabel={t('app.closeMenu')}
          groups={[]}
          topRight={languageSwitch}
        >
          <Suspense fallback={<p className="text-slate-700">{t('app.loading')}</p>}>
            <HandoffScreen handoff={handoff} />
          </Suspense>
        </AppFrame>
        <Toaster closeLabel={t('common:toast.close')} regionLabel={t('common:toast.region')} />
      </>
    );
  }
  if (session.status === 'loading' || page?.route === 'root') return <StatusScreen>{t('app.loading')}</StatusScreen>;
  if (session.status === 'error') {
    return (
      <StatusScreen>
        <p>{t('app.loadError')}</p>
        <button type="button" className="mt-4 rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white" onClick={() => setAttempt((n) => n + 1)}>
          {t('app.retry')}
        </button>
      </StatusScreen>
    );
  }

  function renderScreen() {
    if (!page || page.route === 'root' || session.status !== 'ready') return <ComingScreen title={t('app.title')} text={t('app.notFound')} />;
    const Screen = backendScreens[page.route];
    if (!Screen) return <ComingScreen title={screenTitle} text={t('app.coming')} />;
    return (
      <Suspense fallback={<p className="text-slate-700">{t('app.loading')}</p>}>
        <Screen key={page.route} profile={session.profile} reloadProfile={reloadProfile} />
      </Suspense>
    );
  }

  const groups: NavGroup[] = backendNav.map(({ group, routes }) => ({
    label: t(`groups.${group}`),
    items: routes.map((route) => ({ href: backendPath(route), label: t(`screens.${route}`), current: page?.route === route })),
  }));

  return (
    <>
      <AppFrame
        router={backendRouter}
        title={t('app.title')}
        homeHref={backendPath('dashboard')}
        navLabel={t('app.nav')}
        openMenuLabel={t('app.openMenu')}
        closeMenuLabel={t('app.closeMenu')}
        groups={groups}
        topRight={
          <>
            <a href={locale === 'en' ? '/en/' : '/'} className="hidden text-sm font-medium text-slate-700 underline md:inline">
              {t('app.backToSite')}
            </a>
            {languageSwitch}
          </>
        }
      >
        {session.profile.impersonation ? <ImpersonationBanner t={t} impersonation={session.profile.impersonation} /> : null}
        {renderScreen()}
      </AppFrame>
      <Toaster closeLabel={t('common:toast.close')} regionLabel={t('common:toast.region')} />
    </>
  );
}
