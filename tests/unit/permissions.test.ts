import { describe, expect, it } from 'vitest';
import { can, permissionsOf, requirePermission } from '#server/domain/permissions.ts';
import type { Actor } from '#server/domain/context.ts';

const support = (roles: ('Support' | 'SEO' | 'Administration')[]): Actor => ({
  type: 'support',
  supportUserId: 1,
  sessionId: 's',
  roles,
  permissions: permissionsOf(roles),
});

describe('support permissions (spec §6)', () => {
  it('maps each role to its areas', () => {
    expect(can(support(['Support']), 'advert:moderate:any')).toBe(true);
    expect(can(support(['Support']), 'seo:pages:any')).toBe(false);
    expect(can(support(['SEO']), 'seo:keywords:any')).toBe(true);
    expect(can(support(['SEO']), 'users:manage:any')).toBe(false);
    expect(can(support(['Administration']), 'users:manage:any')).toBe(true);
    expect(can(support(['Administration']), 'news:manage:any')).toBe(true);
    expect(can(support(['Administration']), 'advert:moderate:any')).toBe(false);
  });
  it('lets only Administration read the outbox (issue 15)', () => {
    expect(can(support(['Administration']), 'outbox:read:any')).toBe(true);
    expect(can(support(['Support']), 'outbox:read:any')).toBe(false);
    expect(can(support(['SEO']), 'outbox:read:any')).toBe(false);
  });
  it('gives orders to Support and products to Administration (issue 16)', () => {
    expect(can(support(['Support']), 'orders:manage:any')).toBe(true);
    expect(can(support(['Administration']), 'orders:manage:any')).toBe(false);
    expect(can(support(['Administration']), 'products:manage:any')).toBe(true);
    expect(can(support(['Support']), 'products:manage:any')).toBe(false);
    expect(can(support(['SEO']), 'products:manage:any')).toBe(false);
  });
  it('gives the import of the old site’s adverts to Support only (issue 18)', () => {
    expect(can(support(['Support']), 'migration:manage:any')).toBe(true);
    expect(can(support(['SEO']), 'migration:manage:any')).toBe(false);
    expect(can(support(['Administration']), 'migration:manage:any')).toBe(false);
  });
  it('answers 401 to a visitor and 403 to an advertiser', () => {
    expect(() => requirePermission({ type: 'visitor' }, 'stats:read:any')).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
    expect(() =>
      requirePermission({ type: 'advertiser', accountId: 1, sessionId: 's', impersonatedBy: null }, 'stats:read:any'),
    ).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
  });
  it('ignores unknown role names', () => {
    expect(permissionsOf(['Root', 'SEO'])).toEqual(permissionsOf(['SEO']));
  });
});
