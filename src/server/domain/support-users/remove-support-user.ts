import { eq } from 'drizzle-orm';
import { supportUsers } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { writeAudit } from '../audit.ts';
import { findSupportUserRecord } from './list-support-users.ts';
import { requireAnotherAdministrator } from './save-support-user.ts';

/**
 * removeuser (Administration): deletes a support user; their sessions and reset links go with them (the
 * foreign keys cascade), and what they decided keeps its record without the name (set null). Nobody removes
 * themselves, and one enabled user with Administration always remains. Audited with the email and name.
 */
export async function removeSupportUser(ctx: DomainContext, id: number): Promise<void> {
  requirePermission(ctx.actor, 'users:manage:any');
  const user = await findSupportUserRecord(ctx.db, id);
  if (!user) throw notFound('Support user');
  // The last administrator is told so first (also when it is themselves); then nobody removes themselves.
  if (user.disabledAt === null && (user.permissions ?? []).includes('Administration')) {
    await requireAnotherAdministrator(ctx, user.id, 'Id');
  }
  if (ctx.actor.type === 'support' && ctx.actor.supportUserId === user.id) {
    throw new AppError('CONFLICT', 'You cannot remove yourself', [{ field: 'Id', message: 'notYourself' }]);
  }
  await ctx.db.delete(supportUsers).where(eq(supportUsers.id, user.id));
  await writeAudit(ctx, {
    action: 'support_user.remove',
    targetType: 'support_user',
    targetId: user.id,
    before: { email: user.email, name: user.name, permissions: user.permissions },
  });
}
