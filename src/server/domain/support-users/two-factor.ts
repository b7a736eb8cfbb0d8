import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { toString as qrCodeToString } from 'qrcode';
import { supportUsers } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import type { DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { requireSupportUser } from '../permissions.ts';
import { writeAudit } from '../audit.ts';
import { getSite } from '../accounts/account-messages.ts';
import { invalidField } from '../accounts/account-records.ts';
import { findSupportUserRecord, type SupportUserRecord } from './list-support-users.ts';
import { generateTotpSecret, totpUri, verifyTotp } from './totp.ts';

/**
 * Two-step sign-in for support users (TOTP, RFC 6238: SHA-1, 6 digits, 30 s, ±1 step). Optional, and
 * required for Administration: until it is enabled, the Administration role does not act (support-roles.ts).
 * Secrets are stored as base32 and never logged or audited; a used step is refused (`totpLastStep`).
 */

export type TwoFactorSetup = { secret: string; otpauthUri: string; qrSvg: string };

const codeWrong = () => invalidField('Code', 'codeWrong', 'The code is wrong.');

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
 * twofactorsetup: a new secret, kept as pending until a code confirms it, with the otpauth URI and its
 * QR code (SVG) for the authenticator app. Any signed-in support user; an active secret stays until then.
 */
export async function setUpTwoFactor(ctx: DomainContext): Promise<TwoFactorSetup> {
  const user = await signedInUser(ctx);
  const secret = generateTotpSecret();
  await ctx.db.update(supportUsers).set({ totpPendingSecret: secret }).where(eq(supportUsers.id, user.id));
  await writeAudit(ctx, { action: 'support_user.two_factor_setup', targetType: 'support_user', targetId: user.id });
  const site = await getSite(ctx.db);
  const otpauthUri = totpUri({ issuer: site.siteName, account: user.email, secret });
  const qrSvg = await qrCodeToString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauthUri, qrSvg };
}

/** twofactorconfirm: a code of the pending secret turns two-step sign-in on (or moves it to a new secret). */
export async function confirmTwoFactor(ctx: DomainContext, input: { code: string }): Promise<void> {
  const user = await signedInUser(ctx);
  if (!user.totpPendingSecret) throw invalidField('Code', 'setupFirst', 'Start the setup first.');
  const step = verifyTotp(user.totpPendingSecret, input.code, ctx.now());
  if (step === null) throw codeWrong();
  const [enabled] = await ctx.db
    .update(supportUsers)
    .set({ totpSecret: user.totpPendingSecret, totpPendingSecret: null, totpEnabledAt: ctx.now(), totpLastStep: step })
    .where(and(eq(supportUsers.id, user.id), eq(supportUsers.totpPendingSecret, user.totpPendingSecret)))
    .returning({ id: supportUsers.id });
  if (!enabled) throw invalidField('Code', 'setupFirst', 'Start the setup first.');
  await writeAudit(ctx, {
    action: 'support_user.two_factor_enabled',
    targetType: 'support_user',
    targetId: user.id,
    after: { replacedEarlierSecret: user.totpEnabledAt !== null },
  });
}

/**
 * twofactordisable: with a current code, turns two-step sign-in off; refused (409) to a user with
 * Administration, for whom it is required.
 */
export async function disableTwoFactor(ctx: DomainContext, input: { code: string }): Promise<void> {
  const user = await signedInUser(ctx);
  if ((user.permissions ?? []).includes('Administration')) {
    throw new AppError('CONFLICT', 'Two-step sign-in is required for Administration', [
      { field: 'Code', message: 'twoFactorRequiredForAdministration' },
    ]);
  }
  if (!user.totpSecret || !user.totpEnabledAt) throw invalidField('Code', 'setupFirst', 'Two-step sign-in is not enabled.');
  const step = verifyTotp(user.totpSecret, input.code, ctx.now(), { lastUsedStep: user.totpLastStep });
  if (step === null) throw codeWrong();
  const cleared = { totpSecret: null, totpPendingSecret: null, totpEnabledAt: null };
  if (!(await useTotpStep(ctx.db, user.id, step, cleared))) throw codeWrong();
  await writeAudit(ctx, { action: 'support_user.two_factor_disabled', targetType: 'support_user', targetId: user.id });
}
