import type { AdvertProfile, AdvertStatusChangeInput } from '#lib/schemas/support-adverts.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { changeAdvertStatus } from '../adverts/change-status.ts';
import { PROFILE_STATUS } from '../adverts/statuses.ts';
import { lockAdvert } from '../moderation/lock-advert.ts';
import { unlockedText } from '../moderation/moderation-texts.ts';
import { noticeToAdvertiser } from '../moderation/statements.ts';
import { getAdvertProfile } from './advert-profile.ts';
import { findSupportAdvert } from './find-advert.ts';

const refused = (message: string, key: string) => new AppError('CONFLICT', message, [{ field: 'Status', message: key }]);

/**
 * profilestatus (Support: advert:moderate:any): support changes an advert's status through the one status
 * table, always with a reason (audited). Locking names a rule of the terms and issues the advertiser a
 * statement of reasons (`lockAdvert`, as a report's decision does); unlocking goes back to Active (approved
 * before) or to New (to be moderated again), with the reason in the audit log, and tells the advertiser
 * (a notification and an email). 409 naming Status for the
 * status it has (`sameStatus`), a deleted advert (`deleted`), Active without a past approval (`notApproved`)
 * or a change the table refuses (`notAllowed`).
 */
export async function changeAdvertStatusBySupport(
  ctx: DomainContext,
  input: AdvertStatusChangeInput,
  deps: { messaging: Messaging },
): Promise<AdvertProfile> {
  const advert = await findSupportAdvert(ctx, input.Id);
  const to = input.Status;
  if (advert.deletedAt !== null || advert.status === PROFILE_STATUS.Deleted) throw refused('The advert is deleted', 'advertDeleted');
  if (to === advert.status) throw refused('The advert already has this status', 'sameStatus');
  if (to === PROFILE_STATUS.Active && advert.approvedAt === null) throw refused('The advert must be approved by support first', 'notApproved');
  try {
    if (to === PROFILE_STATUS.Locked) {
      await lockAdvert(ctx, advert, { reason: input.Reason, rule: input.Rule === '' ? null : input.Rule }, deps);
    } else if (advert.status === PROFILE_STATUS.Locked) {
      await changeAdvertStatus(ctx, advert, to, { action: 'advert.unlock', extra: { statusReason: null }, reason: input.Reason });
      await noticeToAdvertiser(ctx, advert.accountId, unlockedText(advert.name, to === PROFILE_STATUS.Active), deps);
    } else {
      await changeAdvertStatus(ctx, advert, to, { action: 'advert.status.change', reason: input.Reason });
    }
  } catch (error) {
    if (error instanceof AppError && error.code === 'CONFLICT' && error.fields.length === 0) throw refused(error.message, 'statusNotAllowed');
    throw error;
  }
  return getAdvertProfile(ctx, advert.id);
}
