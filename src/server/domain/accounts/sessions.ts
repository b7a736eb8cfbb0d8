import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, ne, or } from 'drizzle-orm';
import { accounts, sessions, supportUsers } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../context.ts';
import { permissionsOf } from '../permissions.ts';
import { activeSupportRoles } from '../support-users/support-roles.ts';

/** Session tokens live only in an HttpOnly cookie; the database keeps their SHA-256. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export type NewSession = { token: string; expiresAt: Date };

/**
 * How long a session may go unused before it ends (ADVERTISER_SESSION_IDLE_MINUTES,
 * SUPPORT_SESSION_IDLE_MINUTES): advertisers 7 days, support 2 hours by default. An impersonation
 * session is support's, so it follows the support timeout.
 */
export type SessionIdle = { advertiserMinutes: number; supportMinutes: number };
export const DEFAULT_SESSION_IDLE: SessionIdle = { advertiserMinutes: 7 * 24 * 60, supportMinutes: 120 };

/** `last_seen_at` is written at most this often per session (not on every request). */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

/**
 * Whether a session found by its token is still in use: an idle one (unused for longer than its
 * timeout) is deleted and answers false, as an expired one does; one in use gets `last_seen_at` moved
 * when it is older than LAST_SEEN_RESOLUTION_MS (one small write a minute per session at most).
 */
async function stillInUse(db: Db, id: string, lastSeenAt: Date, idleMinutes: number, now: Date): Promise<boolean> {
  if (now.getTime() - lastSeenAt.getTime() > idleMinutes * 60_000) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return false;
  }
  if (now.getTime() - lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.id, id), lt(sessions.lastSeenAt, new Date(now.getTime() - LAST_SEEN_RESOLUTION_MS + 1))));
  }
  return true;
}

export async function createSession(
  db: Db,
  owner: { accountId: number } | { supportUserId: number },
  options: { days: number; ip?: string | undefined; userAgent?: string | undefined; now: Date; impersonatedBy?: number },
): Promise<NewSession> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(options.now.getTime() + options.days * 86_400_000);
  await db.insert(sessions).values({
    id: hashToken(token),
    accountId: 'accountId' in owner ? owner.accountId : null,
    supportUserId: 'supportUserId' in owner ? owner.supportUserId : null,
    impersonatedBySupportUserId: options.impersonatedBy ?? null,
    createdAt: options.now,
    expiresAt,
    lastSeenAt: options.now,
    ip: options.ip ?? null,
    userAgent: options.userAgent?.slice(0, 400) ?? null,
  });
  return { token, expiresAt };
}

/** Ends the session of a cookie; answers whose it was (null when there was none). */
export async function deleteSession(db: Db, token: string): Promise<{ accountId: number | null; supportUserId: number | null } | null> {
  const [ended] = await db
    .delete(sessions)
    .where(eq(sessions.id, hashToken(token)))
    .returning({ accountId: sessions.accountId, supportUserId: sessions.supportUserId });
  return ended ?? null;
}

export async function deleteExpiredSessions(db: Db, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}

/**
 * The advertiser behind a session cookie, or a visitor. An impersonation session (support signed in as
 * the advertiser) counts only while its support user is enabled and holds the Support role. A session
 * unused for longer than its idle timeout ends (`stillInUse`).
 */
export async function resolveAdvertiserSession(
  db: Db,
  token: string | undefined,
  now: Date,
  idle: SessionIdle,
): Promise<Actor> {
  if (!token) return { type: 'visitor' };
  const id = hashToken(token);
  const [row] = await db
    .select({
      accountId: sessions.accountId,
      impersonatedBy: sessions.impersonatedBySupportUserId,
      impersonatorRoles: supportUsers.permissions,
      impersonatorDisabledAt: supportUsers.disabledAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .leftJoin(supportUsers, eq(supportUsers.id, sessions.impersonatedBySupportUserId))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row?.accountId) return { type: 'visitor' };
  if (row.impersonatedBy !== null) {
    const allowed = !row.impersonatorDisabledAt && permissionsOf(row.impersonatorRoles ?? []).includes('advertiser:impersonate:any');
    if (!allowed) return { type: 'visitor' };
  }
  const idleMinutes = row.impersonatedBy !== null ? idle.supportMinutes : idle.advertiserMinutes;
  if (!(await stillInUse(db, id, row.lastSeenAt, idleMinutes, now))) return { type: 'visitor' };
  return { type: 'advertiser', accountId: row.accountId, sessionId: id, impersonatedBy: row.impersonatedBy ?? null };
}

/**
 * The support user behind a support session cookie (disabled users have none), or a visitor. Without
 * two-step sign-in enabled, Administration's permissions are left out (`activeSupportRoles`).
 */
export async function resolveSupportSession(
  db: Db,
  token: string | undefined,
  now: Date,
  idle: SessionIdle,
): Promise<Actor> {
  if (!token) return { type: 'visitor' };
  const id = hashToken(token);
  const [row] = await db
    .select({
      supportUserId: supportUsers.id,
      roles: supportUsers.permissions,
      disabledAt: supportUsers.disabledAt,
      totpEnabledAt: supportUsers.totpEnabledAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(supportUsers, eq(supportUsers.id, sessions.supportUserId))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row || row.disabledAt) return { type: 'visitor' };
  if (!(await stillInUse(db, id, row.lastSeenAt, idle.supportMinutes, now))) return { type: 'visitor' };
  const roles = activeSupportRoles(row.roles, row.totpEnabledAt !== null);
  return { type: 'support', supportUserId: row.supportUserId, sessionId: id, roles, permissions: permissionsOf(roles) };
}

/** Ends every session of an advertiser (password change, deletion); answers how many there were. */
export async function deleteAccountSessions(db: Db, accountId: number): Promise<number> {
  const ended = await db.delete(sessions).where(eq(sessions.accountId, accountId)).returning({ id: sessions.id });
  return ended.length;
}

/**
 * Ends every session of a support user (disabled, a permission removed, password set, two-step reset),
 * with the advertiser sessions they impersonate in and their unused impersonation links; answers how many.
 * `except` keeps one session (the user's own, when they changed their second factor themselves).
 */
export async function deleteSupportUserSessions(db: Db, supportUserId: number, options: { except?: string | undefined } = {}): Promise<number> {
  const theirs = or(eq(sessions.supportUserId, supportUserId), eq(sessions.impersonatedBySupportUserId, supportUserId));
  const ended = await db
    .delete(sessions)
    .where(options.except ? and(theirs, ne(sessions.id, options.except)) : theirs)
    .returning({ id: sessions.id });
  return ended.length;
}
