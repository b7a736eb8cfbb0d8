import { eq } from 'drizzle-orm';
import { adverts, contentReports } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import type { ReportAdvertInput } from '#lib/schemas/report-advert.ts';

/** Suspected minors and trafficking are urgent; abuse reasons high; the rest normal. */
export function priorityOf(reason: ReportAdvertInput['Reason']): number {
  if (reason === 'minor' || reason === 'trafficking') return 2;
  if (reason === 'not-consensual') return 1;
  return 0;
}

/** A visitor reports an advert (notice and action): stored for support, acknowledged with its id. */
export async function reportAdvert(ctx: DomainContext, input: ReportAdvertInput): Promise<{ id: number; createdAt: string }> {
  const [advert] = await ctx.db.select({ id: adverts.id }).from(adverts).where(eq(adverts.id, input.AdvertId)).limit(1);
  if (!advert) throw notFound('Advert');
  const [row] = await ctx.db
    .insert(contentReports)
    .values({
      advertId: advert.id,
      reason: input.Reason,
      details: input.Details || null,
      advertUrl: input.Url || null,
      reporterName: input.Name || null,
      reporterEmail: input.Email || null,
      goodFaith: input.GoodFaith,
      priority: priorityOf(input.Reason),
      createdAt: ctx.now(),
    })
    .returning({ id: contentReports.id, createdAt: contentReports.createdAt });
  if (!row) throw notFound('Report');
  await writeAudit(ctx, {
    action: 'report.create',
    targetType: 'advert',
    targetId: advert.id,
    after: { reportId: row.id, reason: input.Reason, priority: priorityOf(input.Reason) },
  });
  return { id: row.id, createdAt: row.createdAt.toISOString() };
}
