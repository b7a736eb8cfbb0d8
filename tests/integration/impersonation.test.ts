/**
 * Impersonation (issue 6; spec §2 "/impersonate (query url)", §7 frontend "impersonate (url)"): support's
 * `impersonation` call gives a one-time link, the frontend's `impersonate` turns it into an advertiser
 * session for the same support user, every action then is recorded as theirs, sensitive account actions are
 * refused, the backend's logout stops it (audited), and disabling the support user or removing Support ends it.
 * Real HTTP, real database; the server's clock is moved for the link's expiry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { auditLog, sessions } from '#server/db/schema.ts';
import { IMPERSONATION_LINK_SECONDS } from '#server/domain/accounts/impersonation.ts';
import { sessionCookieName } from '#server/api/http.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createAdvertiser } from '#tests/support/fixtures.ts';
import { call, sessionCookieOf } from './accounts-helpers.ts';
import { createSupportUserOverHttp, signInAdmin, signInSupport } from './support-helpers.ts';

let server: TestServer;
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

type Supporter = { id: number; name: string; cookie: string; email: string; password: string; permissions: string[] };
let supporter: Supporter;
let colleague: Supporter;
let seoCookie: string;
let advert: { id: number; accountId: number; name: string; email: string; password: string };

async function newSupporter(permissions: string[], name: string): Promise<Supporter> {
  const user = await createSupportUserOverHttp(server, { permissions, name });
  return { ...user, cookie: await signInSupport(server, user) };
}

/** POST /api/support/impersonation: answers the status and the link's token (when there is one). */
async function askForLink(cookie: string | undefined, profileId: number = advert.id) {
  const response = await call(server, '/api/support/impersonation', { body: { ProfileId: profileId }, cookie });
  const body = (await response.json()) as { url?: string; expiresAt?: string; errors?: { field: string; message: string }[] };
  const token = body.url ? new URL(body.url, server.url).searchParams.get('url') : null;
  return { status: response.status, body, token };
}

/** POST /api/frontend/impersonate {Url}: answers the status and the advertiser session cookie it set. */
async function impersonate(token: string, cookie: string | undefined) {
  const response = await call(server, '/api/frontend/impersonate', { body: { Url: token }, cookie });
  return { status: response.status, sid: sessionCookieOf(response), body: (await response.json()) as Record<string, unknown> };
}

/** A started impersonation of `advert` by `who`: the advertiser session cookie. */
async function startAs(who: Supporter = supporter): Promise<string> {
  const link = await askForLink(who.cookie);
  expect(link.status).toBe(201);
  const started = await impersonate(link.token!, who.cookie);
  expect(started.status).toBe(200);
  return started.sid!;
}

async function lastAudit(action: string) {
  const [row] = await server.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id)).limit(1);
  return row;
}

beforeAll(async () => {
  server = await startTestServer({ now: clock, app: { rateLimitScale: 50 } });
  await signInAdmin(server);
  supporter = await newSupporter(['Support'], 'Tove Testesen');
  colleague = await newSupporter(['Support'], 'Bo Kollega');
  seoCookie = (await newSupporter(['SEO'], 'Sif Seo')).cookie;
  advert = await createAdvertiser(server.db, { name: 'Sofie' });
});
afterAll(async () => {
  await server?.close();
});

describe('impersonation (support call): a one-time link', () => {
  it('is issued to Support only: a link to /impersonate/?url=… for two minutes', async () => {
    const link = await askForLink(supporter.cookie);
    expect(link.status).toBe(201);
    expect(link.body.url).toMatch(/^\/impersonate\/\?url=[\w-]{40,}$/);
    expect(new Date(link.body.expiresAt!).getTime() - clock().getTime()).toBeLessThanOrEqual(IMPERSONATION_LINK_SECONDS * 1000);
    expect((await askForLink(seoCookie)).status).toBe(403);
    expect((await askForLink(undefined)).status).toBe(401);
  });

  it('names the advert: an unknown one is 404, a missing ProfileId 400 naming the field', async () => {
    expect((await askForLink(supporter.cookie, 987_654)).status).toBe(404);
    const response = await call(server, '/api/support/impersonation', { body: {}, cookie: supporter.cookie });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { errors: { field: string }[] };
    expect(problem.errors.map((e) => e.field)).toContain('ProfileId');
  });

  it('is stored hashed and is never an advertiser session itself', async () => {
    const link = await askForLink(supporter.cookie);
    const rows = await server.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.impersonatedBySupportUserId, supporter.id));
    expect(rows.some((row) => row.id.includes(link.token!))).toBe(false);
    const asSession = await call(server, '/api/backend/userprofile', { cookie: `${sessionCookieName('advertiser', false)}=${link.token}` });
    expect(asSession.status).toBe(401);
  });
});

describe('impersonate (frontend call, url)', () => {
  it('gives the same support user an advertiser session marked as theirs, audited as started', async () => {
    const link = await askForLink(supporter.cookie);
    const started = await impersonate(link.token!, supporter.cookie);
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ advertId: advert.id });
    expect(started.sid).toMatch(/^sid=/);
    const profile = await call(server, '/api/backend/userprofile', { cookie: started.sid });
    expect(profile.status).toBe(200);
    expect(await profile.json()).toMatchObject({
      advertId: advert.id,
      email: advert.email,
      impersonation: { supportUserName: 'Tove Testesen', advertName: 'Sofie', advertId: advert.id },
    });
    const [session] = await server.db.select().from(sessions).where(eq(sessions.impersonatedBySupportUserId, supporter.id)).orderBy(desc(sessions.createdAt)).limit(1);
    expect(session!.accountId).toBe(advert.accountId);
    expect(session!.expiresAt.getTime() - clock().getTime()).toBeLessThanOrEqual(2 * 3_600_000);
    const audit = await lastAudit('impersonation.started');
    expect(audit).toMatchObject({ actorType: 'support', actorId: supporter.id, targetType: 'account', targetId: String(advert.accountId) });
  });

  it('works once: the second use is refused', async () => {
    const link = await askForLink(supporter.cookie);
    expect((await impersonate(link.token!, supporter.cookie)).status).toBe(200);
    const again = await impersonate(link.token!, supporter.cookie);
    expect(again.status).toBe(403);
    expect(again.sid).toBeUndefined();
  });

  it('expires after two minutes', async () => {
    const link = await askForLink(supporter.cookie);
    offsetMs = (IMPERSONATION_LINK_SECONDS + 1) * 1000;
    try {
      expect((await impersonate(link.token!, supporter.cookie)).status).toBe(403);
    } finally {
      offsetMs = 0;
    }
  });

  it("refuses another support user's link (and leaves it to its owner)", async () => {
    const link = await askForLink(supporter.cookie);
    expect((await impersonate(link.token!, colleague.cookie)).status).toBe(403);
    expect((await impersonate(link.token!, supporter.cookie)).status).toBe(200);
  });

  it('refuses without a support session (401), with an unknown link (403) and without a link (400)', async () => {
    const link = await askForLink(supporter.cookie);
    const advertiserOnly = await impersonate(link.token!, undefined);
    expect(advertiserOnly.status).toBe(401);
    expect(advertiserOnly.sid).toBeUndefined();
    expect((await impersonate('not-a-real-link', supporter.cookie)).status).toBe(403);
    const missing = await call(server, '/api/frontend/impersonate', { method: 'POST', cookie: supporter.cookie });
    expect(missing.status).toBe(400);
  });
});

describe('while impersonating', () => {
  it("records the advertiser's actions with impersonated_by, and the action history names the support user", async () => {
    const sid = await startAs();
    const added = await call(server, '/api/backend/addtoblacklist', { body: { Phone: '20304050', Note: 'Test' }, cookie: sid });
    expect(added.status, await added.clone().text()).toBeLessThan(300);
    const [entry] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorType, 'advertiser'), eq(auditLog.actorId, advert.accountId)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(entry!.impersonatedBy).toBe(supporter.id);

    const history = await call(server, '/api/support/actionhistories', { query: { Id: advert.id }, cookie: supporter.cookie });
    expect(history.status).toBe(200);
    const { items } = (await history.json()) as { items: { action: string; actor: { type: string; name?: string } }[] };
    expect(items.find((item) => item.action === entry!.action)?.actor).toEqual({ type: 'impersonation', name: 'Tove Testesen' });
    expect(items.find((item) => item.action === 'impersonation.started')?.actor).toEqual({ type: 'support', name: 'Tove Testesen' });
  });

  it('refuses the sensitive account actions with 403 whileImpersonating', async () => {
    const sid = await startAs();
    const refusals: [string, unknown][] = [
      ['/api/backend/updatepassword', { Password: advert.password, NewPassword: 'a brand new passphrase 42' }],
      ['/api/backend/deleteuser', { Password: advert.password }],
      ['/api/backend/sendemail', { Email: 'ny-adresse@example.test' }],
      ['/api/frontend/sendsms', { Phone: '20304051' }],
      ['/api/backend/ageestimation', {}],
      ['/api/backend/ageverificationbyqrcode', {}],
      ['/api/backend/appealstatement', { Id: 1, Text: 'Jeg er uenig i afgørelsen.' }],
      ['/api/backend/deletevalidationpicture', { Kind: 'document' }],
    ];
    for (const [path, body] of refusals) {
      const response = await call(server, path, { body, cookie: sid });
      expect(response.status, path).toBe(403);
      const problem = (await response.json()) as { errors?: { message: string }[] };
      expect(problem.errors?.[0]?.message, path).toBe('whileImpersonating');
    }
    const idDocument = await call(server, '/api/backend/validationpicture', { query: { File: 'true', Kind: 'document' }, cookie: sid });
    expect(idDocument.status).toBe(403);
    // The account is untouched: the advertiser still signs in with the old password.
    const own = await call(server, '/api/frontend/login', { body: { Email: advert.email, Password: advert.password } });
    expect(own.status).toBe(200);
  });

  it('stops with the backend logout: the session ends, audited as done by the support user', async () => {
    const sid = await startAs();
    const stopped = await call(server, '/api/backend/logout', { method: 'POST', cookie: sid });
    expect(stopped.status).toBe(204);
    expect((await call(server, '/api/backend/userprofile', { cookie: sid })).status).toBe(401);
    const audit = await lastAudit('impersonation.stopped');
    expect(audit).toMatchObject({ actorType: 'support', actorId: supporter.id, targetType: 'account', targetId: String(advert.accountId) });
    expect(audit!.after).toEqual({ advertId: advert.id });
  });

  it("the advertiser's own sign-out is not an impersonation stop", async () => {
    const before = await lastAudit('impersonation.stopped');
    const own = await call(server, '/api/frontend/login', { body: { Email: advert.email, Password: advert.password } });
    const sid = sessionCookieOf(own)!;
    expect((await call(server, '/api/backend/userprofile', { cookie: sid })).status).toBe(200);
    expect(((await (await call(server, '/api/backend/userprofile', { cookie: sid })).json()) as { impersonation: unknown }).impersonation).toBeNull();
    expect((await call(server, '/api/backend/logout', { method: 'POST', cookie: sid })).status).toBe(204);
    expect((await lastAudit('impersonation.stopped'))?.id).toBe(before?.id);
  });
});

describe('support user changes end impersonation', () => {
  const updateUser = async (user: Supporter, change: { Permissions?: string[]; Disabled?: boolean }) => {
    const response = await call(server, '/api/support/users', {
      body: { Id: user.id, Email: user.email, Name: user.name, Permissions: change.Permissions ?? user.permissions, Disabled: change.Disabled ?? false },
      cookie: await signInAdmin(server),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  };

  it('disabling the support user ends the sessions they impersonate in, and their unused links', async () => {
    const user = await newSupporter(['Support'], 'Dan Deaktiveret');
    const sid = await startAs(user);
    const unused = await askForLink(user.cookie);
    await updateUser(user, { Disabled: true });
    expect((await call(server, '/api/backend/userprofile', { cookie: sid })).status).toBe(401);
    const left = await server.db.select().from(sessions).where(eq(sessions.impersonatedBySupportUserId, user.id));
    expect(left).toEqual([]);
    expect(unused.token).toBeTruthy();
  });

  it('removing the Support permission ends them too', async () => {
    const user = await newSupporter(['Support', 'SEO'], 'Rie Rolleskift');
    const sid = await startAs(user);
    await updateUser(user, { Permissions: ['SEO'] });
    expect((await call(server, '/api/backend/userprofile', { cookie: sid })).status).toBe(401);
  });
});
