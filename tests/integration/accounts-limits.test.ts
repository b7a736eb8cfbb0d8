/**
 * Advertiser accounts over real HTTP: the sign-in lock (login) and the per-address rate limits of the
 * account calls (createprofile, confirmsignup, resetpassword, changepassword, sendsms, codeverification,
 * sendemail, emailverification, updatepassword), each answering 429 problem+json. The tests of this file share one
 * server and so one limiter: they run in order and count the calls made before them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { loginEvents } from '#server/db/schema.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import {
  GOOD_PASSWORD,
  call,
  createProfileOverHttp,
  fieldErrors,
  lastResetLink,
  postFrom,
  sessionCookieOf,
  uniqueEmail,
  type Call,
} from './accounts-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const login = (email: string, password: string) => call(server, '/api/frontend/login', { body: { email, password } });

/** Calls until the first 429 (at most `max` calls); answers how many calls were let through, and the 429. */
async function callUntilLimited(path: string, options: Call, max: number): Promise<{ passed: number; limited: Response }> {
  for (let n = 0; n < max; n += 1) {
    const response = await call(server, path, options);
    if (response.status === 429) return { passed: n, limited: response };
    expect(response.status, `${path} call ${n + 1}`).toBeLessThan(500);
    await response.arrayBuffer();
  }
  throw new Error(`${path} was never limited in ${max} calls`);
}

async function expectTooManyRequests(response: Response): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get('content-type')).toContain('application/problem+json');
  expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(await response.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
}

let signedIn: string | undefined;

describe('login', () => {
  it('records every attempt in login_events and locks the account after 5 wrong passwords; a password reset lifts the lock', async () => {
    const owner = await createProfileOverHttp(server); // createprofile: 1 call
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const wrong = await login(owner.email, `wrong password ${attempt}`);
      expect(wrong.status).toBe(401);
      expect(await fieldErrors(wrong)).toEqual({ password: 'wrongCredentials' });
    }
    const locked = await login(owner.email, GOOD_PASSWORD);
    expect(locked.status).toBe(429);
    expect(await fieldErrors(locked)).toEqual({ password: 'accountLocked' });
    let events = await server.db.select().from(loginEvents).where(eq(loginEvents.accountId, owner.profile.id));
    // The sign-up's confirmation signed in (a success), then five wrong passwords and the locked attempt.
    expect(events.map((e) => e.success)).toEqual([true, false, false, false, false, false, false]);
    expect(events[1]).toMatchObject({ email: owner.email, ip: '127.0.0.1' });

    // resetpassword: 1 call, changepassword: 1 call.
    await call(server, '/api/frontend/resetpassword', { body: { Email: owner.email } });
    const { token, id } = await lastResetLink(server, owner.email);
    expect((await call(server, '/api/frontend/changepassword', { body: { Token: token, Id: id, Password: 'unlocked again 2026' } })).status).toBe(204);
    const unlocked = await login(owner.email, 'unlocked again 2026');
    expect(unlocked.status).toBe(200);
    signedIn = sessionCookieOf(unlocked);
    events = await server.db.select().from(loginEvents).where(eq(loginEvents.accountId, owner.profile.id));
    expect(events.at(-1)).toMatchObject({ success: true });
  });
});

describe('the sign-in lock is per email and client address (issue 15)', () => {
  it('five wrong passwords from another address lock out that address only, never the owner', async () => {
    const owner = await createProfileOverHttp(server); // createprofile: 1 call
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const wrong = await postFrom(server, '127.0.0.2', '/api/frontend/login', { email: owner.email, password: `guess ${attempt}` });
      expect(wrong.status).toBe(401);
    }
    const attacker = await postFrom(server, '127.0.0.2', '/api/frontend/login', { email: owner.email, password: GOOD_PASSWORD });
    expect(attacker.status).toBe(429);
    expect(attacker.body['errors']).toEqual([{ field: 'password', message: 'accountLocked' }]);

    // The owner, from their own address, signs in as usual.
    const own = await login(owner.email, GOOD_PASSWORD);
    expect(own.status, await own.clone().text()).toBe(200);
  });

  it('answers an unknown email after five tries exactly as a locked account', async () => {
    const owner = await createProfileOverHttp(server); // createprofile: 1 call
    const unknown = uniqueEmail('nobody');
    const answers: Record<string, { status: number; body: Record<string, unknown> }[]> = { known: [], unknown: [] };
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      answers['known']!.push(await postFrom(server, '127.0.0.3', '/api/frontend/login', { email: owner.email, password: `guess ${attempt}` }));
      answers['unknown']!.push(await postFrom(server, '127.0.0.4', '/api/frontend/login', { email: unknown, password: `guess ${attempt}` }));
    }
    const shape = (answer: { status: number; body: Record<string, unknown> }) => ({ status: answer.status, body: { ...answer.body, requestId: undefined } });
    expect(answers['unknown']!.map(shape)).toEqual(answers['known']!.map(shape));
    expect(answers['unknown']!.at(-1)).toMatchObject({ status: 429, body: { errors: [{ field: 'password', message: 'accountLocked' }] } });
  });
});

describe('rate limits (429 problem+json)', () => {
  it('createprofile: 20 calls an hour from one address', async () => {
    const { passed, limited } = await callUntilLimited('/api/frontend/createprofile', { body: {} }, 25);
    expect(passed).toBe(17); // three profiles were created above
    await expectTooManyRequests(limited);
  });

  it('confirmsignup: 20 calls in 10 minutes', async () => {
    const { passed, limited } = await callUntilLimited('/api/frontend/confirmsignup', { body: {} }, 25);
    expect(passed).toBe(17); // three sign-ups were confirmed above
    await expectTooManyRequests(limited);
  });

  it('resetpassword: 5 calls in 15 minutes', async () => {
    const { passed, limited } = await callUntilLimited('/api/frontend/resetpassword', { body: { Email: 'nobody@example.test' } }, 10);
    expect(passed).toBe(4);
    await expectTooManyRequests(limited);
  });

  it('changepassword: 10 calls in 15 minutes', async () => {
    const { passed, limited } = await callUntilLimited('/api/frontend/changepassword', { body: {} }, 15);
    expect(passed).toBe(9);
    await expectTooManyRequests(limited);
  });

  it('sendsms: 10 calls in 10 minutes; codeverification: 20', async () => {
    const sms = await callUntilLimited('/api/frontend/sendsms', { body: {} }, 15);
    expect(sms.passed).toBe(10);
    await expectTooManyRequests(sms.limited);
    const codes = await callUntilLimited('/api/frontend/codeverification', { query: { Code: '000000', Id: 999_999 } }, 25);
    expect(codes.passed).toBe(20);
    await expectTooManyRequests(codes.limited);
  });

  it('sendemail: 5, emailverification: 20, updatepassword: 10 calls in 10 minutes (backend)', async () => {
    expect(signedIn).toBeDefined();
    const email = await callUntilLimited('/api/backend/sendemail', { body: { Email: 'not-an-email' }, cookie: signedIn }, 10);
    expect(email.passed).toBe(5);
    await expectTooManyRequests(email.limited);
    const link = await callUntilLimited('/api/backend/emailverification', { query: { Url: 'x' }, cookie: signedIn }, 25);
    expect(link.passed).toBe(20);
    await expectTooManyRequests(link.limited);
    const password = await callUntilLimited('/api/backend/updatepassword', { body: {}, cookie: signedIn }, 15);
    expect(password.passed).toBe(10);
    await expectTooManyRequests(password.limited);
  });
});
