import { asc, count, eq, ilike, or } from 'drizzle-orm';
import { supportUsers } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import type { DomainContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { isSupportRole, requirePermission, type SupportRole } from '../permissions.ts';
import { containing } from '../../db/like.ts';

export type SupportUserRecord = typeof supportUsers.$inferSelect;

/** One support user as Administration sees it (never the password hash or the TOTP secret). */
export type SupportUserRow = {
  id: number;
  email: string;
  name: string;
  permissions: SupportRole[];
  disabled: boolean;
  twoFactorEnabled: boolean;
  lastLoginAt: string | null;
  createdAt: string;
};

export function toSupportUserRow(user: SupportUserRecord): SupportUserRow {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    permissions: (user.permissions ?? []).filter(isSupportRole),
    disabled: user.disabledAt !== null,
    twoFactorEnabled: user.totpEnabledAt !== null,
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
  };
}

/** The support user with this id, or null (no permission check: callers check theirs). */
export async function findSupportUserRecord(db: Db, id: number): Promise<SupportUserRecord | null> {
  const [user] = await db.select().from(supportUsers).where(eq(supportUsers.id, id)).limit(1);
  return user ?? null;
}

/** `%text%` for ILIKE, with the pattern characters in the text taken literally. */

/** users (Administration): support users by name, paged; `text` matches name or email, any case. */
export async function listSupportUsers(
  ctx: DomainContext,
  input: { skip: number; take: number; text?: string | undefined },
): Promise<{ total: number; items: SupportUserRow[] }> {
  requirePermission(ctx.actor, 'users:manage:any');
  const where = input.text
    ? or(ilike(supportUsers.name, containing(input.text)), ilike(supportUsers.email, containing(input.text)))
    : undefined;
  const [totals, rows] = await Promise.all([
    ctx.db.select({ total: count() }).from(supportUsers).where(where),
    ctx.db
      .select()
      .from(supportUsers)
      .where(where)
      .orderBy(asc(supportUsers.name), asc(supportUsers.id))
      .offset(input.skip)
      .limit(input.take),
  ]);
  return { total: totals[0]?.total ?? 0, items: rows.map(toSupportUserRow) };
}

/** user (Administration): one support user; 404 when unknown. */
export async function getSupportUser(ctx: DomainContext, id: number): Promise<SupportUserRow> {
  requirePermission(ctx.actor, 'users:manage:any');
  const user = await findSupportUserRecord(ctx.db, id);
  if (!user) throw notFound('Support user');
  return toSupportUserRow(user);
}
