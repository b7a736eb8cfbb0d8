/**
 * Which support permission each screen needs (spec section 6), and where a user goes instead:
 * the first page of their first permission (Support → dashboard, SEO → landing pages,
 * Administration → users); a user whose Administration waits for two-step sign-in and who has no other
 * permission goes to two-factor/; anyone else without a permission to the login screen.
 */
import type { SupportPermission } from '#lib/api/types.ts';
import { safeRedirect } from '../../components/safe-redirect.ts';
import { supportPath, type SupportRoute } from './routes.ts';

/**
 * null: open to anyone (sign-in screens, log-out); 'any': a signed-in support user with a page to land on
 * (root); 'signedIn': any signed-in support user, even one without a permission (their own two-step sign-in).
 */
export const routePermission: Record<SupportRoute, SupportPermission | null | 'any' | 'signedIn'> = {
  root: 'any',
  login: null,
  forgot: null,
  change: null,
  logOut: null,
  twoFactor: 'signedIn',
  dashboard: 'Support',
  review: 'Support',
  validation: 'Support',
  validationItem: 'Support',
  orders: 'Support',
  order: 'Support',
  adverts: 'Support',
  advert: 'Support',
  contentReports: 'Support',
  contentReport: 'Support',
  appeals: 'Support',
  appeal: 'Support',
  pendingReviews: 'Support',
  pendingReview: 'Support',
  migrateAdverts: 'Support',
  migrateAdvert: 'Support',
  reviewAdverts: 'Support',
  reviewAdvert: 'Support',
  riskWords: 'Support',
  landingPages: 'SEO',
  landingPage: 'SEO',
  ignoredKeywords: 'SEO',
  pairedKeywords: 'SEO',
  matchedKeywords: 'SEO',
  matchedKeyword: 'SEO',
  unmatchedKeywords: 'SEO',
  unmatchedKeyword: 'SEO',
  places: 'SEO',
  users: 'Administration',
  user: 'Administration',
  products: 'Administration',
  product: 'Administration',
  news: 'Administration',
  newsItem: 'Administration',
  statistics: 'Administration',
};

export const firstPageOf: Record<SupportPermission, SupportRoute> = {
  Support: 'dashboard',
  SEO: 'landingPages',
  Administration: 'users',
};

const known = new Set<string>(Object.keys(firstPageOf));

/**
 * The screen a user lands on: the first page of their first (known) permission; two-factor/ when they have
 * none but Administration waits for two-step sign-in (`twoFactorRequired`); null otherwise.
 */
export function landingRoute(permissions: readonly string[], twoFactorRequired = false): SupportRoute | null {
  const first = permissions.find((p) => known.has(p)) as SupportPermission | undefined;
  if (first) return firstPageOf[first];
  return twoFactorRequired ? 'twoFactor' : null;
}

export function requiresSignIn(route: SupportRoute): boolean {
  return routePermission[route] !== null;
}

/** Whether a signed-in user with these permissions may open the route. */
export function canOpen(route: SupportRoute, permissions: readonly string[], twoFactorRequired = false): boolean {
  const needed = routePermission[route];
  if (needed === null || needed === 'signedIn') return true;
  if (needed === 'any') return landingRoute(permissions, twoFactorRequired) !== null;
  return permissions.includes(needed);
}

/** Where to go after signing in: a safe support page of `redirectTo`, else the landing page; null without one. */
export function afterLogin(redirectTo: string | undefined, permissions: readonly string[], twoFactorRequired = false): string | null {
  const landing = landingRoute(permissions, twoFactorRequired);
  if (!landing) return null;
  const fallback = supportPath(landing);
  const target = safeRedirect(redirectTo, '/support/', fallback);
  return target.startsWith('/support/login') || target.startsWith('/support/log-out') ? fallback : target;
}

/** Who is signed in, as the guard needs it: null signed out (undefined while unknown is not guarded). */
export type GuardProfile = { permissions: readonly string[]; twoFactorRequired: boolean } | null;

/**
 * The app's guard (spec section 6): where a page sends this user, or null when it opens.
 * - signed out on a page that needs sign-in: the login screen, carrying redirectTo (`currentPath`);
 * - signed in on the login screen: their redirectTo or landing page;
 * - the root, or a screen their permissions do not open: the first page of their first permission, or
 *   the login screen saying they have no permission.
 */
export function guardTarget(route: SupportRoute, profile: GuardProfile, currentPath: string, redirectTo?: string): string | null {
  if (profile === null) {
    return requiresSignIn(route) ? `${supportPath('login')}?redirectTo=${encodeURIComponent(currentPath)}` : null;
  }
  if (route === 'login') return afterLogin(redirectTo, profile.permissions, profile.twoFactorRequired);
  if (route === 'root' || !canOpen(route, profile.permissions, profile.twoFactorRequired)) {
    const landing = landingRoute(profile.permissions, profile.twoFactorRequired);
    return landing ? supportPath(landing) : `${supportPath('login')}?noPermission=1`;
  }
  return null;
}

/** Sidebar: per permission the screens it opens, in the order of the spec. */
export const supportNav: { permission: SupportPermission; routes: SupportRoute[] }[] = [
  {
    permission: 'Support',
    routes: ['dashboard', 'review', 'adverts', 'validation', 'orders', 'contentReports', 'appeals', 'pendingReviews', 'migrateAdverts', 'reviewAdverts', 'riskWords'],
  },
  {
    permission: 'SEO',
    routes: ['landingPages', 'places', 'ignoredKeywords', 'matchedKeywords', 'pairedKeywords', 'unmatchedKeywords'],
  },
  { permission: 'Administration', routes: ['users', 'news', 'statistics', 'products'] },
];

/** Sidebar: the signed-in user's own group (under their name). */
export const accountNav: SupportRoute[] = ['twoFactor', 'logOut'];
