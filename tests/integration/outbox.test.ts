/**
 * GET /api/support/outbox over real HTTP: with `outbox:read:any` (Administration) the messages the site
 * sent, newest first, filtered by recipient and paged; without a session 401, without the permission 403
 * (a Support user included: issue 15). In development and tests (this server) undelivered codes and links
 * are shown, as the outbox is the developer's mailbox; in production every link and code that grants
 * access is masked in the view and in the stored row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accounts } from '#server/db/schema.ts';
import { signIn, startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { advertiserSessionCookie, createAdvertiser } from '#tests/support/fixtures.ts';
import { call, createProfileOverHttp, outboxFor, profileInput, uniquePhone } from './accounts-helpers.ts';
import { createSupportUserOverHttp, signInAdmin, signInSupport } from './support-helpers.ts';
import { startGatewayApiStandIn, type GatewayApiStandIn } from '#tests/support/gatewayapi-standin.ts';

let server: TestServer;
let supportCookie: string;

beforeAll(async () => {
  server = await startTestServer();
  // Administration (creating users) needs two-step sign-in: signInAdmin turns it on for the admin.
  supportCookie = await signInAdmin(server);
});
afterAll(async () => {
  await server?.close();
});

type OutboxAnswer = {
  total: number;
  items: { id: number; channel: string; to: string; subject: string | null; body: string; createdAt: string; status: string }[];
};

async function outbox(query: Record<string, string | number>, cookie = supportCookie): Promise<OutboxAnswer> {
  const response = await call(server, '/api/support/outbox', { query, cookie });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as OutboxAnswer;
}

describe('the outbox for support', () => {
  it('answers 401 without a session and 403 to a support user without Administration', async () => {
    const anonymous = await call(server, '/api/support/outbox');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toContain('application/problem+json');

    const seo = { email: 'seo-outbox@example.test', name: 'SEO', password: 'seo-password-long', permissions: ['SEO'] };
    const created = await call(server, '/api/support/users', { body: seo, cookie: supportCookie });
    expect(created.status).toBe(201);
    const seoCookie = await signIn(server, 'support', seo);
    const refused = await call(server, '/api/support/outbox', { cookie: seoCookie });
    expect(refused.status).toBe(403);

    // The Support role (moderation, impersonation) does not read the outbox either.
    const support = await createSupportUserOverHttp(server, { permissions: ['Support'] }, supportCookie);
    const supportOnly = await signInSupport(server, support);
    const answer = await call(server, '/api/support/outbox', { cookie: supportOnly });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');

    // An advertiser's session is not a support session either.
    const advertiser = await createProfileOverHttp(server);
    expect((await call(server, '/api/support/outbox', { cookie: advertiser.cookie })).status).toBe(401);
  });

  it('lists the sign-up link and the SMS code of a new account, newest first, by email or by phone as typed', async () => {
    const { email, phone } = await createProfileOverHttp(server);

    const mail = await outbox({ To: email.toUpperCase() });
    expect(mail.total).toBe(1);
    expect(mail.items[0]).toMatchObject({ channel: 'email', to: email, status: 'stored' });
    expect(mail.items[0]!.subject).toContain('Bekræft din tilmelding');
    expect(mail.items[0]!.body).toMatch(/\/create\/\?confirm=[\w-]{20,}/);
    expect(new Date(mail.items[0]!.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const typed = `+45 ${phone.slice(0, 4)} ${phone.slice(4)}`;
    const sms = await outbox({ To: typed });
    expect(sms.total).toBe(1);
    expect(sms.items[0]).toMatchObject({ channel: 'sms', to: `+45${phone}`, subject: null, status: 'stored' });
    expect(sms.items[0]!.body).toMatch(/\b\d{6}\b/);

    // Without a filter: everything, newest first; Skip and Take page through it.
    const all = await outbox({ Take: 100 });
    expect(all.total).toBeGreaterThanOrEqual(2);
    const ids = all.items.map((item) => item.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const second = await outbox({ Skip: 1, Take: 1 });
    expect(second.items.map((item) => item.id)).toEqual([ids[1]]);
  });

  it('refuses a bad page size at its field', async () => {
    const response = await call(server, '/api/support/outbox', { query: { Take: 1000 }, cookie: supportCookie });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([{ field: 'Take', message: 'range' }]);
  });
});

describe('a Support user cannot take over an account through the outbox (issue 15)', () => {
  it("asks for an advertiser's and an administrator's reset links but cannot read them", async () => {
    const support = await createSupportUserOverHttp(server, { permissions: ['Support'] }, supportCookie);
    const supportOnly = await signInSupport(server, support);
    const advertiser = await createProfileOverHttp(server);

    // Anyone may ask for a reset; the link goes to the owner's mailbox only.
    expect((await call(server, '/api/frontend/resetpassword', { body: { Email: advertiser.email } })).status).toBe(204);
    expect((await call(server, '/api/support/resetpassword', { body: { Email: server.admin.email } })).status).toBe(204);
    for (const To of [advertiser.email, server.admin.email]) {
      const refused = await call(server, '/api/support/outbox', { query: { To }, cookie: supportOnly });
      expect(refused.status).toBe(403);
      expect(await refused.text()).not.toContain('/login/change/?token=');
    }
  });
});

describe('the outbox in production', () => {
  let production: TestServer;
  let sms: GatewayApiStandIn;
  beforeAll(async () => {
    // Production sends SMS through its provider (here the stand-in of GatewayAPI); email has no SMTP.
    sms = await startGatewayApiStandIn();
    production = await startTestServer({
      app: { environment: 'production', sms: { provider: 'gatewayapi', url: sms.url, token: sms.token, sender: 'Annoncer', webhookSecret: undefined } },
    });
  });
  afterAll(async () => {
    await production?.close();
    await sms?.close();
  });

  it('never keeps nor shows the links and codes no provider delivered, not even to Administration', async () => {
    const admin = await signInAdmin(production);
    // A sign-up (its link) and a reset (its link) for one address; an SMS code for another advertiser.
    const input = await profileInput(production);
    const email = String(input.Email);
    expect((await call(production, '/api/frontend/createprofile', { body: input })).status).toBe(202);
    expect((await call(production, '/api/frontend/resetpassword', { body: { Email: email } })).status).toBe(204);
    const texter = await createAdvertiser(production.db, { phoneVerified: false });
    const phone = uniquePhone();
    await production.db.update(accounts).set({ phone }).where(eq(accounts.id, texter.accountId));
    const sent = await call(production, '/api/frontend/sendsms', { body: {}, cookie: await advertiserSessionCookie(production.db, texter.accountId) });
    expect(sent.status, await sent.clone().text()).toBe(200);

    // The stored rows hold no token and no code...
    const rows = [...(await outboxFor(production, email)), ...(await outboxFor(production, `+45${phone}`))];
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.body).toContain('[hidden: sent only to the recipient]');
      expect(row.body).not.toMatch(/confirm=|url=|token=|\b\d{6}\b/);
    }

    // ...and the view shows each message, masked.
    const response = await call(production, '/api/support/outbox', { query: { To: email }, cookie: admin });
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as OutboxAnswer;
    expect(items.map((item) => item.subject)).toEqual([expect.stringContaining('Nulstil'), expect.stringContaining('Bekræft din tilmelding')]);
    for (const item of items) {
      expect(item.body).toContain('[hidden: sent only to the recipient]');
      expect(item.body).not.toMatch(/confirm=|url=|token=/);
    }
    const sms = (await (await call(production, '/api/support/outbox', { query: { To: `+45${phone}` }, cookie: admin })).json()) as OutboxAnswer;
    expect(sms.items[0]!.body).not.toMatch(/\b\d{6}\b/);
  });
});
