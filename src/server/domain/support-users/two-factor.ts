import { and, eq, isNotNull, isNull, lt, or, type Column } from 'drizzle-orm';
import { toString as qrCodeToString } from 'qrcode';
import { supportUsers } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { requireSupportUser } from '../permissions.ts';
import { writeAudit } from '../audit.ts';
import { getSite } from '../accounts/account-messages.ts';
import { invalidField } from '../accounts/account-records.ts';
import { verifyPassword } from '../accounts/passwords.ts';
import { deleteSupportUserSessions } from '../accounts/sessions.ts';
import { needsResealing, openSecret, sealSecret, type SecretKeys } from '../secret-box.ts';
import { findSupportUserRecord, type SupportUserRecord } from './list-support-users.ts';
import { generateTotpSecret, totpUri, verifyTotp } from './totp.ts';

/**
 * Two-step sign-in for support users (TOTP, RFC 6238: SHA-1, 6 digits, 30 s, ±1 step). Optional, and
 * required for Administration: until it is enabled, the Administration role does not act (support-roles.ts).
 * Secrets are never logged or audited and are stored encrypted (`sealTotpSecret`, domain/secret-box.ts,
 * SECRETS_KEY); a used step is refused (`totpLastStep`).
 *
 * A session alone cannot change the second factor (issue 15 item 5): a new secret is handed out only
 * against the password (no authenticator yet) or a current code of the authenticator that is on
 * (`proveItIsYou`), turning it off takes a current code, and enabling, moving or turning it off ends
 * the user's other sessions and the impersonation sessions they started (the current one stays).
 */

export type TwoFactorSetup = { secret: string; otpauthUri: string; qrSvg: string };

const codeWrong = () => invalidField('Code', 'codeWrong', 'The code is wrong.');

/** What a TOTP secret is bound to when sealed (the same for the pending and the active column). */
const totpContext = (supportUserId: number) => `support_user:${supportUserId}:totp`;

export function sealTotpSecret(keys: SecretKeys, supportUserId: number, secret: string): string {
  return sealSecret(keys, secret, totpContext(supportUserId));
}

/** The base32 secret of a stored (sealed, or still clear) value. */
export function openTotpSecret(keys: SecretKeys, supportUserId: number, stored: string): string {
  return openSecret(keys, stored, totpContext(supportUserId));
}

/**
 * Seals every TOTP secret stored in clear or with a previous key with the current key (run at every
 * start, before the server listens: the migration of clear secrets and the second half of a rotation).
 * A value that no known key opens stops the start with a message naming the key id. Answers how many
 * values were sealed again. Each row is written only if it did not change meanwhile (several instances).
 */
export async function resealSupportSecrets(db: Db, keys: SecretKeys): Promise<number> {
  const rows = await db
    .select({ id: supportUsers.id, totpSecret: supportUsers.totpSecret, totpPendingSecret: supportUsers.totpPendingSecret })
    .from(supportUsers)
    .where(or(isNotNull(supportUsers.totpSecret), isNotNull(supportUsers.totpPendingSecret)));
  let resealed = 0;
  for (const row of rows) {
    const reseal = (stored: string | null) =>
      stored !== null && needsResealing(keys, stored) ? sealTotpSecret(keys, row.id, openTotpSecret(keys, row.id, stored)) : stored;
    const totpSecret = reseal(row.totpSecret);
    const totpPendingSecret = reseal(row.totpPendingSecret);
    if (totpSecret === row.totpSecret && totpPendingSecret === row.totpPendingSecret) continue;
    const same = (column: Column, value: string | null) => (value === null ? isNull(column) : eq(column, value));
    const [updated] = await db
      .update(supportUsers)
      .set({ totpSecret, totpPendingSecret })
      .where(and(eq(supportUsers.id, row.id), same(supportUsers.totpSecret, row.totpSecret), same(supportUsers.totpPendingSecret, row.totpPendingSecret)))
      .returning({ id: supportUsers.id });
    if (updated) resealed += (totpSecret !== row.totpSecret ? 1 : 0) + (totpPendingSecret !== row.totpPendingSecret ? 1 : 0);
  }
  return resealed;
}

export type TwoFactorOptions = { secrets: SecretKeys };

async function signedInUser(ctx: DomainContext): Promise<SupportUserRecord> {
  requireSupportUser(ctx.actor);
  const user = await findSupportUserRecord(ctx.db, ctx.actor.supportUserId);
  if (!user) throw notFound('Support user');
  return user;
}

/**
 * Marks a step as used if it is later than the last one used: answers false when another request used
 * it (or a later one) first, so a code works once even when two requests race.
 */
export async function useTotpStep(db: Db, supportUserId: number, step: number, extra: Partial<SupportUserRecord> = {}) {
  const [used] = await db
    .update(supportUsers)
    .set({ ...extra, totpLastStep: step })
    .where(and(eq(supportUsers.id, supportUserId), or(isNull(supportUsers.totpLastStep), lt(supportUsers.totpLastStep, step))))
    .returning({ id: supportUsers.id });
  return used !== undefined;
}

/**
 * Proof that the person at the session is the user: a current code of the authenticator when one is
 * on (the step is used up), else the password. A failure is audited and answered at its field.
 */
async function proveItIsYou(
  ctx: DomainContext,
  user: SupportUserRecord,
  input: { password?: string | undefined; code?: string | undefined },
  options: TwoFactorOptions,
): Promise<void> {
  const failed = async (field: 'Code' | 'Password') =>
    writeAudit(ctx, { action: 'support_user.two_factor_proof_failed', targetType: 'support_user', targetId: user.id, after: { field } });
  if (user.totpEnabledAt && user.totpSecret) {
    const code = input.code?.trim();
    if (!code) throw invalidField('Code', 'codeRequired', 'Enter a code of your current authenticator app.');
    const step = verifyTotp(openTotpSecret(options.secrets, user.id, user.totpSecret), code, ctx.now(), { lastUsedStep: user.totpLastStep });
    if (step === null || !(await useTotpStep(ctx.db, user.id, step))) {
      await failed('Code');
      throw codeWrong();
    }
    return;
  }
  if (!input.password) throw invalidField('Password', 'required', 'Enter your password.');
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    await failed('Password');
    throw invalidField('Password', 'wrongPassword', 'The password is wrong.');
  }
}

/** Ends the user's other sessions (and the impersonation sessions they started); the current one stays. */
async function endOtherSessions(ctx: DomainContext, supportUserId: number): Promise<number> {
  const current = ctx.actor.type === 'support' ? ctx.actor.sessionId : undefined;
  return deleteSupportUserSessions(ctx.db, supportUserId, { except: current });
}

/**
 * twofactorsetup: a new secret, kept (sealed) as pending until a code confirms it, with the otpauth URI
 * and its QR code (SVG) for the authenticator app. Any signed-in support user, who proves it is them:
 * the password, or a current code when an authenticator is on (it stays on until the new one is confirmed).
 */
export async function setUpTwoFactor(
  ctx: DomainContext,
  input: { password?: string | undefined; code?: string | undefined },
  options: TwoFactorOptions,
): Promise<TwoFactorSetup> {
  const user = await signedInUser(ctx);
  await proveItIsYou(ctx, user, input, options);
  const secret = generateTotpSecret();
  await ctx.db
    .update(supportUsers)
    .set({ totpPendingSecret: sealTotpSecret(options.secrets, user.id, secret) })
    .where(eq(supportUsers.id, user.id));
  await writeAudit(ctx, { action: 'support_user.two_factor_setup', targetType: 'support_user', targetId: user.id });
  const site = await getSite(ctx.db);
  const otpauthUri = totpUri({ issuer: site.siteName, account: user.email, secret });
  const qrSvg = await qrCodeToString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauthUri, qrSvg };
}

/**
 * twofactorconfirm: a code of the pending secret turns two-step sign-in on (or moves it to the new
 * secret); the user's other sessions end.
 */
export async function confirmTwoFactor(ctx: DomainContext, input: { code: string }, options: TwoFactorOptions): Promise<void> {
  const user = await signedInUser(ctx);
  if (!user.totpPendingSecret) throw invalidField('Code', 'setupFirst', 'Start the setup first.');
  const step = verifyTotp(openTotpSecret(options.secrets, user.id, user.totpPendingSecret), input.code, ctx.now());
  if (step === null) throw codeWrong();
  const [enabled] = await ctx.db
    .update(supportUsers)
    .set({ totpSecret: user.totpPendingSecret, totpPendingSecret: null, totpEnabledAt: ctx.now(), totpLastStep: step })
    .where(and(eq(supportUsers.id, user.id), eq(supportUsers.totpPendingSecret, user.totpPendingSecret)))
    .returning({ id: supportUsers.id });
  if (!enabled) throw invalidField('Code', 'setupFirst', 'Start the setup first.');
  const sessionsEnded = await endOtherSessions(ctx, user.id);
  await writeAudit(ctx, {
    action: 'support_user.two_factor_enabled',
    targetType: 'support_user',
    targetId: user.id,
    after: { replacedEarlierSecret: user.totpEnabledAt !== null, sessionsEnded },
  });
}

/**
 * twofactordisable: with a current code, turns two-step sign-in off and ends the user's other sessions;
 * refused (409) to a user with Administration, for whom it is required.
 */
export async function disableTwoFactor(ctx: DomainContext, input: { code: string }, options: TwoFactorOptions): Promise<void> {
  const user = await signedInUser(ctx);
  if ((user.permissions ?? []).includes('Administration')) {
    throw new AppError('CONFLICT', 'Two-step sign-in is required for Administration', [
      { field: 'Code', message: 'twoFactorRequiredForAdministration' },
    ]);
  }
  if (!user.totpSecret || !user.totpEnabledAt) throw invalidField('Code', 'setupFirst', 'Two-step sign-in is not enabled.');
  const step = verifyTotp(openTotpSecret(options.secrets, user.id, user.totpSecret), input.code, ctx.now(), { lastUsedStep: user.totpLastStep });
  if (step === null) throw codeWrong();
  const cleared = { totpSecret: null, totpPendingSecret: null, totpEnabledAt: null };
  if (!(await useTotpStep(ctx.db, user.id, step, cleared))) throw codeWrong();
  const sessionsEnded = await endOtherSessions(ctx, user.id);
  await writeAudit(ctx, { action: 'support_user.two_factor_disabled', targetType: 'support_user', targetId: user.id, after: { sessionsEnded } });
}
