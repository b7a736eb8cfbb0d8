import { count, desc, eq } from 'drizzle-orm';
import type { LoginHistoryItem } from '#lib/schemas/support-adverts.ts';
import { loginEvents } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { findSupportAdvert, paged } from './find-advert.ts';

/** loginhistories (Support: advert:moderate:any): the sign-in attempts of the advert's account, newest first, paged. */
export async function listLoginHistory(
  ctx: DomainContext,
  input: { Id: number; Skip: number; Take: number },
): Promise<{ total: number; items: LoginHistoryItem[] }> {
  const advert = await findSupportAdvert(ctx, input.Id);
  const where = eq(loginEvents.accountId, advert.accountId);
  const [totals, rows] = await Promise.all([
    ctx.db.select({ total: count() }).from(loginEvents).where(where),
    ctx.db.select().from(loginEvents).where(where).orderBy(desc(loginEvents.createdAt), desc(loginEvents.id)).offset(input.Skip).limit(input.Take),
  ]);
  return paged(
    totals[0]?.total,
    rows.map((row) => ({ id: row.id, createdAt: row.createdAt.toISOString(), success: row.success, ip: row.ip, userAgent: row.userAgent, email: row.email })),
  );
}
