import { notifications } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';

/** A support decision the advertiser is told about (approvals are audited only: decision 013). */
export type MediaDecision = 'decline' | 'remove';

const TEXTS = {
  picture: {
    decline: { titleDa: 'Et billede blev afvist', titleEn: 'A picture was declined', bodyDa: 'Support har afvist et af dine billeder, så det ikke vises i din annonce.', bodyEn: 'Support declined one of your pictures, so it is not shown in your advert.' },
    remove: { titleDa: 'Et billede blev fjernet', titleEn: 'A picture was removed', bodyDa: 'Support har fjernet et af dine billeder fra din annonce.', bodyEn: 'Support removed one of your pictures from your advert.' },
  },
  video: {
    decline: { titleDa: 'En video blev afvist', titleEn: 'A video was declined', bodyDa: 'Support har afvist en af dine videoer, så den ikke vises i din annonce.', bodyEn: 'Support declined one of your videos, so it is not shown in your advert.' },
    remove: { titleDa: 'En video blev fjernet', titleEn: 'A video was removed', bodyDa: 'Support har fjernet en af dine videoer fra din annonce.', bodyEn: 'Support removed one of your videos from your advert.' },
  },
} as const;

/**
 * Tells the advertiser, in Danish and English, that support declined or removed one of their pictures
 * or videos, and why; the notification links to the screen where it was.
 */
export async function notifyMediaDecision(
  ctx: DomainContext,
  accountId: number,
  media: 'picture' | 'video',
  decision: MediaDecision,
  reason: string | null,
): Promise<void> {
  const text = TEXTS[media][decision];
  await ctx.db.insert(notifications).values({
    accountId,
    titleDa: text.titleDa,
    titleEn: text.titleEn,
    bodyDa: reason ? `${text.bodyDa} Begrundelse: ${reason}` : text.bodyDa,
    bodyEn: reason ? `${text.bodyEn} Reason: ${reason}` : text.bodyEn,
    link: media === 'picture' ? '/backend/pictures/' : '/backend/videos/',
  });
}
