/**
 * Per-address limits behind a proxy (issue 15, item 3). The client's address is what the trusted proxies
 * say it is (TRUST_PROXY: a number of hops or the proxies' addresses), never what the client itself
 * writes into X-Forwarded-For: a proxy appends the address it saw, so an attacker controls only the
 * entries to the left of it. `TRUST_PROXY=true` (trust every entry) is refused by the configuration.
 *
 * Each call below carries a new made-up address on the left (`203.0.113.N`) and the address the proxy saw
 * on the right (`198.51.100.7`), as a load balancer in front of the server would forward it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';

let spoofed = 0;
/** X-Forwarded-For as a proxy forwards it: the client's own (made-up) value, then the address the proxy saw. */
function forwardedFor(seenByProxy = '198.51.100.7'): string {
  spoofed += 1;
  return `203.0.113.${spoofed % 250}, 10.${spoofed % 250}.0.1, ${seenByProxy}`;
}

function post(server: TestServer, path: string, body: unknown, xff: string): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': xff },
    body: JSON.stringify(body),
  });
}

/** How many of `max` calls (each with a new spoofed address) pass before the first 429. */
async function passedBeforeLimit(server: TestServer, path: string, body: () => unknown, max: number): Promise<number> {
  for (let n = 0; n < max; n += 1) {
    const response = await post(server, path, body(), forwardedFor());
    await response.arrayBuffer();
    if (response.status === 429) return n;
    expect(response.status, `${path} call ${n + 1}`).toBeLessThan(500);
  }
  return max;
}

const login = () => ({ email: `nobody-${Math.random().toString(36).slice(2)}@example.test`, password: 'not the password' });
const reset = () => ({ Email: `nobody-${Math.random().toString(36).slice(2)}@example.test` });
const reviewCode = () => ({ ProfileId: 999_999, Phone: '20000000' });

describe('TRUST_PROXY=1 (one load balancer in front)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ app: { trustProxy: loadConfig({ TRUST_PROXY: '1' }).trustProxy } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps the sign-in limit (10 a minute) however X-Forwarded-For is made up', async () => {
    expect(await passedBeforeLimit(server, '/api/frontend/login', login, 14)).toBe(10);
    // Another client behind the same proxy has its own count.
    const other = await post(server, '/api/frontend/login', login(), forwardedFor('198.51.100.8'));
    expect(other.status).toBe(401);
  });

  it('keeps the password reset limit (5 in 15 minutes)', async () => {
    expect(await passedBeforeLimit(server, '/api/frontend/resetpassword', reset, 8)).toBe(5);
  });

  it('keeps the review code limit (10 in 10 minutes)', async () => {
    expect(await passedBeforeLimit(server, '/api/frontend/reviewcode', reviewCode, 14)).toBe(10);
  });
});

describe('TRUST_PROXY as the proxies\' addresses', () => {
  it('takes the first address from the right that is not a trusted proxy', async () => {
    const server = await startTestServer({ app: { trustProxy: loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy } });
    try {
      expect(await passedBeforeLimit(server, '/api/frontend/resetpassword', reset, 8)).toBe(5);
    } finally {
      await server.close();
    }
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy (a client that reached the server directly)', async () => {
    const server = await startTestServer({ app: { trustProxy: loadConfig({ TRUST_PROXY: '192.0.2.10' }).trustProxy } });
    try {
      for (let n = 0; n < 5; n += 1) {
        const response = await post(server, '/api/frontend/resetpassword', reset(), `198.51.100.${n}`);
        expect(response.status).toBe(204);
      }
      expect((await post(server, '/api/frontend/resetpassword', reset(), '198.51.100.99')).status).toBe(429);
    } finally {
      await server.close();
    }
  });
});
