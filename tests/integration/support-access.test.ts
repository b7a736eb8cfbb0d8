/**
 * Support access over real HTTP: sign-in with and without two-step sign-in (TOTP codes, wrong and reused
 * codes), the sign-in lock and history, password reset and change by link, two-step setup, confirm and
 * disable, and Administration held back until two-step sign-in is on. The server's clock can be moved on
 * (link expiry, lock end); TOTP codes follow that clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, like } from 'drizzle-orm';
import { auditLog, loginEvents, supportUsers } from '#server/db/schema.ts';
import { LOCK_MINUTES, MAX_FAILED_SIGN_INS } from '#server/domain/accounts/sign-in-advertiser.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { MINUTE, call, fieldErrors, outboxFor, postFrom, uniqueEmail } from './accounts-helpers.ts';
import { wrongCode } from '#tests/support/totp.ts';
import {
  codeOf,
  createSupportUserOverHttp,
  enableTwoFactor,
  freshCode,
  signInAdmin,
  signInSupport,
  supportCookieOf,
} from './support-helpers.ts';

let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
let server: TestServer;
let admin: string;

beforeAll(async () => {
  // Sign-in is limited to 10 a minute per address; this file signs in far more often from one address.
  server = await startTestServer({ now: clock, app: { rateLimitScale: 50 } });
  admin = await signInAdmin(server, clock);
});
afterAll(async () => {
  await server?.close();
});

const login = (body: Record<string, unknown>) => call(server, '/api/support/login', { body });
const profileOf = async (cookie: string) => {
  const response = await call(server, '/api/support/supportprofile', { cookie });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
};
const newUser = (permissions: string[] = ['Support']) => createSupportUserOverHttp(server, { permissions }, admin);
const eventsOf = (supportUserId: number) =>
  server.db.select().from(loginEvents).where(eq(loginEvents.supportUserId, supportUserId)).orderBy(loginEvents.id);

/** The reset link last mailed to a support user. */
async function lastSupportResetLink(email: string) {
  const messages = await outboxFor(server, email);
  const link = /(\S+\/support\/login\/change\/\?\S+)/.exec(messages.at(-1)?.body ?? '')?.[1];
  expect(link, 'a reset link in the mail').toBeDefined();
  const url = new URL(link!);
  return { token: url.searchParams.get('token')!, id: Number(url.searchParams.get('id')), link: link! };
}

describe('sign-in', () => {
  it('opens a session with email and password when two-step sign-in is off, and records it', async () => {
    const user = await newUser();
    const response = await login({ Email: user.email.toUpperCase(), Password: user.password });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: user.id,
      email: user.email,
      name: user.name,
      permissions: ['Support'],
      twoFactorEnabled: false,
      twoFactorRequired: false,
    });
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('support_sid='));
    expect(setCookie).toContain('HttpOnly');
    expect(await eventsOf(user.id)).toEqual([
      expect.objectContaining({ email: user.email, success: true, ip: '127.0.0.1', userAgent: expect.any(String) }),
    ]);

    const wrong = await login({ Email: user.email, Password: 'not the password at all' });
    expect(wrong.status).toBe(401);
    expect(await fieldErrors(wrong)).toEqual({ password: 'Wrong email or password' });
    expect((await eventsOf(user.id)).map((e) => e.success)).toEqual([true, false]);
  });

  it('asks for the code once two-step sign-in is on, accepts a right one once and refuses wrong and reused ones', async () => {
    const user = await newUser();
    const secret = await enableTwoFactor(server, await signInSupport(server, user, clock), clock);

    const withoutCode = await login({ Email: user.email, Password: user.password });
    expect(withoutCode.status).toBe(401);
    expect(await fieldErrors(withoutCode)).toEqual({ code: 'codeRequired' });
    expect(supportCookieOf(withoutCode)).toBeUndefined();

    const right = await freshCode(server, user.id, secret, clock);
    // A code of none of the steps the server accepts (a code made from the right one could be a neighbour's).
    const wrong = await login({ Email: user.email, Password: user.password, Code: wrongCode(secret, clock()) });
    expect(wrong.status).toBe(401);
    expect(await fieldErrors(wrong)).toEqual({ code: 'codeWrong' });

    const accepted = await login({ Email: user.email, Password: user.password, Code: right });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ twoFactorEnabled: true, twoFactorRequired: false });
    expect(await profileOf(supportCookieOf(accepted)!)).toMatchObject({ id: user.id, twoFactorEnabled: true });

    const reused = await login({ Email: user.email, Password: user.password, Code: right });
    expect(reused.status).toBe(401);
    expect(await fieldErrors(reused)).toEqual({ code: 'codeWrong' });

    // A right code does not help a wrong password.
    const wrongPassword = await login({ Email: user.email, Password: 'not the password at all', Code: right });
    expect(await fieldErrors(wrongPassword)).toEqual({ password: 'Wrong email or password' });

    // The first sign-in (to set it up), the wrong code, the right one, the reused one, the wrong password.
    expect((await eventsOf(user.id)).map((e) => e.success)).toEqual([true, false, true, false, false]);
  });

  it(`locks after ${MAX_FAILED_SIGN_INS} failures in a row (password or code) for ${LOCK_MINUTES} minutes, answered as for advertisers`, async () => {
    const user = await newUser();
    const secret = await enableTwoFactor(server, await signInSupport(server, user, clock), clock);
    for (let n = 0; n < MAX_FAILED_SIGN_INS - 2; n += 1) {
      expect((await login({ Email: user.email, Password: 'a wrong password here' })).status).toBe(401);
    }
    for (let n = 0; n < 2; n += 1) {
      expect((await login({ Email: user.email, Password: user.password, Code: wrongCode(secret, clock()) })).status).toBe(401);
    }
    // Locked: even the right password and code are refused, as the advertiser sign-in refuses (429, accountLocked).
    const locked = await login({ Email: user.email, Password: user.password, Code: await freshCode(server, user.id, secret, clock) });
    expect(locked.status).toBe(429);
    expect(await fieldErrors(locked)).toEqual({ password: 'accountLocked' });

    const audited = await server.db
      .select({ action: auditLog.action, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'support_user'), eq(auditLog.targetId, String(user.id)), like(auditLog.action, 'support.%')))
      .orderBy(auditLog.id);
    expect(audited.map((a) => a.action)).toEqual([
      'support.sign_in',
      ...Array<string>(MAX_FAILED_SIGN_INS - 1).fill('support.sign_in_failed'),
      'support.locked',
      'support.sign_in_locked',
    ]);
    expect(audited.at(-2)!.after).toMatchObject({ reason: 'code', lockedMinutes: LOCK_MINUTES });

    offsetMs += (LOCK_MINUTES + 1) * MINUTE;
    const after = await login({ Email: user.email, Password: user.password, Code: await freshCode(server, user.id, secret, clock) });
    expect(after.status).toBe(200);
    const events = await eventsOf(user.id);
    expect(events.length).toBe(1 + MAX_FAILED_SIGN_INS + 1 + 1);
    expect(events.at(-1)!.success).toBe(true);
  });

  it('locks out only the address that failed, and an unknown email exactly as a known one (issue 15)', async () => {
    const user = await newUser();
    const unknown = uniqueEmail('nobody-support');
    const known: { status: number; body: Record<string, unknown> }[] = [];
    const stranger: { status: number; body: Record<string, unknown> }[] = [];
    for (let n = 0; n <= MAX_FAILED_SIGN_INS; n += 1) {
      known.push(await postFrom(server, '127.0.0.5', '/api/support/login', { Email: user.email, Password: 'a wrong password here' }));
      stranger.push(await postFrom(server, '127.0.0.6', '/api/support/login', { Email: unknown, Password: 'a wrong password here' }));
    }
    expect(known.at(-1)).toMatchObject({ status: 429, body: { errors: [{ field: 'password', message: 'accountLocked' }] } });
    const shape = (answer: { status: number; body: Record<string, unknown> }) => ({ status: answer.status, body: { ...answer.body, requestId: undefined } });
    expect(stranger.map(shape)).toEqual(known.map(shape));

    // The user, from their own address, is not locked out by the other address's failures.
    const own = await login({ Email: user.email, Password: user.password });
    expect(own.status, await own.clone().text()).toBe(200);
  });

  it('refuses a disabled user as a wrong password', async () => {
    const user = await newUser();
    const disabled = await call(server, '/api/support/users', {
      body: { Id: user.id, Email: user.email, Name: user.name, Permissions: user.permissions, Disabled: true },
      cookie: admin,
    });
    expect(disabled.status).toBe(200);
    const response = await login({ Email: user.email, Password: user.password });
    expect(response.status).toBe(401);
    expect(await fieldErrors(response)).toEqual({ password: 'Wrong email or password' });
  });
});

describe('password reset and change', () => {
  it('answers 204 to any address and mails a support user a link to /support/login/change/, once a minute', async () => {
    const unknown = await call(server, '/api/support/resetpassword', { body: { Email: 'nobody-support@example.test' } });
    expect(unknown.status).toBe(204);
    expect(await outboxFor(server, 'nobody-support@example.test')).toEqual([]);

    const user = await newUser();
    expect((await call(server, '/api/support/resetpassword', { body: { Email: user.email.toUpperCase() } })).status).toBe(204);
    expect((await call(server, '/api/support/resetpassword', { body: { Email: user.email } })).status).toBe(204);
    const mails = await outboxFor(server, user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Nulstil din adgangskode – Annoncekatalog');
    expect(mails[0]!.body).toContain('din supportkonto');
    const { link, id } = await lastSupportResetLink(user.email);
    expect(link).toMatch(/^http:\/\/localhost:3000\/support\/login\/change\/\?token=[\w-]{40,}&id=\d+$/);
    expect(id).toBe(user.id);
  });

  it('sets a new password with the link once: sessions end, a lock lifts, the old password stops working, a notice is mailed', async () => {
    const user = await newUser();
    const cookie = await signInSupport(server, user, clock);
    for (let n = 0; n < MAX_FAILED_SIGN_INS; n += 1) await login({ Email: user.email, Password: 'a wrong password here' });
    expect((await login({ Email: user.email, Password: user.password })).status).toBe(429);

    await call(server, '/api/support/resetpassword', { body: { Email: user.email } });
    const { token, id } = await lastSupportResetLink(user.email);
    const change = (Password: string, Token = token, Id: number = id) =>
      call(server, '/api/support/changepassword', { body: { Token, Id, Password } });

    expect(await fieldErrors(await change('short'))).toEqual({ Password: 'passwordTooShort' });
    expect(await fieldErrors(await change('1qaz2wsx3edc'))).toEqual({ Password: 'passwordCommon' });
    expect(await fieldErrors(await change('a new long password 9', token, id + 1000))).toEqual({ Token: 'linkInvalid' });

    const newPassword = 'a new long password 9';
    expect((await change(newPassword)).status).toBe(204);
    expect((await call(server, '/api/support/supportprofile', { cookie })).status).toBe(401);
    expect((await login({ Email: user.email, Password: user.password })).status).toBe(401);
    expect((await login({ Email: user.email, Password: newPassword })).status).toBe(200);

    const again = await change('yet another password 10');
    expect(again.status).toBe(400);
    expect(await fieldErrors(again)).toEqual({ Token: 'linkInvalid' });

    const notice = (await outboxFor(server, user.email)).at(-1)!;
    expect(notice.subject).toBe('Din adgangskode er ændret – Annoncekatalog');
    expect(notice.body).toContain('Du er logget ud alle steder');

    const [audit] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'support_user.password_changed'), eq(auditLog.targetId, String(user.id))));
    expect(audit).toMatchObject({ actorType: 'support', actorId: user.id, after: { via: 'reset', sessionsEnded: 1 } });
    expect(JSON.stringify(audit)).not.toContain(newPassword);
  });

  it('lets a link expire after 60 minutes', async () => {
    const user = await newUser();
    await call(server, '/api/support/resetpassword', { body: { Email: user.email } });
    const { token, id } = await lastSupportResetLink(user.email);
    offsetMs += 61 * MINUTE;
    const late = await call(server, '/api/support/changepassword', { body: { Token: token, Id: id, Password: 'a new long password 9' } });
    expect(late.status).toBe(400);
    expect(await fieldErrors(late)).toEqual({ Token: 'linkInvalid' });
    expect((await login({ Email: user.email, Password: user.password })).status).toBe(200);
  });

  it('does not mail a disabled user', async () => {
    const user = await newUser();
    await call(server, '/api/support/users', {
      body: { Id: user.id, Email: user.email, Name: user.name, Permissions: user.permissions, Disabled: true },
      cookie: admin,
    });
    expect((await call(server, '/api/support/resetpassword', { body: { Email: user.email } })).status).toBe(204);
    expect(await outboxFor(server, user.email)).toEqual([]);
  });
});

describe('two-step sign-in', () => {
  it('is set up with a secret, its otpauth URI and QR code, confirmed with a code and disabled with one', async () => {
    const user = await newUser();
    const cookie = await signInSupport(server, user, clock);
    const post = (path: string, body?: unknown) => call(server, `/api/support/${path}`, { method: 'POST', body, cookie });

    expect(await fieldErrors(await post('twofactorconfirm', { Code: '123456' }))).toEqual({ Code: 'setupFirst' });

    // A session alone gets no secret: the password proves it is the user (issue 15 item 5).
    expect(await fieldErrors(await post('twofactorsetup'))).toEqual({ Password: 'required' });
    const setup = await post('twofactorsetup', { Password: user.password });
    expect(setup.status).toBe(200);
    const { secret, otpauthUri, qrSvg } = (await setup.json()) as { secret: string; otpauthUri: string; qrSvg: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).toBe(
      `otpauth://totp/Annoncekatalog:${encodeURIComponent(user.email)}?secret=${secret}&issuer=Annoncekatalog&digits=6&period=30&algorithm=SHA1`,
    );
    expect(qrSvg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // Pending until confirmed: sign-in still needs no code.
    expect(await profileOf(cookie)).toMatchObject({ twoFactorEnabled: false });

    const right = codeOf(secret, clock());
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    const refused = await post('twofactorconfirm', { Code: wrong });
    expect(refused.status).toBe(400);
    expect(await fieldErrors(refused)).toEqual({ Code: 'codeWrong' });
    expect((await post('twofactorconfirm', { Code: right })).status).toBe(204);
    expect(await profileOf(cookie)).toMatchObject({ twoFactorEnabled: true, twoFactorRequired: false });
    expect(await fieldErrors(await login({ Email: user.email, Password: user.password }))).toEqual({ code: 'codeRequired' });

    const [stored] = await server.db.select().from(supportUsers).where(eq(supportUsers.id, user.id));
    // Stored encrypted (issue 15 item 10), never as the secret itself.
    expect(stored).toMatchObject({ totpSecret: expect.stringMatching(/^sealed:v1:/), totpPendingSecret: null });
    expect(stored!.totpSecret).not.toContain(secret);

    expect(await fieldErrors(await post('twofactordisable', { Code: wrong }))).toEqual({ Code: 'codeWrong' });
    expect((await post('twofactordisable', { Code: await freshCode(server, user.id, secret, clock) })).status).toBe(204);
    expect(await profileOf(cookie)).toMatchObject({ twoFactorEnabled: false });
    expect((await login({ Email: user.email, Password: user.password })).status).toBe(200);

    const audits = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, String(user.id)), like(auditLog.action, 'support_user.two_factor_%')))
      .orderBy(desc(auditLog.id));
    expect(audits.map((a) => a.action).sort()).toEqual([
      'support_user.two_factor_disabled',
      'support_user.two_factor_enabled',
      'support_user.two_factor_setup',
    ]);
    expect(JSON.stringify(audits)).not.toContain(secret);
  });

  it('holds Administration back until two-step sign-in is on: 403 and a profile without it, then 200', async () => {
    const user = await newUser(['Administration', 'SEO']);
    const cookie = await signInSupport(server, user, clock);
    expect(await profileOf(cookie)).toMatchObject({ permissions: ['SEO'], twoFactorEnabled: false, twoFactorRequired: true });
    const users = await call(server, '/api/support/users', { cookie });
    expect(users.status).toBe(403);
    expect(users.headers.get('content-type')).toContain('application/problem+json');

    const secret = await enableTwoFactor(server, cookie, clock);
    expect(await profileOf(cookie)).toMatchObject({
      permissions: ['Administration', 'SEO'],
      twoFactorEnabled: true,
      twoFactorRequired: false,
    });
    expect((await call(server, '/api/support/users', { cookie })).status).toBe(200);

    // Required for Administration: it cannot be turned off.
    const disable = await call(server, '/api/support/twofactordisable', {
      body: { Code: await freshCode(server, user.id, secret, clock) },
      cookie,
    });
    expect(disable.status).toBe(409);
    expect(await fieldErrors(disable)).toEqual({ Code: 'twoFactorRequiredForAdministration' });
  });

  it('leaves an Administration-only user without two-step sign-in no permission but their profile and setup', async () => {
    const user = await newUser(['Administration']);
    const cookie = await signInSupport(server, user, clock);
    expect(await profileOf(cookie)).toMatchObject({ permissions: [], twoFactorRequired: true });
    expect((await call(server, '/api/support/user', { query: { Id: user.id }, cookie })).status).toBe(403);
    expect((await call(server, '/api/support/outbox', { cookie })).status).toBe(403);
    expect((await call(server, '/api/support/twofactorsetup', { body: { Password: user.password }, cookie })).status).toBe(200);
  });

  it('answers 401 to the two-step calls without a session', async () => {
    for (const path of ['twofactorsetup', 'twofactorconfirm', 'twofactordisable']) {
      expect((await call(server, `/api/support/${path}`, { body: { Code: '123456' } })).status, path).toBe(401);
    }
  });
});
