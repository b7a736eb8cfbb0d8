/**
 * Publishing, unpublishing and deleting one language of an SEO page (SEO staff; issue 17). Each is
 * audited and publishes `content.changed` (the public site follows after the next debounced rebuild).
 */
import { eq } from 'drizzle-orm';
import { landingPages } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { writeAudit } from '../audit.ts';
import { removePathRedirect } from '../site/redirects.ts';
import { landingPublicPath, type LandingPageTypeValue, type SupportLandingPage } from '#lib/schemas/landing-page.ts';
import { auditedPage } from './create-landing-page.ts';
import { supportPageOf, twinRows } from './list-landing-pages.ts';
import { removeLandingImageFiles } from './landing-page-images.ts';

/** publishlandingpage (POST, SEO): one language public from now (after the rebuild), or no longer public. */
export async function publishLandingPage(ctx: DomainContext, id: number, published: boolean): Promise<SupportLandingPage> {
  requirePermission(ctx.actor, 'seo:pages:any');
  const page = await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(landingPages).where(eq(landingPages.id, id)).limit(1).for('update');
    if (!before) throw notFound('Page');
    const type = before.type as LandingPageTypeValue;
    if ((before.publishedAt !== null) !== published) {
      const now = ctx.now();
      const [after] = await tx
        .update(landingPages)
        .set({ publishedAt: published ? now : null, updatedAt: now })
        .where(eq(landingPages.id, id))
        .returning();
      // The address is a page again: a redirect that led away from it would hide it.
      if (published) await removePathRedirect(tx, landingPublicPath(type, before.url, before.locale === 'en' ? 'en' : 'da'));
      await writeAudit(
        { ...ctx, db: tx },
        { action: published ? 'landing_page.publish' : 'landing_page.unpublish', targetType: 'landing_page', targetId: id, before: auditedPage(before), after: auditedPage(after!) },
      );
    }
    return supportPageOf(tx, type, before.url, await twinRows(tx, before.type, before.url));
  });
  await ctx.events.publish({ type: 'content.changed', reason: `landing page ${id} ${published ? 'published' : 'unpublished'}` });
  return page;
}

/** deletelandingpage (POST, SEO): deletes one language of a page and its images; the audit keeps what it said. */
export async function deleteLandingPage(ctx: DomainContext, id: number): Promise<void> {
  requirePermission(ctx.actor, 'seo:pages:any');
  const deleted = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.delete(landingPages).where(eq(landingPages.id, id)).returning();
    if (!row) throw notFound('Page');
    await writeAudit({ ...ctx, db: tx }, { action: 'landing_page.delete', targetType: 'landing_page', targetId: id, before: auditedPage(row) });
    return row;
  });
  if (ctx.storage) await removeLandingImageFiles(ctx.storage, deleted.images);
  await ctx.events.publish({ type: 'content.changed', reason: `landing page ${id} deleted` });
}
