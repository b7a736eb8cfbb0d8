/**
 * Sessions (issue 15 item 11), over real HTTP with the server's clock moved:
 * - an idle timeout (advertisers 7 days, support 2 hours by default): a session unused for longer answers
 *   401 as an expired one does, at the doors and at the notification hub's session check;
 * - `last_seen_at` moves with use, at most once a minute per session;
 * - a support user's sign-out ends the impersonation sessions they started;
 * - over HTTPS the cookies are `__Host-sid` and `__Host-support_sid` (Secure, Path=/, no Domain), and
 *   only those names are accepted back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { auditLog, sessions } from '#server/db/schema.ts';
import { hashToken } from '#server/domain/accounts/sessions.ts';
import { startTestServer, signIn, type TestServer } from '#tests/support/test-server.ts';
import { createAdvertiser } from '#tests/support/fixtures.ts';
import { call, sessionCookieOf } from './accounts-helpers.ts';
import { createSupportUserOverHttp, signInAdmin, signInSupport, supportCookieOf } from './support-helpers.ts';
import { SITE_ORIGIN, upgradeRequest } from './hub-helpers.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let server: TestServer;
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const later = (ms: number) => void (offsetMs += ms);

beforeAll(async () => {
  server = await startTestServer({ now: clock, app: { rateLimitScale: 50 } });
  await signInAdmin(server, clock);
});
afterAll(async () => {
  await server?.close();
});

const status = async (path: string, cookie: string) => (await call(server, path, { cookie })).status;
const lastSeenOf = async (cookie: string) => {
  const [row] = await server.db.select({ lastSeenAt: sessions.lastSeenAt }).from(sessions).where(eq(sessions.id, hashToken(cookie.split('=')[1]!)));
  return row?.lastSeenAt ?? null;
};

async function signedInAdvertiser() {
  const advertiser = await createAdvertiser(server.db);
  return { ...advertiser, cookie: await signIn(server, 'frontend', { email: advertiser.email, password: advertiser.password }) };
}

describe('idle timeout', () => {
  it('ends an advertiser session unused for more than 7 days (401 at the doors and the hub); use keeps it going', async () => {
    const { cookie } = await signedInAdvertiser();
    later(6 * DAY);
    expect(await status('/api/backend/userprofile', cookie)).toBe(200);
    later(6 * DAY);
    expect(await status('/api/backend/userprofile', cookie)).toBe(200);
    // Twelve days in, well before the 30-day expiry, but unused for 7 days and a minute.
    later(7 * DAY + MINUTE);
    expect((await upgradeRequest(server, { origin: SITE_ORIGIN, cookie })).status).toBe(401);
    expect(await status('/api/backend/userprofile', cookie)).toBe(401);
    expect(await lastSeenOf(cookie)).toBeNull();
  });

  it('lets the hub upgrade a session in use', async () => {
    const { cookie } = await signedInAdvertiser();
    later(3 * DAY);
    expect((await upgradeRequest(server, { origin: SITE_ORIGIN, cookie })).status).toBe(101);
  });

  it('ends a support session unused for more than 2 hours', async () => {
    const user = await createSupportUserOverHttp(server, { permissions: ['Support'] }, await signInAdmin(server, clock));
    const cookie = await signInSupport(server, user, clock);
    later(110 * MINUTE);
    expect(await status('/api/support/supportprofile', cookie)).toBe(200);
    later(110 * MINUTE);
    expect(await status('/api/support/supportprofile', cookie)).toBe(200);
    later(2 * 60 * MINUTE + MINUTE);
    expect(await status('/api/support/supportprofile', cookie)).toBe(401);
  });
});

describe('last_seen_at', () => {
  it('moves with use, at most once a minute per session', async () => {
    const { cookie } = await signedInAdvertiser();
    const signedInAt = await lastSeenOf(cookie);
    expect(signedInAt).not.toBeNull();
    later(30_000);
    expect(await status('/api/backend/userprofile', cookie)).toBe(200);
    expect(await lastSeenOf(cookie)).toEqual(signedInAt);
    later(31_000);
    const before = clock().getTime();
    expect(await status('/api/backend/userprofile', cookie)).toBe(200);
    const moved = (await lastSeenOf(cookie))!.getTime();
    expect(moved).toBeGreaterThanOrEqual(before);
    expect(moved - signedInAt!.getTime()).toBeGreaterThanOrEqual(61_000);
  });
});

describe("support's sign-out", () => {
  it('ends the impersonation sessions that support user started, audited', async () => {
    const user = await createSupportUserOverHttp(server, { permissions: ['Support'] }, await signInAdmin(server, clock));
    const supportCookie = await signInSupport(server, user, clock);
    const advertiser = await createAdvertiser(server.db);
    const link = await call(server, '/api/support/impersonation', { body: { ProfileId: advertiser.id }, cookie: supportCookie });
    expect(link.status).toBe(201);
    const token = new URL(((await link.json()) as { url: string }).url, server.url).searchParams.get('url')!;
    const started = await call(server, '/api/frontend/impersonate', { body: { Url: token }, cookie: supportCookie });
    expect(started.status).toBe(200);
    const asAdvertiser = sessionCookieOf(started)!;
    expect(await status('/api/backend/userprofile', asAdvertiser)).toBe(200);
    // The advertiser's own session is not support's to end.
    const own = await signIn(server, 'frontend', { email: advertiser.email, password: advertiser.password });

    expect((await call(server, '/api/support/logout', { method: 'POST', cookie: supportCookie })).status).toBe(204);
    expect(await status('/api/backend/userprofile', asAdvertiser)).toBe(401);
    expect(await status('/api/backend/userprofile', own)).toBe(200);
    // The hub is told to drop the account's connections (the owner's reconnect; the ended session's cannot).
    expect(server.events).toContainEqual({ type: 'account.sessions.ended', accountId: advertiser.accountId });
    const [stopped] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'impersonation.stopped'), eq(auditLog.targetId, String(advertiser.accountId))))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(stopped).toMatchObject({ actorType: 'support', actorId: user.id, after: { advertId: advertiser.id, reason: 'support_signed_out' } });
  });
});

describe("support's sign-out after its session went idle", () => {
  it('still ends the impersonation session that was kept in use, and clears the cookie', async () => {
    // An instance where support sessions idle out after 30 minutes (impersonation sessions too).
    const short = await startTestServer({
      shareDatabaseOf: server,
      now: clock,
      app: { rateLimitScale: 50, sessionIdle: { advertiserMinutes: 7 * 24 * 60, supportMinutes: 30 } },
    });
    try {
      const user = await createSupportUserOverHttp(server, { permissions: ['Support'] }, await signInAdmin(server, clock));
      const supportCookie = await signInSupport(short, user, clock);
      const advertiser = await createAdvertiser(server.db);
      const link = await call(short, '/api/support/impersonation', { body: { ProfileId: advertiser.id }, cookie: supportCookie });
      const token = new URL(((await link.json()) as { url: string }).url, short.url).searchParams.get('url')!;
      const started = await call(short, '/api/frontend/impersonate', { body: { Url: token }, cookie: supportCookie });
      const asAdvertiser = sessionCookieOf(started)!;
      // Working as the advertiser for 40 minutes while the support tab is left alone (past its 30 idle minutes).
      for (let minutes = 0; minutes < 40; minutes += 20) {
        later(20 * MINUTE);
        expect((await call(short, '/api/backend/userprofile', { cookie: asAdvertiser })).status).toBe(200);
      }
      const out = await call(short, '/api/support/logout', { method: 'POST', cookie: supportCookie });
      expect(out.status).toBe(204);
      expect(out.headers.getSetCookie()[0]).toMatch(/^support_sid=;/);
      expect((await call(short, '/api/backend/userprofile', { cookie: asAdvertiser })).status).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe('__Host- cookies over HTTPS', () => {
  let https: TestServer;
  beforeAll(async () => {
    https = await startTestServer({ shareDatabaseOf: server, app: { cookieSecure: true, siteUrl: 'https://annonce.example', hubAllowedOrigins: ['https://annonce.example'] } });
  });
  afterAll(async () => {
    await https?.close();
  });

  const attributesOf = (setCookie: string) => setCookie.split(';').map((part) => part.trim().toLowerCase());

  it('sets __Host-sid (Secure, Path=/, no Domain) and accepts only that name back, at the doors and the hub', async () => {
    const advertiser = await createAdvertiser(server.db);
    const response = await call(https, '/api/frontend/login', { body: { Email: advertiser.email, Password: advertiser.password } });
    expect(response.status).toBe(200);
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('__Host-sid='));
    expect(setCookie).toBeDefined();
    expect(attributesOf(setCookie!)).toEqual(expect.arrayContaining(['secure', 'path=/', 'httponly']));
    expect(attributesOf(setCookie!).some((a) => a.startsWith('domain='))).toBe(false);
    const cookie = sessionCookieOf(response, true)!;
    expect((await call(https, '/api/backend/userprofile', { cookie })).status).toBe(200);
    expect((await upgradeRequest(https, { origin: 'https://annonce.example', cookie })).status).toBe(101);
    // The same token under the plain name is not this server's session cookie.
    const plain = cookie.replace(/^__Host-/, '');
    expect((await call(https, '/api/backend/userprofile', { cookie: plain })).status).toBe(401);
    expect((await call(https, '/api/backend/logout', { method: 'POST', cookie })).headers.getSetCookie()[0]).toMatch(/^__Host-sid=;/);
  });

  it('sets __Host-support_sid for support and accepts it back', async () => {
    const user = await createSupportUserOverHttp(server, { permissions: ['SEO'] }, await signInAdmin(server, clock));
    const response = await call(https, '/api/support/login', { body: { Email: user.email, Password: user.password } });
    expect(response.status).toBe(200);
    const cookie = supportCookieOf(response, true)!;
    expect(cookie).toMatch(/^__Host-support_sid=/);
    expect(attributesOf(response.headers.getSetCookie()[0]!)).toEqual(expect.arrayContaining(['secure', 'path=/']));
    expect((await call(https, '/api/support/supportprofile', { cookie })).status).toBe(200);
    expect((await call(https, '/api/support/supportprofile', { cookie: cookie.replace(/^__Host-/, '') })).status).toBe(401);
  });
});
