/**
 * Rate limits shared by several instances through Redis (issue 15, item 3): two instances on one database
 * and one Redis (as behind a load balancer), each test server with its own key prefix, count every
 * address's calls together, so calls alternated between them are refused after the limit. Without
 * Redis reachable each instance counts alone (a limit per instance, never none) and says so once in the log.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { freePort, testRedis, type TestRedis } from '#tests/support/redis-server.ts';

let redis: TestRedis;
let a: TestServer;
let b: TestServer;
const prefix = `test:${randomUUID()}:ratelimit:`;

beforeAll(async () => {
  redis = await testRedis();
  a = await startTestServer({ app: { redisUrl: redis.url, rateLimitKeyPrefix: prefix } });
  b = await startTestServer({ app: { redisUrl: redis.url, rateLimitKeyPrefix: prefix }, shareDatabaseOf: a });
});

afterAll(async () => {
  await b?.close();
  await a?.close();
  const client = new Redis(redis.url);
  const keys = await client.keys(`${prefix}*`);
  if (keys.length > 0) await client.del(...keys);
  client.disconnect();
  await redis?.stop();
});

const post = (server: TestServer, path: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const someone = () => `nobody-${Math.random().toString(36).slice(2)}@example.test`;

/** Statuses of `count` calls made alternately on A and B. */
async function alternate(count: number, path: string, body: () => unknown): Promise<number[]> {
  const statuses: number[] = [];
  for (let n = 0; n < count; n += 1) {
    const response = await post(n % 2 === 0 ? a : b, path, body());
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

describe('two instances sharing Redis', () => {
  it('refuse the 6th password reset from one address in 15 minutes, wherever each call lands', async () => {
    const statuses = await alternate(8, '/api/frontend/resetpassword', () => ({ Email: someone() }));
    expect(statuses).toEqual([204, 204, 204, 204, 204, 429, 429, 429]);
  });

  it('refuse the 11th sign-in in a minute, and keep the counters in Redis under the prefix', async () => {
    const statuses = await alternate(12, '/api/frontend/login', () => ({ email: someone(), password: 'not the password' }));
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys(`${prefix}*`);
      expect(keys).toContain(`${prefix}POST/api/frontend/login:127.0.0.1`);
      expect(await client.get(`${prefix}POST/api/frontend/login:127.0.0.1`)).toBe('12');
    } finally {
      client.disconnect();
    }
  });
});

describe('when Redis is unreachable', () => {
  it('counts on each instance alone (the limit still holds there) and logs the outage once', async () => {
    const deadPort = await freePort();
    const lonely = await startTestServer({
      app: { redisUrl: `redis://:not-logged-secret@127.0.0.1:${deadPort}`, rateLimitKeyPrefix: prefix },
      shareDatabaseOf: a,
      captureLogs: true,
    });
    try {
      const started = Date.now();
      const statuses: number[] = [];
      for (let n = 0; n < 7; n += 1) statuses.push((await post(lonely, '/api/frontend/resetpassword', { Email: someone() })).status);
      expect(statuses).toEqual([204, 204, 204, 204, 204, 429, 429]);
      expect(Date.now() - started).toBeLessThan(5_000);
      const messages = lonely.logs.map((record) => String(record['msg']));
      expect(messages.filter((msg) => msg.startsWith('rate limits: Redis is unreachable'))).toHaveLength(1);
      expect(JSON.stringify(lonely.logs)).not.toContain('not-logged-secret');
    } finally {
      await lonely.close();
    }
  });
});
