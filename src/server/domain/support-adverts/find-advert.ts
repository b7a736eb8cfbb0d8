import { eq } from 'drizzle-orm';
import { adverts, type Advert } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';

/** Support's advert pages need advert:moderate:any (the Support role). */
export function requireAdvertSupport(ctx: DomainContext): void {
  requirePermission(ctx.actor, 'advert:moderate:any');
}

/** Any advert by id, deleted ones included (support sees them); 404 otherwise. Checks the permission. */
export async function findSupportAdvert(ctx: DomainContext, id: number): Promise<Advert> {
  requireAdvertSupport(ctx);
  const [advert] = await ctx.db.select().from(adverts).where(eq(adverts.id, id)).limit(1);
  if (!advert) throw notFound('Advert');
  return advert;
}

/** The first row and how many there are, for a page of a list. */
export const paged = <T>(total: number | string | undefined, items: T[]): { total: number; items: T[] } => ({ total: Number(total ?? 0), items });
