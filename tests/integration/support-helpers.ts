/**
 * Helpers for tests that act as support staff: two-step sign-in (TOTP) over HTTP, the bootstrap admin
 * with Administration working (`signInAdmin`), support users made by that admin, and one signed-in user
 * per role (`signedInPerRole`).
 */
import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { supportUsers } from '#server/db/schema.ts';
import { base32Decode, totpCode, totpStep } from '#server/domain/support-users/totp.ts';
import type { TestServer } from '#tests/support/test-server.ts';
import { turnOnTwoFactor } from '#tests/support/two-factor.ts';
import { advertiserSessionCookie, createAdvert } from '#tests/support/fixtures.ts';
import { sessionCookieName } from '#server/api/http.ts';
import { call, uniqueEmail } from './accounts-helpers.ts';

/** A password support users may have (12 characters or more, not a common one). */
export const SUPPORT_PASSWORD = 'lantern over the fjord 17';

/** The server's clock (tests with `clockedServer` pass theirs). */
export type Clock = () => Date;
const wallClock: Clock = () => new Date();

/** The support session cookie a response set ("support_sid=…", "__Host-support_sid=…" on https), or undefined. */
export function supportCookieOf(response: Response, secure = false): string | undefined {
  return response.headers.getSetCookie().find((c) => c.startsWith(`${sessionCookieName('support', secure)}=`))?.split(';')[0];
}

/** The code of a secret (base32) for a step (default: the step `now` falls in). */
export function codeOf(secret: string, now: Date = new Date(), step = totpStep(now)): string {
  return totpCode(base32Decode(secret), step);
}

/**
 * A code the server accepts now for this user: the current step, or the next one (accepted too, ±1)
 * when the current one was used; waits for the clock to move on when both were.
 */
export async function freshCode(server: TestServer, supportUserId: number, secret: string, clock: Clock = wallClock): Promise<string> {
  for (;;) {
    const [user] = await server.db
      .select({ lastStep: supportUsers.totpLastStep })
      .from(supportUsers)
      .where(eq(supportUsers.id, supportUserId));
    const now = clock();
    const current = totpStep(now);
    const step = Math.max(current, (user?.lastStep ?? -1) + 1);
    if (step <= current + 1) return codeOf(secret, now, step);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * Turns two-step sign-in on for the signed-in user (setup with their password, then confirm with a code:
 * `turnOnTwoFactor`, shared with the bench); answers the secret.
 */
export async function enableTwoFactor(server: TestServer, cookie: string, clock: Clock = wallClock, password = SUPPORT_PASSWORD): Promise<string> {
  const { setup, confirm, secret } = await turnOnTwoFactor(server.url, cookie, password, clock);
  expect(setup.status, setup.text).toBe(200);
  expect(confirm?.status, confirm?.text).toBe(204);
  return secret!;
}

/** Signs in with password and (when given a secret) a fresh code; answers the session cookie. */
export async function signInSupport(
  server: TestServer,
  user: { id: number; email: string; password: string; secret?: string | undefined },
  clock: Clock = wallClock,
): Promise<string> {
  const code = user.secret ? await freshCode(server, user.id, user.secret, clock) : undefined;
  const response = await call(server, '/api/support/login', {
    body: { Email: user.email, Password: user.password, ...(code ? { Code: code } : {}) },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return supportCookieOf(response)!;
}

type AdminSession = { cookie: string; id: number; secret: string };
const adminSessions = new WeakMap<TestServer, AdminSession>();

/**
 * The bootstrap admin (`server.admin`) signed in with Administration working: the first time for a
 * server, two-step sign-in is enabled for them (required for Administration), then they sign in with a
 * code. The session is kept for the server and reused while it lasts (a code works once).
 */
export async function signInAdmin(server: TestServer, clock: Clock = wallClock): Promise<string> {
  const known = adminSessions.get(server);
  if (known) {
    const profile = await call(server, '/api/support/supportprofile', { cookie: known.cookie });
    if (profile.status === 200) return known.cookie;
  }
  const [admin] = await server.db.select().from(supportUsers).where(eq(supportUsers.email, server.admin.email));
  if (!admin) throw new Error('the test server has no bootstrap admin');
  let secret = known?.secret ?? (admin.totpEnabledAt ? admin.totpSecret : null);
  if (!secret) {
    const first = await signInSupport(server, { id: admin.id, ...server.admin }, clock);
    secret = await enableTwoFactor(server, first, clock, server.admin.password);
    adminSessions.set(server, { cookie: first, id: admin.id, secret });
    return first;
  }
  const cookie = await signInSupport(server, { id: admin.id, ...server.admin, secret }, clock);
  adminSessions.set(server, { cookie, id: admin.id, secret });
  return cookie;
}

/** The bootstrap admin's TOTP secret once `signInAdmin` enabled it. */
export function adminSecretOf(server: TestServer): string | undefined {
  return adminSessions.get(server)?.secret;
}

export type SupportUserRow = {
  id: number;
  email: string;
  name: string;
  permissions: string[];
  disabled: boolean;
  twoFactorEnabled: boolean;
  lastLoginAt: string | null;
  createdAt: string;
};

/** A new support user made by the admin (POST users); answers the row and the password. */
export async function createSupportUserOverHttp(
  server: TestServer,
  input: { permissions: string[]; name?: string; email?: string; password?: string },
  adminCookie?: string,
): Promise<SupportUserRow & { password: string }> {
  const cookie = adminCookie ?? (await signInAdmin(server));
  const password = input.password ?? SUPPORT_PASSWORD;
  const response = await call(server, '/api/support/users', {
    body: {
      Email: input.email ?? uniqueEmail('support'),
      Name: input.name ?? 'Tove Testesen',
      Password: password,
      Permissions: input.permissions,
    },
    cookie,
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return { ...((await response.json()) as SupportUserRow), password };
}

/**
 * The session cookie of a new support user with these permissions, signed in; with Administration, two-step
 * sign-in is turned on first (the role's calls wait for it).
 */
export async function signedInSupportUser(server: TestServer, permissions: string[], adminCookie?: string): Promise<string> {
  const user = await createSupportUserOverHttp(server, { permissions }, adminCookie);
  if (!permissions.includes('Administration')) return signInSupport(server, user);
  const secret = await enableTwoFactor(server, await signInSupport(server, user));
  return signInSupport(server, { ...user, secret });
}

/** The support roles a test signs in as, each a support user with that one permission. */
export type SupportRole = 'SEO' | 'Support' | 'Administration';

/**
 * One signed-in user per role asked for, as session cookies by role: a new support user with just that
 * permission for each support role (made by the admin), and for `advertiser` an advertiser whose advert is
 * not public yet (a session without a support session, to be refused).
 */
export async function signedInPerRole<R extends SupportRole | 'advertiser'>(server: TestServer, roles: readonly R[]): Promise<Record<R, string>> {
  const adminCookie = await signInAdmin(server);
  const cookies = {} as Record<R, string>;
  for (const role of roles) {
    if (role === 'advertiser') {
      const { accountId } = await createAdvert(server.db, { name: 'Annoncør Anne', status: 0, approvedAt: null, ageVerifiedAt: null, expirationDate: null });
      cookies[role] = await advertiserSessionCookie(server.db, accountId);
    } else {
      cookies[role] = await signedInSupportUser(server, [role], adminCookie);
    }
  }
  return cookies;
}
