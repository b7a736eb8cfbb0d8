import { eq } from 'drizzle-orm';
import type { TermsRule } from '#lib/schemas/moderation.ts';
import { adverts } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { issueStatementOfReasons } from '../moderation/statements.ts';

/** A support decision the advertiser is told about (approvals are audited only: decision 013). */
export type MediaDecision = 'decline' | 'remove';

/** The rule a media decision rests on when support named none. */
export const DEFAULT_MEDIA_RULE: TermsRule = 'terms.content';

/**
 * Support declined or removed one of an advertiser's pictures or videos: a statement of reasons
 * ('picture.declined', 'video.removed', …) naming the advert, the reason and the rule, which tells the
 * advertiser in the backend (linking to the screen where the item was) and by email, with how to appeal.
 */
export async function notifyMediaDecision(
  ctx: DomainContext,
  input: {
    accountId: number;
    advertId: number;
    media: 'picture' | 'video';
    mediaId: number;
    decision: MediaDecision;
    reason: string | null;
    rule?: TermsRule | undefined;
  },
  deps: { messaging: Messaging },
): Promise<void> {
  const [advert] = await ctx.db.select({ name: adverts.name }).from(adverts).where(eq(adverts.id, input.advertId)).limit(1);
  await issueStatementOfReasons(
    ctx,
    {
      advertId: input.advertId,
      accountId: input.accountId,
      decision: `${input.media}.${input.decision === 'decline' ? 'declined' : 'removed'}`,
      what: advert?.name ?? '',
      reason: input.reason ?? '',
      rule: input.rule ?? DEFAULT_MEDIA_RULE,
      targetId: input.mediaId,
    },
    deps,
  );
}
