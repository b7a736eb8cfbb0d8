import type { Advert } from '../../db/schema.ts';
import { AppError } from '../errors.ts';

/**
 * "Identity verification before an advert goes live" (issue 6): an advert may become Active for the
 * first time only once its owner's age and identity are verified (a provider check passed, or support
 * accepted the document or video). The same fact the visibility rule reads (`ageVerifiedAt`), so an
 * advert approved without it could never be public anyway; this names the refusal (409 notVerified).
 * To be called by support's approval of a new advert (New → Active), which does not exist yet.
 */
export function requireVerifiedForLive(advert: Pick<Advert, 'ageVerifiedAt'>): void {
  if (advert.ageVerifiedAt === null) {
    throw new AppError('CONFLICT', 'The advertiser must verify their age and identity before the advert can go live', [
      { field: 'Id', message: 'notVerified' },
    ]);
  }
}
