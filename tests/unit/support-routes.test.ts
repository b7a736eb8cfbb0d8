import { describe, expect, it } from 'vitest';
import { accountNav, afterLogin, canOpen, guardTarget, landingRoute, requiresSignIn, routePermission, supportNav, type GuardProfile } from '../../src/dashboards/support/permissions.ts';
import { supportRouter, supportPath, type SupportRoute } from '../../src/dashboards/support/routes.ts';
import { backendRouter, backendNav, backendPath, handoffOf } from '../../src/dashboards/backend/routes.ts';
import { relativeAge } from '../../src/dashboards/support/dashboard/relative-age.ts';
import { loginPathFor } from '../../src/dashboards/shared/session-ended.ts';
import daSupport from '#lib/i18n/da/support.json' with { type: 'json' };
import enSupport from '#lib/i18n/en/support.json' with { type: 'json' };
import daBackend from '#lib/i18n/da/backend.json' with { type: 'json' };
import enBackend from '#lib/i18n/en/backend.json' with { type: 'json' };

function match(router: typeof supportRouter | typeof backendRouter, path: string) {
  router.open(path);
  return router.get();
}

describe('support permissions (spec section 6)', () => {
  it('sends a user to the first page of their first permission', () => {
    expect(landingRoute(['Support', 'SEO'])).toBe('dashboard');
    expect(landingRoute(['SEO', 'Support'])).toBe('landingPages');
    expect(landingRoute(['Administration'])).toBe('users');
    expect(landingRoute(['Unknown', 'SEO'])).toBe('landingPages');
    expect(landingRoute([])).toBeNull();
  });

  it('opens a screen only with its permission', () => {
    expect(canOpen('orders', ['Support'])).toBe(true);
    expect(canOpen('orders', ['Administration'])).toBe(false);
    expect(canOpen('landingPages', ['SEO'])).toBe(true);
    expect(canOpen('matchedKeyword', ['Support'])).toBe(false);
    expect(canOpen('users', ['Administration'])).toBe(true);
    expect(canOpen('statistics', ['SEO'])).toBe(false);
    expect(canOpen('login', [])).toBe(true);
    expect(requiresSignIn('login')).toBe(false);
    expect(requiresSignIn('dashboard')).toBe(true);
  });

  it('goes after login to a safe redirectTo or the landing page', () => {
    expect(afterLogin('/support/orders/', ['Support'])).toBe('/support/orders/');
    expect(afterLogin(undefined, ['Administration'])).toBe('/support/users/');
    expect(afterLogin('https://evil.test/support/', ['Support'])).toBe('/support/dashboard/');
    expect(afterLogin('//evil.test/support/', ['Support'])).toBe('/support/dashboard/');
    expect(afterLogin('/backend/dashboard/', ['SEO'])).toBe('/support/landing-pages/');
    expect(afterLogin('/support/login/', ['SEO'])).toBe('/support/landing-pages/');
    expect(afterLogin('/support/orders/', [])).toBeNull();
  });

  it('sends a user whose only permission, Administration, waits for two-step sign-in to two-factor/', () => {
    // The profile leaves Administration out until two-step sign-in is on (twoFactorRequired).
    expect(landingRoute([], true)).toBe('twoFactor');
    expect(landingRoute(['Support'], true)).toBe('dashboard');
    expect(landingRoute([], false)).toBeNull();
    expect(afterLogin(undefined, [], true)).toBe('/support/two-factor/');
    expect(afterLogin('/support/users/', [], true)).toBe('/support/users/');
    expect(canOpen('users', [], true)).toBe(false);
    expect(canOpen('root', [], true)).toBe(true);
    expect(canOpen('root', [], false)).toBe(false);
  });

  it('opens two-factor/ to any signed-in support user, from the sidebar under their name', () => {
    expect(routePermission.twoFactor).toBe('signedIn');
    expect(requiresSignIn('twoFactor')).toBe(true);
    expect(canOpen('twoFactor', [])).toBe(true);
    expect(canOpen('twoFactor', ['SEO'])).toBe(true);
    expect(accountNav).toEqual(['twoFactor', 'logOut']);
    expect(supportPath('twoFactor')).toBe('/support/two-factor/');
  });

  it('signs in again at the login of the app the page belongs to', () => {
    expect(loginPathFor('/support/users/3/')).toBe('/support/login/');
    expect(loginPathFor('/support')).toBe('/support/login/');
    expect(loginPathFor('/backend/pictures/')).toBe('/login/');
    expect(loginPathFor('/supporters/')).toBe('/login/');
  });
});

describe('the age of the oldest item on the support dashboard', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it('is just now, minutes, hours or days ago', () => {
    expect(relativeAge('2026-11-22T11:59:30Z', now)).toEqual({ unit: 'justNow' });
    expect(relativeAge('2026-11-22T12:00:30Z', now)).toEqual({ unit: 'justNow' });
    expect(relativeAge('2026-11-22T11:59:00Z', now)).toEqual({ unit: 'minutes', count: 1 });
    expect(relativeAge('2026-11-22T11:01:00Z', now)).toEqual({ unit: 'minutes', count: 59 });
    expect(relativeAge('2026-11-22T09:00:00Z', now)).toEqual({ unit: 'hours', count: 3 });
    expect(relativeAge('2026-11-21T12:00:01Z', now)).toEqual({ unit: 'hours', count: 23 });
    expect(relativeAge('2026-11-19T11:00:00Z', now)).toEqual({ unit: 'days', count: 3 });
  });
});

describe('app routes (spec section 2)', () => {
  it('matches every support route, with parameters and trailing slashes', () => {
    expect(match(supportRouter, '/support/')?.route).toBe('root');
    expect(match(supportRouter, '/support/login/forgot/')?.route).toBe('forgot');
    expect(match(supportRouter, '/support/adverts/12/')?.params).toEqual({ id: '12', section: '', subsection: '' });
    expect(match(supportRouter, '/support/adverts/12/media/pictures/')?.params).toEqual({ id: '12', section: 'media', subsection: 'pictures' });
    expect(match(supportRouter, '/support/matched-keywords/k%C3%B8benhavn/')?.params).toEqual({ keyword: 'københavn' });
    expect(match(supportRouter, '/support/news/3/')?.route).toBe('newsItem');
    expect(match(supportRouter, '/support/two-factor/')?.route).toBe('twoFactor');
    expect(match(supportRouter, '/support/users/new/')?.params).toEqual({ id: 'new' });
    expect(match(supportRouter, '/support/users/?text=anna&skip=50')).toMatchObject({ route: 'users', search: { text: 'anna', skip: '50' } });
    expect(match(supportRouter, '/support/nope/')).toBeUndefined();
    expect(supportPath('contentReports')).toBe('/support/content-reports/');
    expect(match(supportRouter, '/support/appeals/?status=decided')).toMatchObject({ route: 'appeals', search: { status: 'decided' } });
    expect(match(supportRouter, '/support/appeals/12/')?.params).toEqual({ id: '12' });
    expect(supportPath('appeals')).toBe('/support/appeals/');
    expect(match(supportRouter, '/support/validation/?status=decided&skip=50')).toMatchObject({ route: 'validation', search: { status: 'decided', skip: '50' } });
    expect(match(supportRouter, '/support/validation/12/')?.params).toEqual({ id: '12' });
    expect(match(supportRouter, '/support/review/?kind=media')).toMatchObject({ route: 'review', search: { kind: 'media' } });
    expect(match(supportRouter, '/support/review-adverts/?kind=new&skip=50')).toMatchObject({ route: 'reviewAdverts', search: { kind: 'new', skip: '50' } });
    expect(match(supportRouter, '/support/review-adverts/12/')?.params).toEqual({ id: '12' });
    expect(supportPath('review')).toBe('/support/review/');
    expect(supportPath('reviewAdverts')).toBe('/support/review-adverts/');
    expect(match(supportRouter, '/support/adverts/?email=anna%40example.test&skip=50')).toMatchObject({ route: 'adverts', search: { email: 'anna@example.test', skip: '50' } });
    expect(match(supportRouter, '/support/adverts/12/history/?skip=25')).toMatchObject({ route: 'advert', params: { id: '12', section: 'history', subsection: '' }, search: { skip: '25' } });
    expect(match(supportRouter, '/support/adverts/12/media/deleted/')?.params).toEqual({ id: '12', section: 'media', subsection: 'deleted' });
    expect(supportPath('adverts')).toBe('/support/adverts/');
    expect(match(supportRouter, '/support/pending-reviews/?skip=50')).toMatchObject({ route: 'pendingReviews', search: { skip: '50' } });
    expect(match(supportRouter, '/support/pending-reviews/12/')).toMatchObject({ route: 'pendingReview', params: { id: '12' } });
    expect(supportPath('pendingReviews')).toBe('/support/pending-reviews/');
  });

  it('matches every backend route', () => {
    expect(match(backendRouter, '/backend/')?.route).toBe('root');
    expect(match(backendRouter, '/backend/dashboard/?orderId=5')).toMatchObject({ route: 'dashboard', search: { orderId: '5' } });
    expect(match(backendRouter, '/backend/promotion/receipt/')?.route).toBe('promotionReceipt');
    expect(match(backendRouter, '/backend/promotion/receipt/77/')?.params).toEqual({ orderId: '77' });
    expect(match(backendRouter, '/backend/purchase-history/9/')?.params).toEqual({ id: '9' });
    expect(match(backendRouter, '/backend/close-advert')?.route).toBe('closeAdvert');
    expect(match(backendRouter, '/backend/callback-age-verification/?sessionId=abc')).toMatchObject({ route: 'callbackAgeVerification', search: { sessionId: 'abc' } });
    expect(backendPath('priceList')).toBe('/backend/price-list/');
  });

  it('lets only the verification page with a hand-off token past the backend sign-in guard', () => {
    expect(handoffOf(match(backendRouter, '/backend/verification/?handoff=abc123'))).toBe('abc123');
    expect(handoffOf(match(backendRouter, '/backend/verification/'))).toBeNull();
    expect(handoffOf(match(backendRouter, '/backend/verification/?handoff='))).toBeNull();
    expect(handoffOf(match(backendRouter, '/backend/dashboard/?handoff=abc123'))).toBeNull();
    expect(handoffOf(match(backendRouter, '/backend/pictures/?handoff=abc123'))).toBeNull();
  });

  it('every route has a permission and a translated screen title', () => {
    for (const [route] of supportRouter.routes) {
      expect(route in routePermission, route).toBe(true);
      if (route !== 'root') {
        expect((daSupport.screens as Record<string, string>)[route], route).toBeTruthy();
        expect((enSupport.screens as Record<string, string>)[route], route).toBeTruthy();
      }
    }
    for (const [route] of backendRouter.routes) {
      if (route === 'root') continue;
      expect((daBackend.screens as Record<string, string>)[route], route).toBeTruthy();
      expect((enBackend.screens as Record<string, string>)[route], route).toBeTruthy();
    }
    const navRoutes = [...supportNav.flatMap((g) => g.routes), ...backendNav.flatMap((g) => g.routes)];
    expect(navRoutes.length).toBeGreaterThan(20);
  });
});

/**
 * Every support screen against every permission (issue 6): where the app's guard sends a user, one explicit
 * cell per column: 'opens', or the page they are sent to. Columns: signed out; only Support; only SEO;
 * only Administration (two-step on); Administration waiting for two-step sign-in (the profile leaves it out).
 */
describe('every support screen against every permission', () => {
  const login = (path: string) => `/support/login/?redirectTo=${encodeURIComponent(path)}`;
  const DASHBOARD = '/support/dashboard/';
  const LANDING = '/support/landing-pages/';
  const USERS = '/support/users/';
  const TWO_FACTOR = '/support/two-factor/';
  const O = 'opens';
  type Row = [SupportRoute, string, [string, string, string, string, string]];
  const supportScreen = (route: SupportRoute, path: string): Row => [route, path, [login(path), O, LANDING, USERS, TWO_FACTOR]];
  const seoScreen = (route: SupportRoute, path: string): Row => [route, path, [login(path), DASHBOARD, O, USERS, TWO_FACTOR]];
  const adminScreen = (route: SupportRoute, path: string): Row => [route, path, [login(path), DASHBOARD, LANDING, O, TWO_FACTOR]];
  const table: Row[] = [
    ['root', '/support/', [login('/support/'), DASHBOARD, LANDING, USERS, TWO_FACTOR]],
    ['login', '/support/login/', [O, DASHBOARD, LANDING, USERS, TWO_FACTOR]],
    ['forgot', '/support/login/forgot/', [O, O, O, O, O]],
    ['change', '/support/login/change/', [O, O, O, O, O]],
    ['logOut', '/support/log-out/', [O, O, O, O, O]],
    ['twoFactor', '/support/two-factor/', [login('/support/two-factor/'), O, O, O, O]],
    supportScreen('dashboard', '/support/dashboard/'),
    supportScreen('review', '/support/review/'),
    ['validation', '/support/validation/', [login('/support/validation/'), O, LANDING, USERS, TWO_FACTOR]],
    ['validationItem', '/support/validation/12/', [login('/support/validation/12/'), O, LANDING, USERS, TWO_FACTOR]],
    supportScreen('orders', '/support/orders/'),
    supportScreen('order', '/support/orders/12/'),
    supportScreen('adverts', '/support/adverts/'),
    supportScreen('advert', '/support/adverts/7/media/'),
    supportScreen('contentReports', '/support/content-reports/'),
    supportScreen('contentReport', '/support/content-reports/3/'),
    ['appeals', '/support/appeals/', [login('/support/appeals/'), O, LANDING, USERS, TWO_FACTOR]],
    ['appeal', '/support/appeals/8/', [login('/support/appeals/8/'), O, LANDING, USERS, TWO_FACTOR]],
    supportScreen('pendingReviews', '/support/pending-reviews/'),
    supportScreen('pendingReview', '/support/pending-reviews/3/'),
    supportScreen('migrateAdverts', '/support/migrate-adverts/'),
    supportScreen('migrateAdvert', '/support/migrate-adverts/3/'),
    supportScreen('reviewAdverts', '/support/review-adverts/'),
    supportScreen('reviewAdvert', '/support/review-adverts/3/'),
    supportScreen('riskWords', '/support/risk-words/'),
    seoScreen('landingPages', '/support/landing-pages/'),
    seoScreen('landingPage', '/support/landing-pages/4/'),
    seoScreen('ignoredKeywords', '/support/ignored-keywords/'),
    seoScreen('pairedKeywords', '/support/paired-keywords/'),
    seoScreen('matchedKeywords', '/support/matched-keywords/'),
    seoScreen('matchedKeyword', '/support/matched-keywords/escort/'),
    seoScreen('unmatchedKeywords', '/support/unmatched-keywords/'),
    seoScreen('unmatchedKeyword', '/support/unmatched-keywords/escort/'),
    seoScreen('places', '/support/places/'),
    adminScreen('users', '/support/users/'),
    adminScreen('user', '/support/users/5/'),
    adminScreen('news', '/support/news/'),
    adminScreen('newsItem', '/support/news/5/'),
    adminScreen('statistics', '/support/statistics/'),
    adminScreen('products', '/support/products/'),
    adminScreen('product', '/support/products/3/'),
  ];
  const profiles: GuardProfile[] = [
    null,
    { permissions: ['Support'], twoFactorRequired: false },
    { permissions: ['SEO'], twoFactorRequired: false },
    { permissions: ['Administration'], twoFactorRequired: false },
    { permissions: [], twoFactorRequired: true },
  ];

  it('covers every route of the app', () => {
    expect(table.map(([route]) => route).sort()).toEqual(Object.keys(routePermission).sort());
  });

  it.each(table)('%s', (route, path, expected) => {
    expect(match(supportRouter, path)?.route).toBe(route);
    expect(profiles.map((profile) => guardTarget(route, profile, path) ?? O)).toEqual(expected);
  });
});
