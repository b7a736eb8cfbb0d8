/**
 * The notification hub across instances (issue 5): two app instances share one database (as two servers
 * behind a load balancer do: the same sessions) and one Redis; a message sent on one instance reaches the
 * official client connected to the other, exactly once. Redis is REDIS_URL when set, else a private
 * redis-server for this file. Without Redis reachable, local delivery goes on and the failure is logged;
 * when Redis comes back, messages cross again (a private redis-server is stopped and started for that).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { freePort, startRedisServer, testRedis } from '#tests/support/redis-server.ts';
import { officialClient, signedInAdvertiser, type OfficialClient } from './hub-helpers.ts';

const payload = (id: number) => ({ video: { id, status: 'Ready' } });

const clients: OfficialClient[] = [];
function client(server: TestServer, cookie: string) {
  const made = officialClient(server, { cookie });
  clients.push(made);
  return made;
}

let redis: { url: string; stop: () => Promise<void> };
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  redis = await testRedis();
  a = await startTestServer({ app: { redisUrl: redis.url } });
  b = await startTestServer({ app: { redisUrl: redis.url }, shareDatabaseOf: a });
  await Promise.all([a.app.notificationHub.ready(), b.app.notificationHub.ready()]);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  await b?.close();
  await a?.close();
  await redis?.stop();
});

describe('two instances sharing Redis', () => {
  it('delivers a message sent on instance A to the client on instance B, once, and to the owner only', async () => {
    // Signed in through B's login call; the session is in the database both instances use.
    const owner = await signedInAdvertiser(a, b);
    const other = await signedInAdvertiser(a, b);
    const onB = client(b, owner.cookie);
    const onA = client(a, owner.cookie);
    const otherOnB = client(b, other.cookie);
    await Promise.all([onB.start(), onA.start(), otherOnB.start()]);
    expect(b.app.notificationHub.connectionCount(owner.accountId)).toBe(1);
    expect(a.app.notificationHub.connectionCount(owner.accountId)).toBe(1);

    await a.app.notificationHub.sendToAccount(owner.accountId, 'VideoUploaded', payload(1));
    await vi.waitFor(() => expect(onB.videoUploaded).toEqual([payload(1)]), { timeout: 10_000 });

    // A marker sent afterwards on B travels the same Redis channel behind any echo of the first
    // message: once it has arrived everywhere, a duplicate would have too.
    await b.app.notificationHub.sendToAccount(owner.accountId, 'VideoThumbnailUploaded', payload(2));
    await vi.waitFor(() => expect(onA.thumbnailUploaded).toEqual([payload(2)]), { timeout: 10_000 });
    await vi.waitFor(() => expect(onB.thumbnailUploaded).toEqual([payload(2)]), { timeout: 10_000 });
    expect(onA.videoUploaded).toEqual([payload(1)]);
    expect(onB.videoUploaded).toEqual([payload(1)]);
    expect(otherOnB.videoUploaded).toEqual([]);
    expect(otherOnB.thumbnailUploaded).toEqual([]);
  });
});

describe('when Redis is unreachable', () => {
  it('still delivers to the connections of the sending instance and logs the failure', async () => {
    const deadPort = await freePort();
    const lonely = await startTestServer({
      app: { redisUrl: `redis://:not-logged-secret@127.0.0.1:${deadPort}` },
      shareDatabaseOf: a,
      captureLogs: true,
    });
    try {
      const owner = await signedInAdvertiser(a, lonely);
      const hub = officialClient(lonely, { cookie: owner.cookie });
      await hub.start();
      const started = Date.now();
      await lonely.app.notificationHub.sendToAccount(owner.accountId, 'VideoUploaded', payload(3));
      expect(Date.now() - started).toBeLessThan(1_000);
      await vi.waitFor(() => expect(hub.videoUploaded).toEqual([payload(3)]), { timeout: 10_000 });
      await hub.stop();
      const messages = lonely.logs.map((record) => String(record['msg']));
      expect(messages).toContain('a hub message did not reach the other instances (Redis)');
      expect(messages.filter((msg) => msg.startsWith('Redis is unreachable')).length).toBeLessThanOrEqual(2);
      expect(JSON.stringify(lonely.logs)).not.toContain('not-logged-secret');
    } finally {
      await lonely.close();
    }
  });

  it('carries messages across again once its own Redis is back', async () => {
    const port = await freePort();
    let own = await startRedisServer(port);
    const first = await startTestServer({ app: { redisUrl: own.url }, shareDatabaseOf: a });
    const second = await startTestServer({ app: { redisUrl: own.url }, shareDatabaseOf: a });
    const owner = await signedInAdvertiser(a, second);
    const hub = officialClient(second, { cookie: owner.cookie });
    try {
      await Promise.all([first.app.notificationHub.ready(), second.app.notificationHub.ready()]);
      await hub.start();
      await own.stop();
      own = await startRedisServer(port);
      // ioredis reconnects both clients and subscribes again; messages cross once that is done.
      let sent = 0;
      await vi.waitFor(
        async () => {
          sent += 1;
          await first.app.notificationHub.sendToAccount(owner.accountId, 'VideoThumbnailUploaded', payload(100 + sent));
          expect(hub.thumbnailUploaded.length).toBeGreaterThan(0);
        },
        { timeout: 15_000, interval: 250 },
      );
    } finally {
      await hub.stop();
      await second.close();
      await first.close();
      await own.stop();
    }
  });
});
