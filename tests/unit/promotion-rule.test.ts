import { describe, expect, it } from 'vitest';
import { mayOpenPromotion } from '../../src/dashboards/backend/commerce/promotion-rule.ts';

/** Spec §4: promotion pages open only for an Active advert whose expiration is in the future. */
describe('mayOpenPromotion', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  it('opens for an Active advert expiring later today, and in a later year', () => {
    expect(mayOpenPromotion({ profileStatus: 1, expirationDate: '2026-11-26T12:00:01Z' }, now)).toBe(true);
    expect(mayOpenPromotion({ profileStatus: 1, expirationDate: '2027-01-02T00:00:00Z' }, now)).toBe(true);
  });
  it('stays shut when the expiration is now or past, or missing (counts as now)', () => {
    expect(mayOpenPromotion({ profileStatus: 1, expirationDate: '2026-11-26T12:00:00Z' }, now)).toBe(false);
    expect(mayOpenPromotion({ profileStatus: 1, expirationDate: '2025-12-31T23:59:59Z' }, now)).toBe(false);
    expect(mayOpenPromotion({ profileStatus: 1, expirationDate: null }, now)).toBe(false);
    expect(mayOpenPromotion({ profileStatus: 1, expirationDate: 'not a date' }, now)).toBe(false);
  });
  it('stays shut for any status but Active', () => {
    for (const status of [0, 2, 3, 4, 5, null]) {
      expect(mayOpenPromotion({ profileStatus: status, expirationDate: '2027-01-01T00:00:00Z' }, now)).toBe(false);
    }
  });
});
