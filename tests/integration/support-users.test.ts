/**
 * Administration's support users over real HTTP: list (search, paging), one user, create, update
 * (permissions, disabled, password, two-step reset: each ends the user's sessions where the contract says),
 * remove, the guards (notYourself, lastAdministrator), 401/403 for others, and audit rows without secrets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { auditLog, supportUsers } from '#server/db/schema.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { call, fieldErrors, uniqueEmail } from './accounts-helpers.ts';
import {
  SUPPORT_PASSWORD,
  createSupportUserOverHttp,
  enableTwoFactor,
  signInAdmin,
  signInSupport,
  type SupportUserRow,
} from './support-helpers.ts';

let server: TestServer;
let admin: string;
let adminId: number;

beforeAll(async () => {
  // Sign-in is limited to 10 a minute per address; this file signs in far more often from one address.
  server = await startTestServer({ app: { rateLimitScale: 50 } });
  admin = await signInAdmin(server);
  adminId = ((await (await call(server, '/api/support/supportprofile', { cookie: admin })).json()) as { id: number }).id;
});
afterAll(async () => {
  await server?.close();
});

type Row = SupportUserRow & { password: string };
const newUser = (permissions: string[] = ['Support'], extra: { name?: string; email?: string } = {}) =>
  createSupportUserOverHttp(server, { permissions, ...extra }, admin);
const save = (body: Record<string, unknown>, cookie = admin) => call(server, '/api/support/users', { body, cookie });
/** An update of a user: their current values, with `changes`. */
const update = (user: Row, changes: Record<string, unknown>, cookie = admin) =>
  save({ Id: user.id, Email: user.email, Name: user.name, Permissions: user.permissions, ...changes }, cookie);
const list = async (query: Record<string, string | number>) => {
  const response = await call(server, '/api/support/users', { query, cookie: admin });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { total: number; items: SupportUserRow[] };
};
const stillSignedIn = async (cookie: string) => (await call(server, '/api/support/supportprofile', { cookie })).status === 200;

describe('the list and one user', () => {
  it('lists support users by name, searches name and email in any case, and pages', async () => {
    const tag = `liste${Date.now().toString(36)}`;
    const carl = await newUser(['SEO'], { name: `Carl ${tag}` });
    const anna = await newUser(['Support'], { name: `Anna ${tag}` });
    const bo = await newUser(['Support', 'SEO'], { name: `Bo ${tag}` });

    const found = await list({ Text: tag.toUpperCase() });
    expect(found.total).toBe(3);
    expect(found.items.map((u) => u.name)).toEqual([anna.name, bo.name, carl.name]);
    expect(found.items[0]).toEqual({
      id: anna.id,
      email: anna.email,
      name: anna.name,
      permissions: ['Support'],
      disabled: false,
      twoFactorEnabled: false,
      lastLoginAt: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(await list({ Text: bo.email.toUpperCase() })).toMatchObject({ total: 1, items: [{ id: bo.id }] });
    expect(await list({ Text: '%' })).toMatchObject({ total: 0 });

    const page = await list({ Text: tag, Skip: 1, Take: 1 });
    expect(page).toMatchObject({ total: 3, items: [{ id: bo.id }] });

    const all = await list({});
    expect(all.items.map((u) => u.email)).toContain(server.admin.email);
    expect(all.items.find((u) => u.email === server.admin.email)).toMatchObject({ twoFactorEnabled: true, lastLoginAt: expect.any(String) });

    const tooMany = await call(server, '/api/support/users', { query: { Take: 201 }, cookie: admin });
    expect(tooMany.status).toBe(400);
    expect(await fieldErrors(tooMany)).toEqual({ Take: 'range' });
  });

  it('gets one user, and 404 for an unknown id', async () => {
    const user = await newUser(['SEO']);
    const response = await call(server, '/api/support/user', { query: { Id: user.id }, cookie: admin });
    expect(response.status).toBe(200);
    const { password: _password, ...row } = user;
    expect(await response.json()).toEqual(row);
    expect((await call(server, '/api/support/user', { query: { Id: 999_999 }, cookie: admin })).status).toBe(404);
  });
});

describe('create and update', () => {
  it('creates a user (201) with a password that passes the policy, once per email', async () => {
    const email = uniqueEmail('support');
    const base = { Email: email, Name: 'Nina Ny', Permissions: ['Support'] };
    expect(await fieldErrors(await save(base))).toEqual({ password: 'required' });
    expect(await fieldErrors(await save({ ...base, Password: 'too short' }))).toEqual({ password: 'passwordTooShort' });
    expect(await fieldErrors(await save({ ...base, Password: '1qaz2wsx3edc' }))).toEqual({ password: 'passwordCommon' });
    expect(await fieldErrors(await save({ ...base, Password: SUPPORT_PASSWORD, Permissions: [] }))).toEqual({ permissions: 'required' });

    const created = await save({ ...base, Email: email.toUpperCase(), Password: SUPPORT_PASSWORD });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ email, name: 'Nina Ny', permissions: ['Support'], disabled: false });
    const taken = await save({ ...base, Password: SUPPORT_PASSWORD });
    expect(taken.status).toBe(409);
    expect(await fieldErrors(taken)).toEqual({ email: 'duplicate' });
  });

  it('updates name, email and permissions (200); adding a permission keeps their session, removing one ends it', async () => {
    const user = await newUser(['Support']);
    const cookie = await signInSupport(server, user);
    const newEmail = uniqueEmail('renamed');
    const renamed = await update(user, { Name: 'Nyt Navn', Email: newEmail, Permissions: ['Support', 'SEO'] });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: user.id, name: 'Nyt Navn', email: newEmail, permissions: ['Support', 'SEO'] });
    expect(await stillSignedIn(cookie)).toBe(true);
    expect((await call(server, '/api/support/supportprofile', { cookie }).then((r) => r.json())) as object).toMatchObject({
      permissions: ['Support', 'SEO'],
    });

    const other = await newUser();
    const clash = await update({ ...user, email: newEmail }, { Email: other.email });
    expect(clash.status).toBe(409);
    expect(await fieldErrors(clash)).toEqual({ email: 'duplicate' });

    const narrowed = await update({ ...user, email: newEmail }, { Name: 'Nyt Navn', Permissions: ['SEO'] });
    expect(narrowed.status).toBe(200);
    expect(await stillSignedIn(cookie)).toBe(false);
    expect((await call(server, '/api/support/outbox', { cookie })).status).toBe(401);
  });

  it('disabling ends their sessions and keeps them out; enabling lets them in again', async () => {
    const user = await newUser();
    const cookie = await signInSupport(server, user);
    const disabled = await update(user, { Disabled: true });
    expect(disabled.status).toBe(200);
    expect(await disabled.json()).toMatchObject({ disabled: true });
    expect(await stillSignedIn(cookie)).toBe(false);
    expect((await call(server, '/api/support/login', { body: { Email: user.email, Password: user.password } })).status).toBe(401);

    expect(await (await update(user, { Disabled: false })).json()).toMatchObject({ disabled: false });
    expect(await stillSignedIn(await signInSupport(server, user))).toBe(true);
  });

  it('sets a password for them: their sessions end, the old password stops working, the new one works', async () => {
    const user = await newUser();
    const cookie = await signInSupport(server, user);
    expect(await fieldErrors(await update(user, { Password: 'short' }))).toEqual({ password: 'passwordTooShort' });
    // An empty password keeps the current one (and the session).
    expect((await update(user, { Password: '' })).status).toBe(200);
    expect(await stillSignedIn(cookie)).toBe(true);

    const newPassword = 'granite steps by the sea 4';
    expect((await update(user, { Password: newPassword })).status).toBe(200);
    expect(await stillSignedIn(cookie)).toBe(false);
    expect((await call(server, '/api/support/login', { body: { Email: user.email, Password: user.password } })).status).toBe(401);
    expect(await stillSignedIn(await signInSupport(server, { ...user, password: newPassword }))).toBe(true);
  });

  it('resets their two-step sign-in: it is off, their sessions end, they sign in without a code', async () => {
    const user = await newUser();
    const cookie = await signInSupport(server, user);
    await enableTwoFactor(server, cookie);
    expect(await (await call(server, '/api/support/user', { query: { Id: user.id }, cookie: admin })).json()).toMatchObject({
      twoFactorEnabled: true,
    });
    const reset = await update(user, { ResetTwoFactor: true });
    expect(reset.status).toBe(200);
    expect(await reset.json()).toMatchObject({ twoFactorEnabled: false });
    expect(await stillSignedIn(cookie)).toBe(false);
    const [stored] = await server.db.select().from(supportUsers).where(eq(supportUsers.id, user.id));
    expect(stored).toMatchObject({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null });
    expect(await stillSignedIn(await signInSupport(server, user))).toBe(true);
  });
});

describe('remove', () => {
  it('removes a user: their session ends, they are gone (404), the audit keeps email and name', async () => {
    const user = await newUser(['SEO'], { name: 'Ulla Udgået' });
    const cookie = await signInSupport(server, user);
    const removed = await call(server, '/api/support/removeuser', { body: { Id: user.id }, cookie: admin });
    expect(removed.status).toBe(204);
    expect(await stillSignedIn(cookie)).toBe(false);
    expect((await call(server, '/api/support/user', { query: { Id: user.id }, cookie: admin })).status).toBe(404);
    expect((await call(server, '/api/support/removeuser', { body: { Id: user.id }, cookie: admin })).status).toBe(404);
    const [audit] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'support_user.remove'), eq(auditLog.targetId, String(user.id))));
    expect(audit).toMatchObject({ actorType: 'support', actorId: adminId, before: { email: user.email, name: 'Ulla Udgået' } });
  });
});

describe('guards', () => {
  it('keeps one enabled administrator, and nobody locks themselves out', async () => {
    const me = { id: adminId, email: server.admin.email, name: 'Administrator', permissions: ['Administration', 'Support', 'SEO'] } as Row;
    // The only enabled administrator: told so, whether removing Administration, disabling or removing.
    const withoutAdministration = await update(me, { Permissions: ['Support', 'SEO'] });
    expect(withoutAdministration.status).toBe(409);
    expect(await fieldErrors(withoutAdministration)).toEqual({ permissions: 'lastAdministrator' });
    expect(await fieldErrors(await update(me, { Disabled: true }))).toEqual({ disabled: 'lastAdministrator' });
    const removeMe = await call(server, '/api/support/removeuser', { body: { Id: adminId }, cookie: admin });
    expect(removeMe.status).toBe(409);
    expect(await fieldErrors(removeMe)).toEqual({ Id: 'lastAdministrator' });

    // With another administrator: still not themselves.
    const other = await newUser(['Administration']);
    expect(await fieldErrors(await update(me, { Permissions: ['Support', 'SEO'] }))).toEqual({ permissions: 'notYourself' });
    expect(await fieldErrors(await update(me, { Disabled: true }))).toEqual({ disabled: 'notYourself' });
    expect(await fieldErrors(await call(server, '/api/support/removeuser', { body: { Id: adminId }, cookie: admin }))).toEqual({
      Id: 'notYourself',
    });
    // The other one may go, as the admin remains.
    expect((await update(other, { Disabled: true })).status).toBe(200);
    expect((await call(server, '/api/support/removeuser', { body: { Id: other.id }, cookie: admin })).status).toBe(204);
    expect(await stillSignedIn(admin)).toBe(true);
  });
});

describe('who may', () => {
  it('answers 401 to a visitor and 403 to a support user without Administration', async () => {
    const supportOnly = await newUser(['Support', 'SEO']);
    const cookie = await signInSupport(server, supportOnly);
    const calls = [
      { path: '/api/support/users', method: 'GET' as const },
      { path: '/api/support/user', method: 'GET' as const, query: { Id: supportOnly.id } },
      { path: '/api/support/users', body: { Email: uniqueEmail('x'), Name: 'X', Password: SUPPORT_PASSWORD, Permissions: ['Support'] } },
      { path: '/api/support/users', body: { Id: supportOnly.id, Email: supportOnly.email, Name: 'X', Permissions: ['Administration'] } },
      { path: '/api/support/removeuser', body: { Id: adminId } },
    ];
    for (const { path, ...options } of calls) {
      const visitor = await call(server, path, options);
      expect(visitor.status, `${path} visitor`).toBe(401);
      expect(visitor.headers.get('content-type')).toContain('application/problem+json');
      expect((await call(server, path, { ...options, cookie })).status, `${path} Support`).toBe(403);
    }
    expect(await (await call(server, '/api/support/user', { query: { Id: supportOnly.id }, cookie: admin })).json()).toMatchObject({
      name: supportOnly.name,
      permissions: ['Support', 'SEO'],
    });
  });
});

describe('audit', () => {
  it('records create, update and remove with before and after, never a password hash or TOTP secret', async () => {
    const user = await newUser(['Support']);
    const cookie = await signInSupport(server, user);
    const secret = await enableTwoFactor(server, cookie);
    await update(user, { Name: 'Revideret', Permissions: ['SEO'], Password: 'an entirely new secret 5', ResetTwoFactor: true });
    await call(server, '/api/support/removeuser', { body: { Id: user.id }, cookie: admin });

    const rows = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, String(user.id)), like(auditLog.action, 'support_user.%')))
      .orderBy(auditLog.id);
    expect(rows.map((r) => r.action)).toEqual([
      'support_user.create',
      'support_user.two_factor_setup',
      'support_user.two_factor_enabled',
      'support_user.update',
      'support_user.remove',
    ]);
    const updated = rows.find((r) => r.action === 'support_user.update')!;
    expect(updated).toMatchObject({
      actorType: 'support',
      actorId: adminId,
      before: { name: user.name, permissions: ['Support'], twoFactorEnabled: true, disabled: false },
      after: { name: 'Revideret', permissions: ['SEO'], twoFactorEnabled: false, passwordSet: true, twoFactorReset: true, sessionsEnded: 1 },
    });
    const text = JSON.stringify(rows);
    expect(text).not.toContain(secret);
    expect(text).not.toContain('argon2');
    expect(text).not.toContain('an entirely new secret 5');
    expect(text).not.toContain(SUPPORT_PASSWORD);
  });
});
