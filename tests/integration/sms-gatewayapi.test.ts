/**
 * SMS through GatewayAPI (issue 30, docs/decisions/039): the live adapter against the stand-in that follows
 * GatewayAPI's published REST API (tests/support/gatewayapi-standin.ts). Sign-up's phone code (confirmsignup),
 * sendsms and a visitor's review code (sendreviewcode) go out through it; the outbox keeps the masked copy;
 * a refused send is kept and retried; delivery reports are read from their signed token only; a production
 * start without an SMS provider refuses what needs a code, in the user's language, and says so in its log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { accounts, outboxMessages } from '#server/db/schema.ts';
import { loadConfig } from '#server/config.ts';
import { warnAboutMissingProviders } from '#server/main.ts';
import { createGatewayApiSms, readDeliveryReport } from '#server/adapters/messaging/gatewayapi-sms.ts';
import { redeliverMessage } from '#server/adapters/messaging/outbox-messaging.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { startGatewayApiStandIn, type GatewayApiStandIn } from '#tests/support/gatewayapi-standin.ts';
import { call, createProfileOverHttp, fieldErrors, outboxFor, profileInput, uniquePhone } from './accounts-helpers.ts';
import { advertiserSessionCookie, createAdvertiser } from '#tests/support/fixtures.ts';

let standIn: GatewayApiStandIn;
let server: TestServer;
const SENDER = 'Annoncer';

beforeAll(async () => {
  standIn = await startGatewayApiStandIn();
  server = await startTestServer({
    captureLogs: true,
    app: { sms: { provider: 'gatewayapi', url: standIn.url, token: standIn.token, sender: SENDER, webhookSecret: standIn.webhookSecret } },
  });
  // The callback URL names the public site (SITE_URL); the provider reaches it where this test server listens.
  standIn.reachCallbacksAt = server.url;
});
afterAll(async () => {
  await server?.close();
  await standIn?.close();
});

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];
const rowOf = async (id: number) => (await server.db.select().from(outboxMessages).where(eq(outboxMessages.id, id)))[0]!;

describe('codes go out through GatewayAPI', () => {
  it("sign-up's phone code reaches the phone through the provider's API; the outbox keeps it masked; the code confirms the phone", async () => {
    const before = standIn.sent.length;
    const { profile, phone, cookie } = await createProfileOverHttp(server);
    const message = standIn.sent.at(-1)!;
    expect(standIn.sent.length).toBe(before + 1);
    // As the published API asks: the token in the Authorization header, JSON with sender, message, userref and the recipient's MSISDN.
    expect(message).toMatchObject({ auth: 'token-header', sender: SENDER, msisdn: Number(`45${phone}`), callbackUrl: 'http://localhost:3000/api/sms/gatewayapi' });
    const request = standIn.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/rest/mtsms');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      sender: SENDER,
      message: message.message,
      userref: message.userref,
      callback_url: 'http://localhost:3000/api/sms/gatewayapi',
      recipients: [{ msisdn: Number(`45${phone}`) }],
    });
    const code = codeIn(message.message)!;
    expect(code).toMatch(/^\d{6}$/);

    // The outbox: sent, with the provider's id, and the code masked.
    const [row] = (await outboxFor(server, `+45${phone}`)).filter((r) => r.channel === 'sms');
    expect(row).toMatchObject({ providerId: String(message.id), error: null });
    expect(row!.sentAt).not.toBeNull();
    expect(String(row!.id)).toBe(message.userref);
    expect(row!.body).not.toContain(code);
    expect(row!.body).toContain('[hidden: sent only to the recipient]');

    const confirmed = await call(server, '/api/frontend/codeverification', { query: { Code: code, Id: profile.phoneVerificationId } });
    expect(confirmed.status).toBe(204);
    const me = await call(server, '/api/backend/userprofile', { cookie });
    expect(await me.json()).toMatchObject({ phoneVerified: true });
  });

  it('sendsms for a changed number goes out the same way', async () => {
    const texter = await createAdvertiser(server.db, { phoneVerified: false });
    const phone = uniquePhone();
    const sent = await call(server, '/api/frontend/sendsms', { body: { Phone: phone }, cookie: await advertiserSessionCookie(server.db, texter.accountId) });
    expect(sent.status, await sent.clone().text()).toBe(200);
    expect(standIn.sent.at(-1)).toMatchObject({ msisdn: Number(`45${phone}`), sender: SENDER });
    expect(codeIn(standIn.sent.at(-1)!.message)).toMatch(/^\d{6}$/);
  });

  it('a send the provider refuses is kept (with its error, not the code) and delivered by the retry; the answer does not wait for it', async () => {
    const texter = await createAdvertiser(server.db, { phoneVerified: false });
    const phone = uniquePhone();
    standIn.failNext(1, 500);
    const sent = await call(server, '/api/frontend/sendsms', { body: { Phone: phone }, cookie: await advertiserSessionCookie(server.db, texter.accountId) });
    expect(sent.status).toBe(200);
    const [row] = await outboxFor(server, `+45${phone}`);
    expect(row!.sentAt).toBeNull();
    expect(row!.error).toMatch(/GatewayAPI refused the SMS \(500 0x0201\)/);
    expect(row!.error).not.toMatch(/\d{6}/);
    // The server logged the failure without the message or the number.
    const failure = server.logs.find((line) => line['msg'] === 'sms delivery failed; the message stays in the outbox and is tried again later');
    expect(failure).toMatchObject({ outboxId: row!.id, channel: 'sms' });
    expect(JSON.stringify(server.logs)).not.toContain(phone);

    // The retry job's delivery: sent once, then masked.
    const delivery = createGatewayApiSms({ url: standIn.url, token: standIn.token, sender: SENDER });
    await redeliverMessage(server.db, { sms: delivery }, row!.id);
    const after = await rowOf(row!.id);
    expect(after.sentAt).not.toBeNull();
    expect(after.error).toBeNull();
    expect(after.body).toContain('[hidden: sent only to the recipient]');
    expect(standIn.sent.filter((m) => m.msisdn === Number(`45${phone}`))).toHaveLength(1);
    await redeliverMessage(server.db, { sms: delivery }, row!.id);
    expect(standIn.sent.filter((m) => m.msisdn === Number(`45${phone}`))).toHaveLength(1);

    // A wrong token is the provider's 401, kept as the error.
    const wrongToken = createGatewayApiSms({ url: standIn.url, token: 'not-the-token', sender: SENDER });
    await expect(wrongToken.deliver({ to: `+45${phone}`, text: 'x' }, '1')).rejects.toThrow(/401 0x0229/);
  });

  it("a visitor's review code goes out through the provider too", async () => {
    const owner = await createAdvertiser(server.db);
    const phone = uniquePhone();
    const answer = await call(server, '/api/frontend/reviewcode', { body: { ProfileId: owner.id, Phone: phone, Locale: 'en' } });
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(standIn.sent.at(-1)).toMatchObject({ msisdn: Number(`45${phone}`), sender: SENDER });
    expect(codeIn(standIn.sent.at(-1)!.message)).toMatch(/^\d{6}$/);
  });
});

describe('delivery reports', () => {
  const sendOne = async () => {
    const texter = await createAdvertiser(server.db, { phoneVerified: false });
    const phone = uniquePhone();
    expect((await call(server, '/api/frontend/sendsms', { body: { Phone: phone }, cookie: await advertiserSessionCookie(server.db, texter.accountId) })).status).toBe(200);
    const message = standIn.sent.at(-1)!;
    return { message, outboxId: Number(message.userref) };
  };

  it('a signed report records the state; a final state stays when a transient one or a copy arrives after it', async () => {
    const { message, outboxId } = await sendOne();
    expect(await standIn.report(message.id, 'ENROUTE')).toBe(204);
    expect(await rowOf(outboxId)).toMatchObject({ deliveryStatus: 'ENROUTE' });
    expect(await standIn.report(message.id, 'DELIVERED')).toBe(204);
    expect(await standIn.report(message.id, 'DELIVERED')).toBe(204);
    expect(await standIn.report(message.id, 'BUFFERED')).toBe(204);
    const row = await rowOf(outboxId);
    expect(row).toMatchObject({ deliveryStatus: 'DELIVERED', error: null });
    expect(row.deliveryStatusAt).not.toBeNull();
  });

  it('an undeliverable message is marked with its error for support', async () => {
    const { message, outboxId } = await sendOne();
    expect(await standIn.report(message.id, 'UNDELIVERABLE', { error: 'Invalid MSISDN' })).toBe(204);
    expect(await rowOf(outboxId)).toMatchObject({ deliveryStatus: 'UNDELIVERABLE', error: 'UNDELIVERABLE: Invalid MSISDN' });
  });

  it('a report without the signature, or signed with another secret, is refused and changes nothing; one for a message not ours is ignored', async () => {
    const { message, outboxId } = await sendOne();
    expect(await standIn.report(message.id, 'DELIVERED', { sign: false })).toBe(401);
    expect(await standIn.report(message.id, 'DELIVERED', { secret: 'another-secret-of-enough-length' })).toBe(401);
    expect((await rowOf(outboxId)).deliveryStatus).toBeNull();
    // The body says DELIVERED, the token is for another message: only the token is read.
    const other = await sendOne();
    message.userref = other.message.userref;
    expect(await standIn.report(message.id, 'REJECTED')).toBe(204);
    expect((await rowOf(other.outboxId)).deliveryStatus).toBeNull();
    expect((await rowOf(outboxId)).deliveryStatus).toBeNull();
  });

  it("reads the published example: the documentation's token with its secret, and nothing with another or tampered", async () => {
    // docs/rest.rst, "Authentication token": the example X-Gwapi-Signature, signed with "secret".
    const example =
      'eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9.eyJpZCI6MjM4MTcwMywibXNpc2RuIjo0NTQyNjA5MDQ1LCJ0aW1lIjoxNTIyNzY0MDYyLCJzdGF0dXMiOiJERUxJVkVSRUQiLCJlcnJvciI6bnVsbCwiY29kZSI6bnVsbCwidXNlcnJlZiI6bnVsbCwiY2FsbGJhY2tfdXJsIjoiaHR0cDovL2JiYWY3MTQyLm5ncm9rLmlvIiwiYXBpIjo0fQ.KdfDH65bnQtgxEkFnpAQodOciAJedZFB13r9wEo8t3Y';
    expect(await readDeliveryReport(example, 'secret')).toEqual({
      providerId: '2381703',
      status: 'DELIVERED',
      reference: null,
      at: new Date(1_522_764_062_000),
      error: null,
      final: true,
      failed: false,
    });
    expect(await readDeliveryReport(example, 'another')).toBeNull();
    const [head, , signature] = example.split('.');
    const forged = Buffer.from(JSON.stringify({ id: 2381703, status: 'DELIVERED', userref: '1' })).toString('base64url');
    expect(await readDeliveryReport(`${head}.${forged}.${signature}`, 'secret')).toBeNull();
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${forged}.`;
    expect(await readDeliveryReport(none, 'secret')).toBeNull();
  });
});

describe('production without an SMS provider', () => {
  let production: TestServer;
  beforeAll(async () => {
    production = await startTestServer({ app: { environment: 'production', sms: undefined } });
  });
  afterAll(async () => {
    await production?.close();
  });

  it('sign-up, sendsms and a review code are refused at once with a clear reason; nothing is made or stored', async () => {
    const input = await profileInput(production);
    const signUp = await call(production, '/api/frontend/createprofile', { body: input });
    expect(signUp.status).toBe(503);
    expect(await fieldErrors(signUp)).toEqual({ Phone: 'smsUnavailable' });
    expect(await production.db.select().from(accounts).where(eq(accounts.email, String(input.Email).toLowerCase()))).toHaveLength(0);

    const texter = await createAdvertiser(production.db, { phoneVerified: false });
    const phone = uniquePhone();
    const sent = await call(production, '/api/frontend/sendsms', { body: { Phone: phone }, cookie: await advertiserSessionCookie(production.db, texter.accountId) });
    expect(sent.status).toBe(503);
    expect(await fieldErrors(sent)).toEqual({ Phone: 'smsUnavailable' });
    expect(await outboxFor(production, `+45${phone}`)).toHaveLength(0);
  });

  it('says at start which features cannot work', () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const key = Buffer.alloc(32, 7).toString('base64');
    warnAboutMissingProviders(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: key }), log);
    const said = lines.map((line) => String(line['msg'])).join('\n');
    expect(said).toMatch(/NO SMS PROVIDER.*sign-up.*reviews cannot work/);
    expect(said).toMatch(/SMS_PROVIDER=gatewayapi/);
    lines.length = 0;
    warnAboutMissingProviders(
      loadConfig({ NODE_ENV: 'production', SECRETS_KEY: key, SMS_PROVIDER: 'gatewayapi', GATEWAYAPI_TOKEN: 't', SMS_SENDER: 'Annoncer', GATEWAYAPI_WEBHOOK_SECRET: 'a-webhook-secret-long-enough', SMTP_URL: 'smtp://mail.example.test:587' }),
      log,
    );
    expect(lines).toEqual([]);
  });
});
