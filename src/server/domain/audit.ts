import { auditLog } from '../db/schema.ts';
import type { DomainContext } from './context.ts';

export type AuditEntry = {
  action: string;
  targetType: string;
  targetId?: string | number | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
};

/** The audit row of an entry: who (the context's actor and address), what, before, after, why. */
export function auditRow(ctx: Pick<DomainContext, 'actor' | 'ip'>, entry: AuditEntry): typeof auditLog.$inferInsert {
  const actor = ctx.actor;
  const actorId =
    actor.type === 'support' ? actor.supportUserId : actor.type === 'advertiser' ? actor.accountId : null;
  return {
    actorType: actor.type,
    actorId,
    impersonatedBy: actor.type === 'advertiser' ? actor.impersonatedBy : null,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId == null ? null : String(entry.targetId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    reason: entry.reason ?? null,
    ip: ctx.ip ?? null,
  };
}

/** Appends to the audit log (never updated or deleted by the product): who, what, before, after, why. */
export async function writeAudit(ctx: DomainContext, entry: AuditEntry): Promise<void> {
  await ctx.db.insert(auditLog).values(auditRow(ctx, entry));
}
