import { forbidden, unauthenticated } from './errors.ts';
import type { Actor } from './context.ts';

/** The spec's support permissions (section 6). */
export const SUPPORT_ROLES = ['Support', 'SEO', 'Administration'] as const;
export type SupportRole = (typeof SUPPORT_ROLES)[number];

/** Named permissions checked in the domain; roles map to sets of them. */
export type Permission =
  | 'advert:moderate:any'
  | 'validation:decide:any'
  | 'orders:manage:any'
  | 'reports:decide:any'
  | 'reviews:moderate:any'
  | 'seo:pages:any'
  | 'seo:keywords:any'
  | 'users:manage:any'
  | 'news:manage:any'
  | 'stats:read:any'
  | 'site:rebuild:any'
  /** Enter the advertiser backend as the advertiser (impersonation, accounts/impersonation.ts). */
  | 'advertiser:impersonate:any'
  /**
   * Read the outbox of sent mail and SMS (GET /api/support/outbox). Administration only: links and codes
   * that grant access are masked in it anyway, except in development and tests (accounts/list-outbox-messages.ts).
   */
  | 'outbox:read:any'
  /** Change products' prices and days, retire and reactivate them (orders keep their own copy: decision 025). */
  | 'products:manage:any'
  /** Import the old site's adverts, read and refuse them (issue 18; domain/migration/). */
  | 'migration:manage:any';

const permissionsByRole: Record<SupportRole, Permission[]> = {
  Support: [
    'advert:moderate:any',
    'validation:decide:any',
    'orders:manage:any',
    'reports:decide:any',
    'reviews:moderate:any',
    'site:rebuild:any',
    'advertiser:impersonate:any',
    'migration:manage:any',
  ],
  SEO: ['seo:pages:any', 'seo:keywords:any', 'site:rebuild:any'],
  Administration: ['users:manage:any', 'news:manage:any', 'stats:read:any', 'site:rebuild:any', 'outbox:read:any', 'products:manage:any'],
};

export function isSupportRole(value: string): value is SupportRole {
  return (SUPPORT_ROLES as readonly string[]).includes(value);
}

export function permissionsOf(roles: readonly string[]): Permission[] {
  return [...new Set(roles.filter(isSupportRole).flatMap((role) => permissionsByRole[role]))];
}

export function can(actor: Actor, permission: Permission): boolean {
  return actor.type === 'system' || (actor.type === 'support' && actor.permissions.includes(permission));
}

/** Throws 401 for a visitor, 403 for anyone else lacking the permission. */
export function requirePermission(actor: Actor, permission: Permission): void {
  if (can(actor, permission)) return;
  if (actor.type === 'visitor') throw unauthenticated();
  throw forbidden();
}

export function requireSupportUser(actor: Actor): asserts actor is Extract<Actor, { type: 'support' }> {
  if (actor.type !== 'support') throw actor.type === 'visitor' ? unauthenticated() : forbidden();
}

export function requireAdvertiser(actor: Actor): asserts actor is Extract<Actor, { type: 'advertiser' }> {
  if (actor.type !== 'advertiser') throw actor.type === 'visitor' ? unauthenticated() : forbidden();
}
