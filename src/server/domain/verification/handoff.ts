import { and, eq, isNull } from 'drizzle-orm';
import { toString as qrCodeToString } from 'qrcode';
import { VERIFICATION_LIMITS, type HandoffLink } from '#lib/schemas/verification.ts';
import { accounts, verificationHandoffs } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import type { Actor, DomainContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { writeAudit } from '../audit.ts';
import { hashToken } from '../accounts/sessions.ts';
import { newLinkToken } from '../accounts/tokens.ts';
import { refuseWhileImpersonating } from '../accounts/impersonation.ts';
import { getOwnAdvert } from '../adverts/own-advert.ts';
import { HANDOFF_SESSION, requireMayVerify } from './verification-records.ts';

/**
 * ageverificationbyqrcode: the advertiser continues the verification on a phone by scanning a QR code.
 * The link `{siteUrl}/backend/verification/?handoff={token}` works for 30 minutes, for this advertiser's
 * verification files only (upload, look, delete: the door accepts `Handoff` on those calls and no
 * other); a newer link ends the older one, and submitting the verification ends them all. Only the
 * token's SHA-256 is stored. Its first use is audited.
 */

const MINUTE = 60_000;

const handoffRefused = () =>
  new AppError('UNAUTHENTICATED', 'The link has expired. Scan a new QR code.', [{ field: 'Handoff', message: 'handoffExpired' }]);

export async function createHandoff(ctx: DomainContext, siteUrl: string): Promise<HandoffLink> {
  refuseWhileImpersonating(ctx.actor, 'verification.upload');
  const advert = await getOwnAdvert(ctx);
  requireMayVerify(advert);
  const now = ctx.now();
  await revokeHandoffs(ctx.db, advert.accountId, now);
  const { token, tokenHash } = newLinkToken();
  const expiresAt = new Date(now.getTime() + VERIFICATION_LIMITS.handoffMinutes * MINUTE);
  await ctx.db.insert(verificationHandoffs).values({ tokenHash, accountId: advert.accountId, createdAt: now, expiresAt });
  const url = `${siteUrl.replace(/\/$/, '')}/backend/verification/?handoff=${token}`;
  const qrSvg = await qrCodeToString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  await writeAudit(ctx, { action: 'verification.handoff_create', targetType: 'account', targetId: advert.accountId, after: { expiresAt } });
  return { url, qrSvg, expiresAt: expiresAt.toISOString() };
}

/** Ends every hand-off link of the account (a newer link, a submitted or decided verification). */
export async function revokeHandoffs(db: Db, accountId: number, now: Date): Promise<void> {
  await db
    .update(verificationHandoffs)
    .set({ revokedAt: now })
    .where(and(eq(verificationHandoffs.accountId, accountId), isNull(verificationHandoffs.revokedAt)));
}

/**
 * The advertiser a hand-off token stands for (an advertiser actor without a session), or 401
 * `handoffExpired` when it is unknown, expired, ended, or its account deleted.
 */
export async function resolveHandoff(ctx: DomainContext, token: string): Promise<Extract<Actor, { type: 'advertiser' }>> {
  const now = ctx.now();
  const [row] = await ctx.db
    .select({ handoff: verificationHandoffs, accountDeletedAt: accounts.deletedAt })
    .from(verificationHandoffs)
    .innerJoin(accounts, eq(accounts.id, verificationHandoffs.accountId))
    .where(eq(verificationHandoffs.tokenHash, hashToken(token)))
    .limit(1);
  if (!row || row.handoff.revokedAt !== null || row.handoff.expiresAt <= now || row.accountDeletedAt !== null) throw handoffRefused();
  const actor = { type: 'advertiser' as const, accountId: row.handoff.accountId, sessionId: HANDOFF_SESSION, impersonatedBy: null };
  if (row.handoff.firstUsedAt === null) {
    const [first] = await ctx.db
      .update(verificationHandoffs)
      .set({ firstUsedAt: now })
      .where(and(eq(verificationHandoffs.tokenHash, row.handoff.tokenHash), isNull(verificationHandoffs.firstUsedAt)))
      .returning({ tokenHash: verificationHandoffs.tokenHash });
    if (first) {
      await writeAudit({ ...ctx, actor }, { action: 'verification.handoff_use', targetType: 'account', targetId: row.handoff.accountId, after: { userAgent: ctx.userAgent ?? null } });
    }
  }
  return actor;
}
