/**
 * Which support permission each screen needs (spec section 6), and where a user goes instead:
 * the first page of their first permission (Support → dashboard, SEO → landing pages,
 * Administration → users), or the login screen when they have none.
 */
import type { SupportPermission } from '#lib/api/types.ts';
import type { SupportRoute } from './routes.ts';

/** null: open to anyone (sign-in screens, log-out); 'any': any signed-in support user (root). */
export const routePermission: Record<SupportRoute, SupportPermission | null | 'any'> = {
  root: 'any',
  login: null,
  forgot: null,
  change: null,
  logOut: null,
  dashboard: 'Support',
  review: 'Support',
  validation: 'Support',
  orders: 'Support',
  adverts: 'Support',
  advert: 'Support',
  contentReports: 'Support',
  contentReport: 'Support',
  pendingReviews: 'Support',
  pendingReview: 'Support',
  migrateAdverts: 'Support',
  migrateAdvert: 'Support',
  reviewAdverts: 'Support',
  reviewAdvert: 'Support',
  landingPages: 'SEO',
  landingPage: 'SEO',
  ignoredKeywords: 'SEO',
  pairedKeywords: 'SEO',
  matchedKeywords: 'SEO',
  matchedKeyword: 'SEO',
  unmatchedKeywords: 'SEO',
  unmatchedKeyword: 'SEO',
  users: 'Administration',
  user: 'Administration',
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

/** The screen a user lands on: the first page of their first (known) permission; null when they have none. */
export function landingRoute(permissions: readonly string[]): SupportRoute | null {
  const first = permissions.find((p) => known.has(p)) as SupportPermission | undefined;
  return first ? firstPageOf[first] : null;
}

export function requiresSignIn(route: SupportRoute): boolean {
  return routePermission[route] !== null;
}

/** Whether a user with these permissions may open the route. */
export function canOpen(route: SupportRoute, permissions: readonly string[]): boolean {
  const needed = routePermission[route];
  if (needed === null) return true;
  if (needed === 'any') return landingRoute(permissions) !== null;
  return permissions.includes(needed);
}

/** Sidebar: per permission the screens it opens, in the order of the spec. */
export const supportNav: { permission: SupportPermission; routes: SupportRoute[] }[] = [
  {
    permission: 'Support',
    routes: ['dashboard', 'review', 'adverts', 'validation', 'orders', 'contentReports', 'pendingReviews', 'migrateAdverts', 'reviewAdverts'],
  },
  {
    permission: 'SEO',
    routes: ['landingPages', 'ignoredKeywords', 'matchedKeywords', 'pairedKeywords', 'unmatchedKeywords'],
  },
  { permission: 'Administration', routes: ['users', 'news', 'statistics'] },
];
