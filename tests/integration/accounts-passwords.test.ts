/**
 * Advertiser accounts over real HTTP (spec §7): resetpassword, changepassword and updatepassword, with
 * links read from the outbox. The server's clock can be moved on (`advance`) for expiry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, loginEvents } from '#server/db/schema.ts';
import { createOutboxMessaging } from '#server/adapters/messaging/outbox-messaging.ts';
import type { Messaging } from '#server/adapters/types.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import {
  GOOD_PASSWORD,
  call,
  createProfileOverHttp,
  fieldErrors,
  lastResetLink,
  outboxFor,
  sessionCookieOf,
  uniqueEmail,
  MINUTE,
  clockedServer,
} from './accounts-helpers.ts';

const clocked = clockedServer();
const { advance, userProfile, login } = clocked;
let server: TestServer;
beforeAll(() => {
  server = clocked.server();
});

describe('resetpassword and changepassword', () => {
  it('resetpassword answers 204 whatever the email; changepassword sets the password and ends every session', async () => {
    const owner = await createProfileOverHttp(server);
    const secondDevice = sessionCookieOf(await login(owner.email, GOOD_PASSWORD));
    expect((await userProfile(secondDevice)).status).toBe(200);

    const unknownEmail = uniqueEmail('nobody');
    const unknown = await call(server, '/api/frontend/resetpassword', { body: { Email: unknownEmail } });
    expect(unknown.status).toBe(204);
    expect(await outboxFor(server, unknownEmail)).toEqual([]);
    const known = await call(server, '/api/frontend/resetpassword', { body: { email: owner.email.toUpperCase() } });
    expect(known.status).toBe(204);
    const { token, id, link } = await lastResetLink(server, owner.email);
    expect(link).toMatch(/^http:\/\/localhost:3000\/login\/change\/\?token=[\w-]+&id=\d+$/);
    expect(id).toBe(owner.profile.id);

    const wrongId = await call(server, '/api/frontend/changepassword', { body: { Token: token, Id: id + 1, Password: 'a brand new secret 7' } });
    expect(await fieldErrors(wrongId)).toEqual({ Token: 'linkInvalid' });
    const common = await call(server, '/api/frontend/changepassword', { body: { Token: token, Id: id, Password: 'qwertyuiop' } });
    expect(await fieldErrors(common)).toEqual({ Password: 'passwordCommon' });
    const short = await call(server, '/api/frontend/changepassword', { body: { Token: token, Id: id, Password: 'short' } });
    expect(await fieldErrors(short)).toEqual({ Password: 'passwordLength' });

    const changed = await call(server, '/api/frontend/changepassword', { body: { Token: token, Id: String(id), Password: 'a brand new secret 7' } });
    expect(changed.status).toBe(204);
    expect((await userProfile(owner.cookie)).status).toBe(401);
    expect((await userProfile(secondDevice)).status).toBe(401);
    expect((await login(owner.email, GOOD_PASSWORD)).status).toBe(401);
    const fresh = await login(owner.email, 'a brand new secret 7');
    expect(fresh.status).toBe(200);
    // Opening the emailed link proved the address too.
    expect(await fresh.json()).toMatchObject({ emailVerified: true });

    const reused = await call(server, '/api/frontend/changepassword', { body: { Token: token, Id: id, Password: 'another new secret 8' } });
    expect(await fieldErrors(reused)).toEqual({ Token: 'linkInvalid' });
    expect((await outboxFor(server, owner.email)).at(-1)!.subject).toContain('Din adgangskode er ændret');
    const audit = JSON.stringify(await server.db.select().from(auditLog).where(eq(auditLog.targetId, String(id))));
    expect(audit).toContain('account.password_reset_requested');
    expect(audit).toContain('account.password_changed');
    expect(audit).not.toContain(token);
    expect(audit).not.toContain('a brand new secret 7');
  });

  it('a reset link in English goes to /en/login/change/ and stops working after an hour', async () => {
    const owner = await createProfileOverHttp(server, { Locale: 'en' });
    await call(server, '/api/frontend/resetpassword', { body: { Email: owner.email } });
    const { token, id, link } = await lastResetLink(server, owner.email);
    expect(link).toContain('http://localhost:3000/en/login/change/?token=');
    expect((await outboxFor(server, owner.email)).at(-1)!.subject).toContain('Reset your password');
    advance(61 * MINUTE);
    const late = await call(server, '/api/frontend/changepassword', { body: { Token: token, Id: id, Password: 'a brand new secret 7' } });
    expect(await fieldErrors(late)).toEqual({ Token: 'linkInvalid' });
  });
});

describe('updatepassword', () => {
  it('needs the current password, ends every session and gives the caller a fresh one', async () => {
    const owner = await createProfileOverHttp(server);
    const secondDevice = sessionCookieOf(await login(owner.email, GOOD_PASSWORD));
    const update = (body: unknown, cookie: string | undefined) => call(server, '/api/backend/updatepassword', { body, cookie });

    expect((await update({ Password: GOOD_PASSWORD, NewPassword: 'the new secret 123' }, undefined)).status).toBe(401);
    expect(await fieldErrors(await update({ Password: 'not my password', NewPassword: 'the new secret 123' }, owner.cookie))).toEqual({ Password: 'wrongPassword' });
    expect(await fieldErrors(await update({ Password: GOOD_PASSWORD, NewPassword: GOOD_PASSWORD }, owner.cookie))).toEqual({ NewPassword: 'samePassword' });
    expect(await fieldErrors(await update({ Password: GOOD_PASSWORD, NewPassword: 'iloveyou123' }, owner.cookie))).toEqual({ NewPassword: 'passwordCommon' });

    const changed = await update({ Password: GOOD_PASSWORD, NewPassword: 'the new secret 123' }, owner.cookie);
    expect(changed.status).toBe(204);
    const renewed = sessionCookieOf(changed);
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(owner.cookie);
    expect((await userProfile(owner.cookie)).status).toBe(401);
    expect((await userProfile(secondDevice)).status).toBe(401);
    expect((await userProfile(renewed)).status).toBe(200);
    expect((await outboxFor(server, owner.email)).at(-1)!.subject).toContain('Din adgangskode er ændret');
    // The sign-ins (the sign-up's confirmation and the second device) only: a wrong current password here is no failed sign-in.
    const events = await server.db.select().from(loginEvents).where(eq(loginEvents.accountId, owner.profile.id));
    expect(events.map((e) => e.success)).toEqual([true, true]);
  });
});

describe('resetpassword answers known and unknown emails alike (issue 15)', () => {
  // A mail provider that can hold emails until released: an answer that waited for the email (which
  // only a known address gets) would not come while it is held.
  let held: Promise<void> | null = null;
  let release: () => void = () => {};
  const hold = () => {
    held = new Promise<void>((resolve) => {
      release = () => {
        held = null;
        resolve();
      };
    });
  };
  let outbox: Messaging | undefined;
  const slowProvider: Messaging = {
    sendEmail: async (message) => {
      if (held) await held;
      await outbox!.sendEmail(message);
    },
    sendSms: async (message) => outbox!.sendSms(message),
    smsReachesPhones: true,
  };
  let slow: TestServer;
  beforeAll(async () => {
    slow = await startTestServer({ app: { messaging: slowProvider } });
    outbox = createOutboxMessaging(slow.db, { keepUndeliveredSecrets: true });
  });
  afterAll(async () => {
    release();
    await slow?.close();
  });

  it('answers 204 before any work only a known email causes, for advertisers and support users', async () => {
    const owner = await createProfileOverHttp(slow);
    hold();
    const reset = (area: 'frontend' | 'support', Email: string) =>
      fetch(`${slow.url}/api/${area}/resetpassword`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Email }),
        signal: AbortSignal.timeout(5_000),
      });
    for (const [area, known] of [
      ['frontend', owner.email],
      ['support', slow.admin.email],
    ] as const) {
      expect((await reset(area, uniqueEmail('nobody'))).status).toBe(204);
      // Today's code waited for the held email here (and timed out).
      expect((await reset(area, known)).status).toBe(204);
    }
    // The emails go out once the provider lets them: the links still reach their owners.
    release();
    expect((await lastResetLink(slow, owner.email)).id).toBe(owner.profile.id);
    expect((await outboxFor(slow, slow.admin.email)).at(-1)!.body).toContain('/support/login/change/?token=');
  });
});
