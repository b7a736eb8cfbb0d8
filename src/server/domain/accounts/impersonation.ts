/**
 * Impersonation (issue 6, spec §2 "/impersonate (query url)", §7 frontend "impersonate (url)"): a support
 * user with the Support role enters the advertiser backend as the advertiser.
 *
 * 1. `issueImpersonationLink` (support call `impersonation`, ProfileId): a one-time link
 *    `/impersonate/?url={token}`, valid IMPERSONATION_LINK_SECONDS, bound to that support user and the
 *    advert's account. The token is random; only its SHA-256 is stored, as a row of `sessions` whose id
 *    carries LINK_ID_PREFIX (a cookie's hash is bare hex, so a link is never a session and a session never
 *    a link).
 * 2. `startImpersonation` (frontend `impersonate`, Url): the same support user, signed in to support and
 *    still holding Support, uses the link up; an advertiser session with `impersonatedBy` is made
 *    (IMPERSONATION_SESSION_HOURS). Audited `impersonation.started`.
 * 3. While it lasts every audit entry of the advertiser's actions carries `impersonated_by` (writeAudit,
 *    from the actor), and the actions in SENSITIVE_WHILE_IMPERSONATING are refused (`refuseWhileImpersonating`).
 * 4. `stopImpersonation` (backend `logout` of an impersonation session, the banner's Stop): the session
 *    ends; audited `impersonation.stopped`. The support user's own sign-out ends every impersonation
 *    session and unused link they started (`stopImpersonationsOf`, audited with `reason`). Disabling the support user or removing a permission ends their
 *    impersonation sessions too (`deleteSupportUserSessions`), and a session whose support user lost
 *    Support or was disabled is not honoured (`resolveAdvertiserSession`).
 * The audit entries of start and stop are made by the support user, about the account (`after.advertId`).
 */
import { and, asc, eq, gt } from 'drizzle-orm';
import { accounts, adverts, sessions, supportUsers } from '../../db/schema.ts';
import type { Actor, DomainContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { requirePermission } from '../permissions.ts';
import { writeAudit } from '../audit.ts';
import { supportUserActor } from '../support-users/support-roles.ts';
import { createSession, hashToken, type NewSession } from './sessions.ts';
import { newLinkToken } from './tokens.ts';

/** A link works this long, once. */
export const IMPERSONATION_LINK_SECONDS = 120;
/** An impersonation session ends after this long (support signs in again for more). */
export const IMPERSONATION_SESSION_HOURS = 2;
/** What marks a link's row in `sessions` (never a SHA-256 hex digest, so no cookie can match it). */
const LINK_ID_PREFIX = 'impersonation-link:';

/** Where the link points (the site's page posts the token to /api/frontend/impersonate). */
export const impersonationPath = (token: string) => `/impersonate/?url=${encodeURIComponent(token)}`;

/**
 * What support may not do as the advertiser: the account's credentials and identity stay the
 * advertiser's own. One place; each call names its entry here (`refuseWhileImpersonating`).
 */
export const SENSITIVE_WHILE_IMPERSONATING = [
  'password.change',
  'account.delete',
  'email.change',
  'phone.change',
  'verification.upload',
  'verification.files',
  'verification.age_check',
  'appeal.submit',
  'account.export',
  // A purchase spends the advertiser's own money (docs/decisions/025-commerce.md).
  'order.buy',
] as const;
export type SensitiveAction = (typeof SENSITIVE_WHILE_IMPERSONATING)[number];

/** The field message the screens translate (`validation.whileImpersonating`). */
export const WHILE_IMPERSONATING = 'whileImpersonating';

/** Throws 403 (field message `whileImpersonating`) when support acts as the advertiser. */
export function refuseWhileImpersonating(actor: Actor, action: SensitiveAction): void {
  if (actor.type === 'advertiser' && actor.impersonatedBy) {
    throw new AppError('FORBIDDEN', `Support signed in as the advertiser may not do this (${action})`, [
      { field: '', message: WHILE_IMPERSONATING },
    ]);
  }
}

export type ImpersonationLink = { url: string; expiresAt: string };

/** The advert's owner for support (any status, a deleted account refused). */
async function accountOfAdvert(ctx: DomainContext, advertId: number): Promise<{ accountId: number; advertId: number }> {
  const [row] = await ctx.db
    .select({ accountId: adverts.accountId, deletedAt: accounts.deletedAt })
    .from(adverts)
    .innerJoin(accounts, eq(accounts.id, adverts.accountId))
    .where(eq(adverts.id, advertId))
    .limit(1);
  if (!row) throw notFound('Advert');
  if (row.deletedAt) throw new AppError('CONFLICT', 'The account is deleted', [{ field: 'ProfileId', message: 'accountDeleted' }]);
  return { accountId: row.accountId, advertId };
}

/** impersonation (support, Support role): a one-time link to enter the advert's backend. Audited. */
export async function issueImpersonationLink(ctx: DomainContext, input: { advertId: number }): Promise<ImpersonationLink> {
  requirePermission(ctx.actor, 'advertiser:impersonate:any');
  if (ctx.actor.type !== 'support') throw new AppError('FORBIDDEN', 'Only a support user may impersonate');
  const { accountId, advertId } = await accountOfAdvert(ctx, input.advertId);
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + IMPERSONATION_LINK_SECONDS * 1000);
  const { token, tokenHash } = newLinkToken();
  await ctx.db.insert(sessions).values({
    id: `${LINK_ID_PREFIX}${tokenHash}`,
    accountId,
    supportUserId: null,
    impersonatedBySupportUserId: ctx.actor.supportUserId,
    createdAt: now,
    expiresAt,
    lastSeenAt: now,
    ip: ctx.ip ?? null,
    userAgent: ctx.userAgent?.slice(0, 400) ?? null,
  });
  await writeAudit(ctx, { action: 'impersonation.link_issued', targetType: 'account', targetId: accountId, after: { advertId } });
  return { url: impersonationPath(token), expiresAt: expiresAt.toISOString() };
}

/** Any failure to start: one answer, whatever the reason (unknown, used, expired, another's link). */
const linkRefused = () =>
  new AppError('FORBIDDEN', 'The impersonation link is invalid, used, expired or not yours', [{ field: 'Url', message: 'linkInvalid' }]);

/**
 * impersonate (frontend, Url): the support user who asked for the link, signed in to support with the
 * Support role, uses it up and gets an advertiser session as the advert's account. Audited.
 */
export async function startImpersonation(
  ctx: DomainContext,
  input: { token: string },
): Promise<{ session: NewSession; advertId: number | null }> {
  requirePermission(ctx.actor, 'advertiser:impersonate:any');
  if (ctx.actor.type !== 'support') throw linkRefused();
  const supportUserId = ctx.actor.supportUserId;
  const now = ctx.now();
  const tokenHash = hashToken(input.token);
  // Used up at once (a row deleted once): a second use, or another support user's attempt, finds nothing.
  const [link] = await ctx.db
    .delete(sessions)
    .where(
      and(
        eq(sessions.id, `${LINK_ID_PREFIX}${tokenHash}`),
        eq(sessions.impersonatedBySupportUserId, supportUserId),
        gt(sessions.expiresAt, now),
      ),
    )
    .returning({ accountId: sessions.accountId });
  if (!link?.accountId) throw linkRefused();
  const [account] = await ctx.db.select({ deletedAt: accounts.deletedAt }).from(accounts).where(eq(accounts.id, link.accountId));
  if (!account || account.deletedAt) throw linkRefused();
  const advertId = await advertIdOf(ctx, link.accountId);
  const session = await createSession(
    ctx.db,
    { accountId: link.accountId },
    { days: IMPERSONATION_SESSION_HOURS / 24, ip: ctx.ip, userAgent: ctx.userAgent, now, impersonatedBy: supportUserId },
  );
  await writeAudit(ctx, {
    action: 'impersonation.started',
    targetType: 'account',
    targetId: link.accountId,
    after: { advertId, until: session.expiresAt.toISOString() },
  });
  return { session, advertId };
}

async function advertIdOf(ctx: DomainContext, accountId: number): Promise<number | null> {
  const [advert] = await ctx.db.select({ id: adverts.id }).from(adverts).where(eq(adverts.accountId, accountId)).orderBy(asc(adverts.id)).limit(1);
  return advert?.id ?? null;
}

/**
 * Ends an impersonation session (the banner's Stop, or the backend's log-out while impersonating), audited
 * as done by the support user; answers the advert, for the way back to support. Null when the actor is
 * not impersonating (nothing done).
 */
export async function stopImpersonation(ctx: DomainContext): Promise<{ advertId: number | null } | null> {
  const actor = ctx.actor;
  if (actor.type !== 'advertiser' || !actor.impersonatedBy) return null;
  const ended = await ctx.db
    .delete(sessions)
    .where(and(eq(sessions.id, actor.sessionId), eq(sessions.impersonatedBySupportUserId, actor.impersonatedBy)))
    .returning({ id: sessions.id });
  const advertId = await advertIdOf(ctx, actor.accountId);
  if (ended.length > 0) {
    await writeAudit(
      { ...ctx, actor: supportUserActor(actor.impersonatedBy) },
      { action: 'impersonation.stopped', targetType: 'account', targetId: actor.accountId, after: { advertId } },
    );
  }
  return { advertId };
}

/**
 * Ends every impersonation session (and unused link) a support user started, each session audited as
 * `impersonation.stopped` with the reason (the support sign-out: `support_signed_out`); answers how many
 * sessions ended. The ended sessions answer 401 at their next call, and their hub connections close.
 */
export async function stopImpersonationsOf(ctx: DomainContext, supportUserId: number, reason: string): Promise<number> {
  const ended = await ctx.db
    .delete(sessions)
    .where(eq(sessions.impersonatedBySupportUserId, supportUserId))
    .returning({ id: sessions.id, accountId: sessions.accountId });
  const endedSessions = ended.filter((row) => !row.id.startsWith(LINK_ID_PREFIX) && row.accountId !== null);
  const actor = { ...ctx, actor: supportUserActor(supportUserId) };
  for (const session of endedSessions) {
    const advertId = await advertIdOf(ctx, session.accountId!);
    await writeAudit(actor, { action: 'impersonation.stopped', targetType: 'account', targetId: session.accountId, after: { advertId, reason } });
  }
  // The hub drops the account's open connections; the advertiser's own reconnect with their session,
  // the ended impersonation's are refused at the upgrade.
  for (const accountId of new Set(endedSessions.map((session) => session.accountId!))) {
    await ctx.events.publish({ type: 'account.sessions.ended', accountId });
  }
  return endedSessions.length;
}

/** What the backend's banner shows while support is signed in as the advertiser (userprofile). */
export type ImpersonationInfo = { supportUserName: string; advertName: string | null; advertId: number | null };

export async function getImpersonationInfo(ctx: Pick<DomainContext, 'db'>, actor: Actor): Promise<ImpersonationInfo | null> {
  if (actor.type !== 'advertiser' || !actor.impersonatedBy) return null;
  const [user] = await ctx.db.select({ name: supportUsers.name }).from(supportUsers).where(eq(supportUsers.id, actor.impersonatedBy));
  const [advert] = await ctx.db
    .select({ id: adverts.id, name: adverts.name })
    .from(adverts)
    .where(eq(adverts.accountId, actor.accountId))
    .orderBy(asc(adverts.id))
    .limit(1);
  return { supportUserName: user?.name ?? '', advertName: advert?.name ?? null, advertId: advert?.id ?? null };
}
