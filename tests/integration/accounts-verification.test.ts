/**
 * Advertiser accounts over real HTTP (spec §7): sendsms, codeverification, sendemail and
 * emailverification, with codes and links read from the outbox. The server's clock can be moved on
 * (`advance`) for expiry and resend rules.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog } from '#server/db/schema.ts';
import type { TestServer } from '#tests/support/test-server.ts';
import {
  GOOD_PASSWORD,
  call,
  createProfileOverHttp,
  fieldErrors,
  lastEmailLinkToken,
  lastSignUpToken,
  lastSmsCode,
  outboxFor,
  uniqueEmail,
  MINUTE,
  clockedServer,
} from './accounts-helpers.ts';

// Eight sendemail calls in this file: twice the per-address limit (five in ten minutes).
const clocked = clockedServer({ app: { rateLimitScale: 2 } });
const { advance, userProfile, login } = clocked;
let server: TestServer;
beforeAll(() => {
  server = clocked.server();
});

describe('sendsms and codeverification', () => {
  it('codeverification confirms the phone with the code from the outbox, once', async () => {
    const { cookie, profile, phone } = await createProfileOverHttp(server);
    const code = await lastSmsCode(server, phone);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const id = profile.phoneVerificationId;

    const refused = await call(server, '/api/frontend/codeverification', { query: { Code: wrong, Id: id } });
    expect(refused.status).toBe(400);
    expect(await fieldErrors(refused)).toEqual({ Code: 'codeWrong' });
    const bad = await call(server, '/api/frontend/codeverification', { query: { code: '12ab', id } });
    expect(await fieldErrors(bad)).toEqual({ Code: 'code' });

    const confirmed = await call(server, '/api/frontend/codeverification', { query: { Code: code, Id: id } });
    expect(confirmed.status).toBe(204);
    expect(await (await userProfile(cookie)).json()).toMatchObject({ phoneVerified: true });
    const again = await call(server, '/api/frontend/codeverification', { query: { Code: code, Id: id } });
    expect(await fieldErrors(again)).toEqual({ Code: 'codeExpired' });

    // Confirmed: no new code.
    const more = await call(server, '/api/frontend/sendsms', { body: {}, cookie });
    expect(more.status).toBe(409);
    expect(await fieldErrors(more)).toEqual({ Phone: 'phoneVerified' });

    // Neither the code nor the password reached the server's log.
    const logged = JSON.stringify(server.logs);
    expect(logged).toContain('/api/frontend/createprofile'); // other requests are logged
    expect(logged).not.toContain('codeverification');
    expect(logged).not.toContain(`"${code}"`);
    expect(logged).not.toContain(GOOD_PASSWORD);
    const audit = JSON.stringify(await server.db.select().from(auditLog).where(eq(auditLog.targetId, String(profile.id))));
    expect(audit).toContain('account.phone_verified');
    expect(audit).toContain('account.phone_code_failed');
    expect(audit).not.toMatch(new RegExp(`\\b${code}\\b`));
  });

  it('sendsms needs a session, throttles resends, and a code stops after 5 tries and after 10 minutes', async () => {
    expect((await call(server, '/api/frontend/sendsms', { body: {} })).status).toBe(401);
    const { cookie, phone, profile } = await createProfileOverHttp(server);
    const first = await lastSmsCode(server, phone);

    const tooSoon = await call(server, '/api/frontend/sendsms', { body: {}, cookie });
    expect(tooSoon.status).toBe(429);
    expect(await fieldErrors(tooSoon)).toEqual({ Phone: 'tooSoon' });

    advance(61_000);
    const resent = await call(server, '/api/frontend/sendsms', { body: {}, cookie });
    expect(resent.status).toBe(200);
    const sent = await resent.json();
    expect(sent).toMatchObject({ id: expect.any(Number), phone: expect.stringMatching(/^\d{4}xxxx$/) });
    // The earlier code stopped working.
    const old = await call(server, '/api/frontend/codeverification', { query: { Code: first, Id: profile.phoneVerificationId } });
    expect(await fieldErrors(old)).toEqual({ Code: 'codeExpired' });

    const code = await lastSmsCode(server, phone);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const response = await call(server, '/api/frontend/codeverification', { query: { Code: wrong, Id: sent.id } });
      expect(response.status).toBe(400);
    }
    const fifth = await call(server, '/api/frontend/codeverification', { query: { Code: wrong, Id: sent.id } });
    expect(fifth.status).toBe(429);
    expect(await fieldErrors(fifth)).toEqual({ Code: 'codeAttempts' });
    const right = await call(server, '/api/frontend/codeverification', { query: { Code: code, Id: sent.id } });
    expect(right.status).toBe(429);

    advance(61_000);
    const third = await (await call(server, '/api/frontend/sendsms', { body: {}, cookie })).json();
    const fresh = await lastSmsCode(server, phone);
    advance(10 * MINUTE + 1000);
    const late = await call(server, '/api/frontend/codeverification', { query: { Code: fresh, Id: third.id } });
    expect(late.status).toBe(400);
    expect(await fieldErrors(late)).toEqual({ Code: 'codeExpired' });
    expect(await (await userProfile(cookie)).json()).toMatchObject({ phoneVerified: false });
  });
});

describe('sendemail and emailverification', () => {
  it('a confirmed sign-up has its email confirmed: no link to ask for', async () => {
    const owner = await createProfileOverHttp(server);
    expect(await (await userProfile(owner.cookie)).json()).toMatchObject({ email: owner.email, emailVerified: true });
    const more = await call(server, '/api/backend/sendemail', { body: {}, cookie: owner.cookie });
    expect(more.status).toBe(409);
    expect(await fieldErrors(more)).toEqual({ Email: 'emailVerified' });
  });

  it('emailverification confirms a new address with the link from the outbox, once, for its own account', async () => {
    const owner = await createProfileOverHttp(server);
    const other = await createProfileOverHttp(server);
    const newEmail = uniqueEmail('moving');
    expect((await call(server, '/api/backend/sendemail', { body: { Email: newEmail }, cookie: owner.cookie })).status).toBe(204);
    const token = await lastEmailLinkToken(server, newEmail);

    expect((await call(server, '/api/backend/emailverification', { query: { Url: token } })).status).toBe(401);
    const foreign = await call(server, '/api/backend/emailverification', { query: { Url: token }, cookie: other.cookie });
    expect(foreign.status).toBe(400);
    expect(await fieldErrors(foreign)).toEqual({ Url: 'linkInvalid' });
    // A sign-up link is no email link (nor the other way round).
    const signUpToken = await lastSignUpToken(server, owner.email);
    const wrongKind = await call(server, '/api/backend/emailverification', { query: { Url: signUpToken }, cookie: owner.cookie });
    expect(await fieldErrors(wrongKind)).toEqual({ Url: 'linkInvalid' });

    // The whole link works too (the basic page may pass its `url` query as it came).
    const verified = await call(server, '/api/backend/emailverification', {
      query: { url: `http://localhost:3000/backend/basic/?url=${token}` },
      cookie: owner.cookie,
    });
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ email: newEmail, emailVerified: true });
    expect(await (await userProfile(owner.cookie)).json()).toMatchObject({ email: newEmail, emailVerified: true });

    const again = await call(server, '/api/backend/emailverification', { query: { Url: token }, cookie: owner.cookie });
    expect(await fieldErrors(again)).toEqual({ Url: 'linkInvalid' });
    expect(JSON.stringify(server.logs)).not.toContain(token);
  });

  it('sendemail changes the email only once the new address is confirmed, and tells the old one', async () => {
    const owner = await createProfileOverHttp(server);
    const taken = await createProfileOverHttp(server);
    expect((await call(server, '/api/backend/sendemail', { body: { Email: 'x@example.test' } })).status).toBe(401);

    // An address with an account is answered as any other (issue 15: never "email taken"): the same
    // wait after the last link, then 204; its owner gets a notice without a link, and nothing changes.
    const newEmail = uniqueEmail('moved');
    const takenBefore = (await outboxFor(server, taken.email)).length;
    const conflict = await call(server, '/api/backend/sendemail', { body: { Email: taken.email }, cookie: owner.cookie });
    expect(conflict.status).toBe(204);
    const takenNotices = (await outboxFor(server, taken.email)).slice(takenBefore);
    expect(takenNotices).toHaveLength(1);
    expect(takenNotices[0]!.subject).toContain('Nogen bad om at bruge din e-mailadresse');
    expect(takenNotices[0]!.body).not.toMatch(/[?&](url|token|confirm)=/i);
    expect(await (await userProfile(owner.cookie)).json()).toMatchObject({ email: owner.email });
    // The attempt counts for the resend wait exactly as a link to a free address would.
    const tooSoon = await call(server, '/api/backend/sendemail', { body: { Email: newEmail }, cookie: owner.cookie });
    expect(tooSoon.status).toBe(429);
    expect(await fieldErrors(tooSoon)).toEqual({ Email: 'tooSoon' });

    advance(61_000);
    const sent = await call(server, '/api/backend/sendemail', { body: { Email: newEmail.toUpperCase() }, cookie: owner.cookie });
    expect(sent.status).toBe(204);
    // Not changed yet: the confirmed address stays until the new one is confirmed.
    expect(await (await userProfile(owner.cookie)).json()).toMatchObject({ email: owner.email, emailVerified: true });

    const token = await lastEmailLinkToken(server, newEmail);
    const verified = await call(server, '/api/backend/emailverification', { query: { Url: token }, cookie: owner.cookie });
    expect(await verified.json()).toEqual({ email: newEmail, emailVerified: true });
    const notice = (await outboxFor(server, owner.email)).at(-1)!;
    expect(notice.subject).toContain('Din e-mailadresse er ændret');
    expect(notice.body).toContain(newEmail);
    expect((await login(newEmail, GOOD_PASSWORD)).status).toBe(200);
  });

  it('a new link ends the earlier one, and a link stops working after 24 hours', async () => {
    const owner = await createProfileOverHttp(server);
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    expect((await call(server, '/api/backend/sendemail', { body: { Email: first }, cookie: owner.cookie })).status).toBe(204);
    const firstToken = await lastEmailLinkToken(server, first);
    advance(61_000);
    expect((await call(server, '/api/backend/sendemail', { body: { Email: second }, cookie: owner.cookie })).status).toBe(204);
    const ended = await call(server, '/api/backend/emailverification', { query: { Url: firstToken }, cookie: owner.cookie });
    expect(await fieldErrors(ended)).toEqual({ Url: 'linkInvalid' });
    const token = await lastEmailLinkToken(server, second);
    advance(24 * 60 * MINUTE + 1000);
    const late = await call(server, '/api/backend/emailverification', { query: { Url: token }, cookie: owner.cookie });
    expect(await fieldErrors(late)).toEqual({ Url: 'linkInvalid' });
  });
});
