import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import { supportUsers } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { requirePermission, type SupportRole } from '../permissions.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { requireAcceptablePassword } from '../accounts/password-policy.ts';
import { isUniqueViolation } from '../accounts/account-records.ts';
import { deleteSupportUserSessions } from '../accounts/sessions.ts';
import { writeAudit } from '../audit.ts';
import { findSupportUserRecord, toSupportUserRow, type SupportUserRecord, type SupportUserRow } from './list-support-users.ts';
import type { SaveSupportUserInput, SupportUserInput } from '#lib/schemas/support-user.ts';

/** A 409 naming one field with an i18n message key. */
const conflict = (field: string, key: string, message: string) => new AppError('CONFLICT', message, [{ field, message: key }]);

const emailTaken = () => conflict('email', 'duplicate', 'A support user with this email exists');

/** What the audit log keeps of a support user: never the password hash or the TOTP secret. */
function audited(user: SupportUserRecord) {
  return {
    email: user.email,
    name: user.name,
    permissions: user.permissions,
    disabled: user.disabledAt !== null,
    twoFactorEnabled: user.totpEnabledAt !== null,
  };
}

/** Whether the user counts towards "at least one enabled user with Administration". */
const isEnabledAdministrator = (user: { disabledAt: Date | null; permissions: string[] | null }) =>
  user.disabledAt === null && (user.permissions ?? []).includes('Administration');

/** Throws `lastAdministrator` at `field` unless another enabled user with Administration remains besides `id`. */
export async function requireAnotherAdministrator(ctx: DomainContext, id: number, field: string): Promise<void> {
  const [other] = await ctx.db
    .select({ id: supportUsers.id })
    .from(supportUsers)
    .where(and(ne(supportUsers.id, id), isNull(supportUsers.disabledAt), sql`'Administration' = any(${supportUsers.permissions})`))
    .limit(1);
  if (!other) throw conflict(field, 'lastAdministrator', 'At least one enabled user must keep Administration');
}

/** Creates a support user (Administration only); the email must be free. */
export async function createSupportUser(ctx: DomainContext, input: SupportUserInput): Promise<SupportUserRow> {
  requirePermission(ctx.actor, 'users:manage:any');
  const email = input.email.trim().toLowerCase();
  const [existing] = await ctx.db.select({ id: supportUsers.id }).from(supportUsers).where(eq(supportUsers.email, email));
  if (existing) throw emailTaken();
  requireAcceptablePassword(input.password, { field: 'password', email });
  const [row] = await ctx.db
    .insert(supportUsers)
    .values({ email, name: input.name, passwordHash: await hashPassword(input.password), permissions: input.permissions })
    .returning()
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? emailTaken() : error;
    });
  if (!row) throw new AppError('CONFLICT', 'Could not create the support user');
  await writeAudit(ctx, { action: 'support_user.create', targetType: 'support_user', targetId: row.id, after: audited(row) });
  return toSupportUserRow(row);
}

/**
 * Updates a support user (Administration only): name, email, permissions, disabled; optionally a new
 * password and a reset of two-step sign-in. When a permission is removed, the user is disabled, the
 * password is set or two-step sign-in reset, every session of the user ends at once. Nobody disables
 * themselves or removes their own Administration, and one enabled user with Administration always remains.
 */
export async function updateSupportUser(ctx: DomainContext, input: SaveSupportUserInput & { id: number }): Promise<SupportUserRow> {
  requirePermission(ctx.actor, 'users:manage:any');
  const before = await findSupportUserRecord(ctx.db, input.id);
  if (!before) throw notFound('Support user');
  const email = input.email.trim().toLowerCase();
  const isSelf = ctx.actor.type === 'support' && ctx.actor.supportUserId === before.id;
  const wasAdministrator = (before.permissions ?? []).includes('Administration');
  const keepsAdministration = input.permissions.includes('Administration');
  // The last administrator is told so first (also when it is themselves); then nobody locks themselves out.
  if (isEnabledAdministrator(before) && !(keepsAdministration && !input.disabled)) {
    await requireAnotherAdministrator(ctx, before.id, keepsAdministration ? 'disabled' : 'permissions');
  }
  if (isSelf && input.disabled) throw conflict('disabled', 'notYourself', 'You cannot disable yourself');
  if (isSelf && wasAdministrator && !keepsAdministration) {
    throw conflict('permissions', 'notYourself', 'You cannot remove your own Administration');
  }
  if (email !== before.email) {
    const [taken] = await ctx.db
      .select({ id: supportUsers.id })
      .from(supportUsers)
      .where(and(eq(supportUsers.email, email), ne(supportUsers.id, before.id)));
    if (taken) throw emailTaken();
  }
  const password = input.password ? input.password : undefined;
  if (password) requireAcceptablePassword(password, { field: 'password', email });

  const now = ctx.now();
  const permissionRemoved = (before.permissions ?? []).some((role) => !input.permissions.includes(role as SupportRole));
  const disabling = input.disabled && before.disabledAt === null;
  const resettingTwoFactor = input.resetTwoFactor && (before.totpEnabledAt !== null || before.totpPendingSecret !== null);
  const [after] = await ctx.db
    .update(supportUsers)
    .set({
      email,
      name: input.name,
      permissions: input.permissions,
      disabledAt: input.disabled ? (before.disabledAt ?? now) : null,
      ...(password ? { passwordHash: await hashPassword(password), passwordChangedAt: now } : {}),
      ...(resettingTwoFactor ? { totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null } : {}),
    })
    .where(eq(supportUsers.id, before.id))
    .returning()
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? emailTaken() : error;
    });
  if (!after) throw notFound('Support user');
  const sessionsEnded =
    permissionRemoved || disabling || password || resettingTwoFactor ? await deleteSupportUserSessions(ctx.db, before.id) : 0;
  await writeAudit(ctx, {
    action: 'support_user.update',
    targetType: 'support_user',
    targetId: before.id,
    before: audited(before),
    after: {
      ...audited(after),
      ...(password ? { passwordSet: true } : {}),
      ...(resettingTwoFactor ? { twoFactorReset: true } : {}),
      sessionsEnded,
    },
  });
  return toSupportUserRow(after);
}

/** POST users: creates (no id) or updates (with id) a support user. */
export async function saveSupportUser(
  ctx: DomainContext,
  input: SaveSupportUserInput,
): Promise<{ created: boolean; user: SupportUserRow }> {
  if (input.id === undefined) {
    const { password, email, name, permissions } = input;
    if (!password) throw new AppError('INVALID', 'Some required fields are missed', [{ field: 'password', message: 'required' }]);
    return { created: true, user: await createSupportUser(ctx, { email, name, password, permissions }) };
  }
  return { created: false, user: await updateSupportUser(ctx, { ...input, id: input.id }) };
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
