import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { supportUsers } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { writeAudit } from '../audit.ts';
import { getSupportProfile, type SupportProfile } from './get-support-profile.ts';
import type { SupportUserInput } from '#lib/schemas/support-user.ts';

/** Creates a support user (Administration only). Editing, disabling and removal come with the support issue. */
export async function createSupportUser(ctx: DomainContext, input: SupportUserInput): Promise<SupportProfile> {
  requirePermission(ctx.actor, 'users:manage:any');
  const email = input.email.trim().toLowerCase();
  const [existing] = await ctx.db.select({ id: supportUsers.id }).from(supportUsers).where(eq(supportUsers.email, email));
  if (existing) {
    throw new AppError('CONFLICT', 'A support user with this email exists', [
      { field: 'email', message: 'A support user with this email exists' },
    ]);
  }
  const [row] = await ctx.db
    .insert(supportUsers)
    .values({ email, name: input.name, passwordHash: await hashPassword(input.password), permissions: input.permissions })
    .returning({ id: supportUsers.id });
  if (!row) throw new AppError('CONFLICT', 'Could not create the support user');
  await writeAudit(ctx, {
    action: 'support_user.create',
    targetType: 'support_user',
    targetId: row.id,
    after: { email, name: input.name, permissions: input.permissions },
  });
  return getSupportProfile(ctx.db, row.id);
}

export type BootstrapResult = { created: boolean; email: string; generatedPassword: string | null };

/**
 * On the first start: makes sure one Administration user exists. Its password comes from
 * SUPPORT_ADMIN_PASSWORD or is generated and returned once, for the start script to print.
 */
export async function ensureBootstrapAdmin(
  ctx: DomainContext,
  options: { email: string; password: string | undefined; generate: () => string },
): Promise<BootstrapResult> {
  // Someone who can manage users must exist; a disabled account (e.g. the demo moderator) does not count.
  const [admin] = await ctx.db
    .select({ id: supportUsers.id })
    .from(supportUsers)
    .where(
      or(
        eq(supportUsers.email, options.email),
        and(isNull(supportUsers.disabledAt), sql`'Administration' = any(${supportUsers.permissions})`),
      ),
    )
    .limit(1);
  if (admin) return { created: false, email: options.email, generatedPassword: null };
  const password = options.password ?? options.generate();
  const [row] = await ctx.db
    .insert(supportUsers)
    .values({
      email: options.email,
      name: 'Administrator',
      passwordHash: await hashPassword(password),
      permissions: ['Administration', 'Support', 'SEO'],
    })
    .returning({ id: supportUsers.id });
  await writeAudit(ctx, {
    action: 'support_user.bootstrap',
    targetType: 'support_user',
    targetId: row?.id ?? null,
    after: { email: options.email, permissions: ['Administration', 'Support', 'SEO'] },
  });
  return { created: true, email: options.email, generatedPassword: options.password ? null : password };
}
