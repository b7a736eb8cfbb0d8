import { and, eq } from 'drizzle-orm';
import { landingPages } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { writeAudit } from '../audit.ts';
import { RESERVED_TOP_SEGMENTS, type LandingPageInput } from '#lib/schemas/landing-page.ts';

/** Adds an SEO page (SEO staff). The public site shows it after the next (debounced) rebuild. */
export async function createLandingPage(ctx: DomainContext, input: LandingPageInput): Promise<{ id: number }> {
  requirePermission(ctx.actor, 'seo:pages:any');
  if (input.type === 'free' && RESERVED_TOP_SEGMENTS.has(input.url)) {
    throw new AppError('INVALID', 'This address is used by the site itself', [{ field: 'url', message: 'urlReserved' }]);
  }
  const [existing] = await ctx.db
    .select({ id: landingPages.id })
    .from(landingPages)
    .where(and(eq(landingPages.type, input.type), eq(landingPages.locale, input.locale), eq(landingPages.url, input.url)));
  if (existing) {
    throw new AppError('CONFLICT', 'A page with this address exists', [
      { field: 'url', message: 'urlTaken' },
    ]);
  }
  const now = ctx.now();
  const [row] = await ctx.db
    .insert(landingPages)
    .values({
      type: input.type,
      locale: input.locale,
      url: input.url,
      title: input.title,
      metaDescription: input.metaDescription,
      intro: input.intro,
      body: input.body,
      publishedAt: input.published ? now : null,
    })
    .returning({ id: landingPages.id });
  if (!row) throw new AppError('CONFLICT', 'The page was not saved');
  await writeAudit(ctx, { action: 'landing_page.create', targetType: 'landing_page', targetId: row.id, after: input });
  await ctx.events.publish({ type: 'content.changed', reason: `landing page ${row.id} created` });
  return row;
}
