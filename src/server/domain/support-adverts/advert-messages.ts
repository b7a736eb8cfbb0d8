import { count, desc, eq } from 'drizzle-orm';
import type { AdvertMessageItem, SendAdvertMessageInput } from '#lib/schemas/support-adverts.ts';
import { notifications } from '../../db/schema.ts';
import type { Messaging } from '../../adapters/types.ts';
import type { DomainContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { noticeToAdvertiser } from '../moderation/statements.ts';
import { findSupportAdvert, paged } from './find-advert.ts';

const toItem = (row: typeof notifications.$inferSelect): AdvertMessageItem => ({
  id: row.id,
  titleDa: row.titleDa,
  titleEn: row.titleEn,
  bodyDa: row.bodyDa,
  bodyEn: row.bodyEn,
  link: row.link,
  read: row.status === 1,
  createdAt: row.createdAt.toISOString(),
});

/** advertmessages (GET; Support: advert:moderate:any): the notifications the account got, newest first, paged. */
export async function listAdvertMessages(
  ctx: DomainContext,
  input: { Id: number; Skip: number; Take: number },
): Promise<{ total: number; items: AdvertMessageItem[] }> {
  const advert = await findSupportAdvert(ctx, input.Id);
  const where = eq(notifications.accountId, advert.accountId);
  const [totals, rows] = await Promise.all([
    ctx.db.select({ total: count() }).from(notifications).where(where),
    ctx.db.select().from(notifications).where(where).orderBy(desc(notifications.createdAt), desc(notifications.id)).offset(input.Skip).limit(input.Take),
  ]);
  return paged(totals[0]?.total, rows.map(toItem));
}

/**
 * advertmessages (POST; Support: advert:moderate:any): a message from support to the advertiser: a
 * notification on their backend dashboard (one text in both languages, or Danish and English given) and
 * an email in their language, as every notice to an advertiser goes (`noticeToAdvertiser`). Audited.
 */
export async function sendAdvertMessage(ctx: DomainContext, input: SendAdvertMessageInput, deps: { messaging: Messaging }): Promise<AdvertMessageItem> {
  const advert = await findSupportAdvert(ctx, input.Id);
  const english = input.TitleEn !== '' ? { titleEn: input.TitleEn, bodyEn: input.BodyEn } : { titleEn: input.Title, bodyEn: input.Body };
  const text = { titleDa: input.Title, bodyDa: input.Body, ...english, link: null };
  const { id } = await noticeToAdvertiser(ctx, advert.accountId, text, deps);
  await writeAudit(ctx, {
    action: 'notification.send',
    targetType: 'notification',
    targetId: id,
    after: { accountId: advert.accountId, advertId: advert.id, titleDa: text.titleDa, titleEn: text.titleEn, bodyDa: text.bodyDa, bodyEn: text.bodyEn },
  });
  const [row] = await ctx.db.select().from(notifications).where(eq(notifications.id, id));
  return toItem(row!);
}
