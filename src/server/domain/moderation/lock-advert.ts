import type { TermsRule } from '#lib/schemas/moderation.ts';
import type { Advert } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { changeAdvertStatus } from '../adverts/change-status.ts';
import { PROFILE_STATUS } from '../adverts/statuses.ts';
import { issueStatementOfReasons } from './statements.ts';

/**
 * The one way support (or the system) locks an advert: status 2 Locked through the transition table, with
 * the reason kept on the advert and in the audit log, and a statement of reasons to the advertiser
 * ('advert.locked': what, why, which rule, how to appeal). Used by a report's decision and by support's
 * advert pages. Answers the statement's id. `reportId` names the report the lock answers (none: support's
 * own initiative), kept on the statement for the transparency report.
 */
export async function lockAdvert(
  ctx: DomainContext,
  advert: Advert,
  input: { reason: string; rule: TermsRule | null; reportId?: number | null },
  deps: { messaging: Messaging },
): Promise<{ statementId: number }> {
  await changeAdvertStatus(ctx, advert, PROFILE_STATUS.Locked, {
    action: 'advert.lock',
    extra: { statusReason: input.reason },
    reason: input.reason,
  });
  const { id } = await issueStatementOfReasons(
    ctx,
    {
      advertId: advert.id,
      accountId: advert.accountId,
      decision: 'advert.locked',
      what: advert.name,
      reason: input.reason,
      rule: input.rule,
      targetId: null,
      reportId: input.reportId ?? null,
    },
    deps,
  );
  return { statementId: id };
}
