/**
 * The second factor of support users (issue 15 items 5 and 10), over real HTTP:
 * - a session alone cannot set up, move or remove the authenticator: a new secret takes the password (none
 *   on yet) or a current code of the authenticator that is on, turning it off takes a code, and each change
 *   ends the user's other sessions (the one that made it stays);
 * - secrets are stored encrypted with SECRETS_KEY (the database never holds the secret), sign-in with a
 *   code works, secrets stored in clear or with a previous key are encrypted with the current one at start
 *   (rotation), and a key that opens nothing stops the start with a message naming the key ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, supportUsers } from '#server/db/schema.ts';
import { keyIdOf, secretKeysFrom } from '#server/domain/secret-box.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { call, fieldErrors } from './accounts-helpers.ts';
import { codeOf, createSupportUserOverHttp, enableTwoFactor, freshCode, signInAdmin, signInSupport } from './support-helpers.ts';

const keyA = Buffer.alloc(32, 0xa1);
const keyB = Buffer.alloc(32, 0xb2);
const keyC = Buffer.alloc(32, 0xc3);

let server: TestServer;
// The server's clock; `tick` moves it a minute on, so that every code is of a new step (no waiting).
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const tick = () => void (offsetMs += 60_000);

beforeAll(async () => {
  server = await startTestServer({ now: clock, app: { rateLimitScale: 50, secretKeys: secretKeysFrom(keyA) } });
  await signInAdmin(server, clock);
});
afterAll(async () => {
  await server?.close();
});

const profileStatus = async (cookie: string) => (await call(server, '/api/support/supportprofile', { cookie })).status;
const stored = async (id: number) => (await server.db.select().from(supportUsers).where(eq(supportUsers.id, id)))[0]!;

/** A Support user with two-step sign-in on and two sessions (two browsers), signed in with codes. */
async function userWithAuthenticator() {
  const user = await createSupportUserOverHttp(server, { permissions: ['Support'] });
  const secret = await enableTwoFactor(server, await signInSupport(server, user, clock), clock);
  tick();
  const here = await signInSupport(server, { ...user, secret }, clock);
  tick();
  const elsewhere = await signInSupport(server, { ...user, secret }, clock);
  tick();
  return { user, secret, here, elsewhere };
}

describe('changing the second factor needs more than a session (item 5)', () => {
  it('gives a new secret to a user with an authenticator only against a current code of it, and the move ends their other sessions', async () => {
    const { user, secret, here, elsewhere } = await userWithAuthenticator();
    const setup = (body: unknown) => call(server, '/api/support/twofactorsetup', { body, cookie: here });

    // The session alone, or with the password only: refused at the code's field, no secret given.
    for (const body of [{}, { Password: user.password }]) {
      const refused = await setup(body);
      expect(refused.status).toBe(400);
      expect(await fieldErrors(refused)).toEqual({ Code: 'codeRequired' });
    }
    const wrong = String((Number(codeOf(secret, clock())) + 500_000) % 1_000_000).padStart(6, '0');
    expect(await fieldErrors(await setup({ Code: wrong }))).toEqual({ Code: 'codeWrong' });
    expect((await stored(user.id)).totpPendingSecret).toBeNull();
    const failures = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'support_user.two_factor_proof_failed'), eq(auditLog.targetId, String(user.id))));
    expect(failures).toHaveLength(1);

    // A current code of the old authenticator: a new secret; the old one stays on until it is confirmed.
    const moved = await setup({ Code: await freshCode(server, user.id, secret, clock) });
    expect(moved.status).toBe(200);
    const { secret: newSecret } = (await moved.json()) as { secret: string };
    expect(newSecret).not.toBe(secret);
    expect(await profileStatus(elsewhere)).toBe(200);
    const confirmed = await call(server, '/api/support/twofactorconfirm', { body: { Code: codeOf(newSecret, clock()) }, cookie: here });
    expect(confirmed.status).toBe(204);

    // The other session ended; this one goes on; sign-in now takes the new authenticator's codes.
    expect(await profileStatus(elsewhere)).toBe(401);
    expect(await profileStatus(here)).toBe(200);
    const withOld = await call(server, '/api/support/login', {
      body: { Email: user.email, Password: user.password, Code: await freshCode(server, user.id, secret, clock) },
    });
    expect(withOld.status).toBe(401);
    tick();
    await signInSupport(server, { ...user, secret: newSecret }, clock);
  });

  it('sets up the first authenticator only against the password, refused at its field and the form kept otherwise', async () => {
    const user = await createSupportUserOverHttp(server, { permissions: ['SEO'] });
    const cookie = await signInSupport(server, user, clock);
    const setup = (body: unknown) => call(server, '/api/support/twofactorsetup', { body, cookie });
    expect(await fieldErrors(await setup({}))).toEqual({ Password: 'required' });
    const wrong = await setup({ Password: 'not the password at all' });
    expect(wrong.status).toBe(400);
    expect(await fieldErrors(wrong)).toEqual({ Password: 'wrongPassword' });
    expect((await stored(user.id)).totpPendingSecret).toBeNull();
    expect((await setup({ Password: user.password })).status).toBe(200);
  });

  it('turns the authenticator off only with a current code, and ends the other sessions', async () => {
    const { user, secret, here, elsewhere } = await userWithAuthenticator();
    const disable = (body: unknown) => call(server, '/api/support/twofactordisable', { body, cookie: here });
    expect(await fieldErrors(await disable({ Code: '' }))).toEqual({ Code: 'required' });
    expect(await profileStatus(elsewhere)).toBe(200);
    expect((await disable({ Code: await freshCode(server, user.id, secret, clock) })).status).toBe(204);
    expect(await profileStatus(elsewhere)).toBe(401);
    expect(await profileStatus(here)).toBe(200);
    const [audit] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'support_user.two_factor_disabled'), eq(auditLog.targetId, String(user.id))));
    // `elsewhere` and the session that turned it on in the first place.
    expect(audit?.after).toMatchObject({ sessionsEnded: 2 });
  });
});

describe('authenticator secrets at rest (item 10)', () => {
  it('stores the pending and the active secret encrypted, never the secret itself, and signs in with a code', async () => {
    const user = await createSupportUserOverHttp(server, { permissions: ['Support'] });
    const cookie = await signInSupport(server, user, clock);
    const setup = await call(server, '/api/support/twofactorsetup', { body: { Password: user.password }, cookie });
    const { secret } = (await setup.json()) as { secret: string };
    const pending = (await stored(user.id)).totpPendingSecret!;
    expect(pending).not.toContain(secret);
    expect(pending.startsWith(`sealed:v1:${keyIdOf(keyA)}:`)).toBe(true);

    expect((await call(server, '/api/support/twofactorconfirm', { body: { Code: codeOf(secret, clock()) }, cookie })).status).toBe(204);
    const active = (await stored(user.id)).totpSecret!;
    expect(active).not.toContain(secret);
    expect(active).toMatch(/^sealed:v1:[0-9a-f]{12}:/);
    tick();
    await signInSupport(server, { ...user, secret }, clock);
  });

  it('encrypts secrets stored in clear at start, rotates to a new key (the old one as previous), and stops on a key that opens nothing', async () => {
    // One user with a secret sealed with key A, one whose secret is still in clear (stored before encryption).
    const sealed = await createSupportUserOverHttp(server, { permissions: ['Support'] });
    const sealedSecret = await enableTwoFactor(server, await signInSupport(server, sealed, clock), clock);
    const clear = await createSupportUserOverHttp(server, { permissions: ['Support'] });
    const clearSecret = await enableTwoFactor(server, await signInSupport(server, clear, clock), clock);
    await server.db.update(supportUsers).set({ totpSecret: clearSecret }).where(eq(supportUsers.id, clear.id));

    // The same database started with key B, and key A as previous: everything is sealed with B.
    tick();
    const rotated = await startTestServer({ shareDatabaseOf: server, now: clock, app: { rateLimitScale: 50, secretKeys: secretKeysFrom(keyB, [keyA]) } });
    try {
      for (const user of [sealed, clear]) {
        const value = (await stored(user.id)).totpSecret!;
        expect(value.startsWith(`sealed:v1:${keyIdOf(keyB)}:`), `user ${user.id}`).toBe(true);
      }
      expect((await stored(clear.id)).totpSecret).not.toContain(clearSecret);
      await signInSupport(rotated, { ...sealed, secret: sealedSecret }, clock);
      await signInSupport(rotated, { ...clear, secret: clearSecret }, clock);
    } finally {
      await rotated.close();
    }

    // Key C alone opens none of them: the server does not start, and says which key is missing.
    const refused = startTestServer({ shareDatabaseOf: server, app: { secretKeys: secretKeysFrom(keyC) } });
    await expect(refused).rejects.toThrow(new RegExp(`encrypted with key ${keyIdOf(keyB)}.*SECRETS_KEY \\(${keyIdOf(keyC)}\\).*SECRETS_KEY_PREVIOUS`));
  });
});
