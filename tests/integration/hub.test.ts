/**
 * The notification hub on one instance (issue 5, docs/decisions/013): the official SignalR client,
 * configured as the browser's (src/lib/hub.ts), connects over real HTTP and WebSocket with a session from
 * the real login call; events reach the owner's connections only; refusals happen before the upgrade;
 * the protocol's handshake, pings, completions, framing and timeouts are checked with a raw WebSocket.
 * Two instances over Redis: hub-redis.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signIn, startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { sessionCookieName } from '#server/api/http.ts';
import { callApi, createAdvertiser } from '#tests/support/fixtures.ts';
import {
  RS,
  SITE_ORIGIN,
  advertiserWithSession,
  officialClient,
  rawHubSocket,
  signedInAdvertiser,
  silentUpgradedSocket,
  upgradeRequest,
  type OfficialClient,
} from './hub-helpers.ts';

const HANDSHAKE = `{"protocol":"json","version":1}${RS}`;
const payload = (id: number) => ({ video: { id, status: 'Ready' } });

let server: TestServer;
const clients: OfficialClient[] = [];

/** An official client that is stopped after the file's tests. */
function client(options: Parameters<typeof officialClient>[1]) {
  const made = officialClient(server, options);
  clients.push(made);
  return made;
}

beforeAll(async () => {
  // Pings every 200 ms so a test can see several; the client timeout stays the real 30 s because the
  // official client pings only every 15 s.
  server = await startTestServer({ app: { hubTimings: { keepAliveIntervalMs: 200, handshakeTimeoutMs: 2_000 } } });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  await server?.close();
});

describe('the official client', () => {
  it('receives the events sent to its account, and another account receives none of them', async () => {
    const owner = await signedInAdvertiser(server);
    const other = await signedInAdvertiser(server);
    const ownerHub = client({ cookie: owner.cookie });
    const otherHub = client({ cookie: other.cookie });
    await ownerHub.start();
    await otherHub.start();
    expect(ownerHub.state.get()).toBe('connected');
    expect(server.app.notificationHub.connectionCount(owner.accountId)).toBe(1);

    await server.app.notificationHub.sendToAccount(owner.accountId, 'VideoThumbnailUploaded', payload(1));
    await server.app.notificationHub.sendToAccount(owner.accountId, 'VideoUploaded', payload(1));
    await vi.waitFor(() => expect(ownerHub.videoUploaded).toEqual([payload(1)]), { timeout: 10_000 });
    expect(ownerHub.thumbnailUploaded).toEqual([payload(1)]);

    // The other account's connection is live (it gets its own event) but got nothing of the owner's.
    await server.app.notificationHub.sendToAccount(other.accountId, 'VideoUploaded', payload(2));
    await vi.waitFor(() => expect(otherHub.videoUploaded).toEqual([payload(2)]), { timeout: 10_000 });
    expect(otherHub.thumbnailUploaded).toEqual([]);
    expect(ownerHub.videoUploaded).toEqual([payload(1)]);
  });

  it('reaches every open connection of the account (two tabs)', async () => {
    const owner = await signedInAdvertiser(server);
    const tabs = [client({ cookie: owner.cookie }), client({ cookie: owner.cookie })];
    await Promise.all(tabs.map((tab) => tab.start()));
    await server.app.notificationHub.sendToAccount(owner.accountId, 'VideoUploaded', payload(3));
    for (const tab of tabs) await vi.waitFor(() => expect(tab.videoUploaded).toEqual([payload(3)]), { timeout: 10_000 });
  });

  it('is refused without a session, and its state goes back to disconnected', async () => {
    const anonymous = client({});
    await expect(anonymous.start()).rejects.toThrow();
    expect(anonymous.state.get()).toBe('disconnected');
  });

  it('gets an error completion when it invokes a method the hub does not have', async () => {
    const owner = await signedInAdvertiser(server);
    const hub = client({ cookie: owner.cookie });
    await hub.start();
    await expect(hub.connection.invoke('DeleteEverything', 1)).rejects.toThrow("Unknown hub method 'DeleteEverything'.");
    // A fire-and-forget send gets no answer and leaves the connection open.
    await hub.connection.send('DeleteEverything', 2);
    await server.app.notificationHub.sendToAccount(owner.accountId, 'VideoUploaded', payload(4));
    await vi.waitFor(() => expect(hub.videoUploaded).toEqual([payload(4)]), { timeout: 10_000 });
    expect(hub.connection.state).toBe('Connected');
  });

  it('reconnects by itself when the server drops the connection, and gets events again', async () => {
    const owner = await signedInAdvertiser(server);
    const hub = client({ cookie: owner.cookie });
    await hub.start();
    expect(server.app.notificationHub.disconnectAccount(owner.accountId, 'Your session changed.')).toBe(1);
    await vi.waitFor(() => expect(hub.states).toEqual(['connecting', 'connected', 'reconnecting', 'connected']), { timeout: 5_000 });
    await vi.waitFor(() => expect(server.app.notificationHub.connectionCount(owner.accountId)).toBe(1), { timeout: 10_000 });
    await server.app.notificationHub.sendToAccount(owner.accountId, 'VideoUploaded', payload(5));
    await vi.waitFor(() => expect(hub.videoUploaded).toEqual([payload(5)]), { timeout: 10_000 });

    // A connection cut without a Close message (a network drop) is reconnected too.
    for (const socket of server.app.websocketServer.clients as Set<{ terminate: () => void }>) socket.terminate();
    await vi.waitFor(() => expect(hub.states.slice(4)).toEqual(['reconnecting', 'connected']), { timeout: 5_000 });
    await vi.waitFor(() => expect(server.app.notificationHub.connectionCount(owner.accountId)).toBe(1), { timeout: 10_000 });
    await server.app.notificationHub.sendToAccount(owner.accountId, 'VideoUploaded', payload(6));
    await vi.waitFor(() => expect(hub.videoUploaded).toEqual([payload(5), payload(6)]), { timeout: 10_000 });
  });
});

describe('who may connect', () => {
  it('refuses an upgrade without a session cookie or with an unknown one (401)', async () => {
    const attempts: Record<string, string>[] = [{ origin: SITE_ORIGIN }, { origin: SITE_ORIGIN, cookie: `${sessionCookieName('advertiser', false)}=not-a-session` }, {}];
    for (const headers of attempts) {
      const answer = await upgradeRequest(server, headers);
      expect(answer.status).toBe(401);
      expect(answer.contentType).toContain('application/problem+json');
    }
  });

  it("refuses another site's Origin even with a valid session (403)", async () => {
    const owner = await signedInAdvertiser(server);
    for (const origin of ['https://evil.example', 'http://localhost:3001', 'null']) {
      const answer = await upgradeRequest(server, { origin, cookie: owner.cookie });
      expect(answer.status, origin).toBe(403);
    }
    const refused = client({ cookie: owner.cookie, origin: 'https://evil.example' });
    await expect(refused.start()).rejects.toThrow();
    expect(server.app.notificationHub.connectionCount(owner.accountId)).toBe(0);
  });

  it('upgrades a valid session from the site, and one without Origin (a non-browser client)', async () => {
    const owner = await signedInAdvertiser(server);
    expect((await upgradeRequest(server, { origin: SITE_ORIGIN, cookie: owner.cookie })).status).toBe(101);
    expect((await upgradeRequest(server, { cookie: owner.cookie })).status).toBe(101);
    const withoutOrigin = client({ cookie: owner.cookie, origin: null });
    await withoutOrigin.start();
    expect(withoutOrigin.state.get()).toBe('connected');
  });

  it('checks the session at the upgrade: after logout an open connection stays, a new one is refused', async () => {
    const owner = await signedInAdvertiser(server);
    const hub = client({ cookie: owner.cookie });
    await hub.start();
    const logout = await callApi(server.url, '/api/backend/logout', { method: 'POST', cookie: owner.cookie });
    expect(logout.status).toBe(204);
    expect((await upgradeRequest(server, { origin: SITE_ORIGIN, cookie: owner.cookie })).status).toBe(401);
    await server.app.notificationHub.sendToAccount(owner.accountId, 'VideoUploaded', payload(6));
    await vi.waitFor(() => expect(hub.videoUploaded).toEqual([payload(6)]), { timeout: 10_000 });
  });
});

describe('when every session of the account ends', () => {
  it('closes its open connections after a password change, and the old cookie cannot connect again', async () => {
    const created = await createAdvertiser(server.db);
    const cookie = await signIn(server, 'frontend', { email: created.email, password: created.password });
    const raw = await rawHubSocket(server, { cookie, origin: SITE_ORIGIN });
    raw.sendText(`${JSON.stringify({ protocol: 'json', version: 1 })}${RS}`);
    await raw.waitForRecord((record) => Object.keys(record).length === 0);

    const changed = await callApi(server.url, '/api/backend/updatepassword', {
      cookie,
      body: { Password: created.password, NewPassword: 'Et helt nyt kodeord 2026' },
    });
    expect(changed.status).toBeLessThan(300);
    const close = await raw.waitForRecord((record) => record['type'] === 7);
    expect(close).toMatchObject({ type: 7, allowReconnect: true });
    await raw.closed;
    expect((await upgradeRequest(server, { origin: SITE_ORIGIN, cookie })).status).toBe(401);
  });
});

describe('the protocol', () => {
  async function signedInSocket() {
    const owner = await advertiserWithSession(server);
    return { owner, raw: await rawHubSocket(server, { cookie: owner.cookie, origin: SITE_ORIGIN }) };
  }

  it('answers an unknown protocol or version with a handshake error, then closes', async () => {
    for (const [request, error] of [
      [{ protocol: 'messagepack', version: 1 }, "The protocol 'messagepack' is not supported."],
      [{ protocol: 'json', version: 2 }, "The server does not support version 2 of the 'json' protocol."],
    ] as const) {
      const { raw } = await signedInSocket();
      raw.sendText(`${JSON.stringify(request)}${RS}`);
      await raw.closed;
      expect(raw.records).toEqual([{ error }]);
    }
  });

  it('takes a handshake split over two frames, several records in one frame, and a record split with the next', async () => {
    const { raw } = await signedInSocket();
    raw.sendText(HANDSHAKE.slice(0, 12));
    raw.sendText(HANDSHAKE.slice(12));
    await raw.waitForRecord((record) => Object.keys(record).length === 0);
    const first = `{"type":1,"invocationId":"1","target":"One","arguments":[]}${RS}`;
    const second = `{"type":1,"invocationId":"2","target":"Two","arguments":[]}${RS}`;
    raw.sendText(`{"type":6}${RS}${first}${second.slice(0, 20)}`);
    raw.sendText(second.slice(20));
    const one = await raw.waitForRecord((record) => record['invocationId'] === '1');
    const two = await raw.waitForRecord((record) => record['invocationId'] === '2');
    expect(one).toEqual({ type: 3, invocationId: '1', error: "Unknown hub method 'One'." });
    expect(two).toEqual({ type: 3, invocationId: '2', error: "Unknown hub method 'Two'." });
    expect(raw.records[0]).toEqual({});
  });

  it('sends a ping every keep-alive interval', async () => {
    const { raw } = await signedInSocket();
    raw.sendText(HANDSHAKE);
    await vi.waitFor(() => expect(raw.records.filter((record) => record['type'] === 6).length).toBeGreaterThanOrEqual(3), {
      timeout: 3_000,
    });
  });

  it('closes with an error on a message that is not a hub message', async () => {
    const { raw } = await signedInSocket();
    raw.sendText(HANDSHAKE);
    raw.sendText(`not json${RS}`);
    const close = await raw.waitForRecord((record) => record['type'] === 7);
    expect(close).toEqual({ type: 7, error: 'Connection closed with an error: the message is not valid.', allowReconnect: false });
    await raw.closed;
  });

  it('closes a connection whose handshake never comes', async () => {
    const { raw } = await signedInSocket();
    await raw.closed;
    expect(raw.records).toEqual([{ error: 'The handshake was not received in time.' }]);
  });

  it('cuts off a socket that never sends its handshake nor answers the close, within seconds', async () => {
    const owner = await advertiserWithSession(server);
    const silent = await silentUpgradedSocket(server, { cookie: owner.cookie, origin: SITE_ORIGIN });
    const started = Date.now();
    let goneAfter: number | null = null;
    void silent.gone.then(() => (goneAfter = Date.now() - started));
    try {
      // The handshake timeout (2 s here), then the close's grace (2 s), not the 30 s a WebSocket close may wait.
      await vi.waitFor(() => expect(goneAfter).not.toBeNull(), { timeout: 8_000, interval: 100 });
      expect(goneAfter).toBeLessThan(6_000);
    } finally {
      silent.destroy();
    }
  });

  it('closes a connection that sends more invocations than its limit, with an error', async () => {
    const { raw } = await signedInSocket();
    raw.sendText(HANDSHAKE);
    await raw.waitForRecord((record) => Object.keys(record).length === 0);
    // The browser invokes nothing; a script flooding the hub gets 10 answers in 10 s, then a Close.
    for (let n = 1; n <= 15; n += 1) raw.sendText(`{"type":1,"invocationId":"${n}","target":"Flood","arguments":[]}${RS}`);
    const close = await raw.waitForRecord((record) => record['type'] === 7);
    expect(close).toEqual({ type: 7, error: 'Connection closed with an error: too many invocations (at most 10 in 10 s).', allowReconnect: false });
    await raw.closed;
    expect(raw.records.filter((record) => record['type'] === 3)).toHaveLength(10);
  });
});

describe('timeouts and shutdown', () => {
  let quick: TestServer;
  let quickClosed = false;
  beforeAll(async () => {
    quick = await startTestServer({ app: { hubTimings: { keepAliveIntervalMs: 100, clientTimeoutMs: 1_500 } } });
  });
  afterAll(async () => {
    if (!quickClosed) await quick?.close();
  });

  it('is closed after the client timeout, with a Close message; a pinging one stays', async () => {
    const owner = await signedInAdvertiser(quick);
    const silent = await rawHubSocket(quick, { cookie: owner.cookie });
    const pinging = await rawHubSocket(quick, { cookie: owner.cookie });
    silent.sendText(HANDSHAKE);
    pinging.sendText(HANDSHAKE);
    const pings = setInterval(() => pinging.sendText(`{"type":6}${RS}`), 200);
    try {
      const started = Date.now();
      const close = await silent.waitForRecord((record) => record['type'] === 7, 6_000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
      expect(close).toEqual({
        type: 7,
        error: 'Server timeout elapsed without receiving a message from the client.',
        allowReconnect: true,
      });
      await silent.closed;
      await vi.waitFor(() => expect(quick.app.notificationHub.connectionCount(owner.accountId)).toBe(1), { timeout: 10_000 });
      expect(pinging.socket.readyState).toBe(WebSocket.OPEN);
      expect(pinging.records.some((record) => record['type'] === 7)).toBe(false);
    } finally {
      clearInterval(pings);
      pinging.socket.close();
    }
  });

  it('counts sockets still in their handshake toward the account\'s connection limit (20)', async () => {
    const owner = await advertiserWithSession(quick);
    const headers = { cookie: owner.cookie, origin: SITE_ORIGIN };
    const waiting = await Promise.all(Array.from({ length: 20 }, () => silentUpgradedSocket(quick, headers)));
    try {
      expect((await upgradeRequest(quick, headers)).status).toBe(429);
    } finally {
      for (const socket of waiting) socket.destroy();
    }
    await vi.waitFor(async () => expect((await upgradeRequest(quick, headers)).status).toBe(101), { timeout: 10_000 });
  });

  it('tells its clients to reconnect (elsewhere, or once it is back) when the server stops', async () => {
    const owner = await advertiserWithSession(quick);
    const raw = await rawHubSocket(quick, { cookie: owner.cookie });
    raw.sendText(HANDSHAKE);
    await raw.waitForRecord((record) => Object.keys(record).length === 0);
    quickClosed = true;
    const stopping = quick.close();
    const close = await raw.waitForRecord((record) => record['type'] === 7);
    expect(close).toEqual({ type: 7, error: 'Server is shutting down.', allowReconnect: true });
    await raw.closed;
    await stopping;
  });
});
