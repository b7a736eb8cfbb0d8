import { describe, expect, it } from 'vitest';
import { AppError } from '#server/domain/errors.ts';
import { requireVerifiedForLive } from '#server/domain/verification/require-verified.ts';

/**
 * "Identity verification before an advert goes live" (issue 6). No call makes a new advert Active yet
 * (support's approval comes with the review screens); the rule is ready for it.
 */
describe('requireVerifiedForLive', () => {
  it('lets an advert whose owner is age-verified go live', () => {
    expect(() => requireVerifiedForLive({ ageVerifiedAt: new Date('2026-01-02T10:00:00Z') })).not.toThrow();
  });

  it('refuses one whose owner is not verified, naming why (409 notVerified)', () => {
    let caught: unknown;
    try {
      requireVerifiedForLive({ ageVerifiedAt: null });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({ code: 'CONFLICT', fields: [{ field: 'Id', message: 'notVerified' }] });
  });
});
