import { describe, expect, it } from 'vitest';
import { canOpen, landingRoute, requiresSignIn, routePermission, supportNav } from '../../src/dashboards/support/permissions.ts';
import { supportRouter, supportPath } from '../../src/dashboards/support/routes.ts';
import { backendRouter, backendNav, backendPath } from '../../src/dashboards/backend/routes.ts';
import { afterLogin } from '../../src/dashboards/support/login/LoginScreen.tsx';
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
});

describe('app routes (spec section 2)', () => {
  it('matches every support route, with parameters and trailing slashes', () => {
    expect(match(supportRouter, '/support/')?.route).toBe('root');
    expect(match(supportRouter, '/support/login/forgot/')?.route).toBe('forgot');
    expect(match(supportRouter, '/support/adverts/12/')?.params).toEqual({ id: '12', section: '', subsection: '' });
    expect(match(supportRouter, '/support/adverts/12/media/pictures/')?.params).toEqual({ id: '12', section: 'media', subsection: 'pictures' });
    expect(match(supportRouter, '/support/matched-keywords/k%C3%B8benhavn/')?.params).toEqual({ keyword: 'københavn' });
    expect(match(supportRouter, '/support/news/3/')?.route).toBe('newsItem');
    expect(match(supportRouter, '/support/nope/')).toBeUndefined();
    expect(supportPath('contentReports')).toBe('/support/content-reports/');
  });

  it('matches every backend route', () => {
    expect(match(backendRouter, '/backend/')?.route).toBe('root');
    expect(match(backendRouter, '/backend/dashboard/?orderId=5')).toMatchObject({ route: 'dashboard', search: { orderId: '5' } });
    expect(match(backendRouter, '/backend/promotion/receipt/')?.route).toBe('promotionReceipt');
    expect(match(backendRouter, '/backend/promotion/receipt/77/')?.params).toEqual({ orderId: '77' });
    expect(match(backendRouter, '/backend/purchase-history/9/')?.params).toEqual({ id: '9' });
    expect(match(backendRouter, '/backend/close-advert')?.route).toBe('closeAdvert');
    expect(backendPath('priceList')).toBe('/backend/price-list/');
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
