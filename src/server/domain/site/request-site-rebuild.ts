import type { DomainContext } from '../context.ts';
import { requirePermission } from '../permissions.ts';
import { writeAudit } from '../audit.ts';

/** Support asks for the public site to be rebuilt now (the spec's "clean cache"). */
export async function requestSiteRebuild(ctx: DomainContext): Promise<void> {
  requirePermission(ctx.actor, 'site:rebuild:any');
  await writeAudit(ctx, { action: 'site.rebuild_requested', targetType: 'site' });
  await ctx.events.publish({ type: 'site.rebuild.requested', reason: 'requested by support' });
}
