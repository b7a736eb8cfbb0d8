import { and, asc, eq } from 'drizzle-orm';
import { adverts, type Advert } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { notFound, unauthenticated } from '../errors.ts';
import { refreshAdvertSearch, refreshAdvertSearchClocks } from '../search/refresh-advert-search.ts';
import { syncAdvertMedia } from '../media/publication.ts';

/** The signed-in advertiser's account id; anyone else is refused (401). */
export function requireAdvertiserAccountId(ctx: DomainContext): number {
  if (ctx.actor.type !== 'advertiser') throw unauthenticated();
  return ctx.actor.accountId;
}

/**
 * THE ownership rule of the backend: the advert of the signed-in account (an account has one advert).
 * Every backend call that edits an advert starts here, so it can only ever reach the caller's advert;
 * ids of items (price items, schedule entries, reviews, …) are then looked up together with this
 * advert's id, so another advertiser's ids answer 404 like ids that do not exist.
 */
export async function getOwnAdvert(ctx: DomainContext): Promise<Advert> {
  const accountId = requireAdvertiserAccountId(ctx);
  const [advert] = await ctx.db
    .select()
    .from(adverts)
    .where(eq(adverts.accountId, accountId))
    .orderBy(asc(adverts.id))
    .limit(1);
  if (!advert) throw notFound('Advert');
  return advert;
}

/** The advert's columns that a change may set (never its id or owner). */
export type AdvertChange = Partial<Omit<Advert, 'id' | 'accountId' | 'createdAt'>>;

/** Writes columns of the caller's advert (by id, with the owner in the condition as a second lock). */
export async function updateOwnAdvert(ctx: DomainContext, advert: Advert, change: AdvertChange): Promise<void> {
  await ctx.db
    .update(adverts)
    .set(change)
    .where(and(eq(adverts.id, advert.id), eq(adverts.accountId, advert.accountId)));
}

/**
 * After a change the public may see (the advert, its languages, services, prices, schedule, reviews,
 * place or status): publishes or takes down the advert's media files (`syncAdvertMedia`), bumps updated_at, refreshes the search index rows (docs/decisions/006) and tells the
 * jobs layer so the static site is rebuilt. A change of a paid period only (`paidPeriod`: a purchase, a
 * refund) leaves updated_at alone: unboosted search results are ordered by it, and payment may change the
 * order only through boosts (docs/decisions/026). It changes only the advert's clocks, so only what they
 * decide in the search rows is refreshed (`refreshAdvertSearchClocks`), and no media (which media are
 * public does not depend on the clocks). A package's longer period shows on no prebuilt page while the
 * advert stays public, so it asks for no site rebuild; a boost does (it moves the advert up the prebuilt
 * landing pages' first results), and so does a change that made the advert public or took it down.
 */
export async function publishAdvertChange(
  ctx: DomainContext,
  advertId: number,
  reason: string,
  options: { paidPeriod?: 'package' | 'boost' } = {},
): Promise<void> {
  const now = ctx.now();
  if (options.paidPeriod) {
    const flipped = await refreshAdvertSearchClocks(ctx.db, [advertId], now);
    if (options.paidPeriod === 'package' && flipped === 0) return;
  } else {
    // Media first: the search index's cards and the site read the published names (docs/decisions/013).
    if (ctx.storage) await syncAdvertMedia(ctx.db, ctx.storage, advertId);
    await ctx.db.update(adverts).set({ updatedAt: now }).where(eq(adverts.id, advertId));
    await refreshAdvertSearch(ctx.db, [advertId], now);
  }
  await ctx.events.publish({ type: 'content.changed', reason });
}
