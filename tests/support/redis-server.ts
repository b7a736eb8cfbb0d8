/**
 * Redis for integration tests (and the cluster's browser tests, tests/support/cluster.ts): REDIS_URL when set, else a private redis-server of the test file's own
 * (tests that stop and start Redis always use a private one). Tests sharing a Redis use their own key
 * prefixes and channels, so parallel files never collide.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';
import { waitForPort } from './nginx.ts';

export type TestRedis = { url: string; stop: () => Promise<void> };

/** A TCP port nobody listens on (for a private Redis, or for an unreachable one). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A redis-server of our own on a port, without persistence; resolves once it accepts connections. */
export async function startRedisServer(port: number): Promise<TestRedis> {
  const child: ChildProcess = spawn(
    '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await waitForPort(port, 10_000, () => child.exitCode === null, 'redis-server');
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** REDIS_URL when set (stopping it does nothing), else a private redis-server. */
export async function testRedis(): Promise<TestRedis> {
  const fromEnv = process.env['REDIS_URL'];
  return fromEnv ? { url: fromEnv, stop: async () => {} } : startRedisServer(await freePort());
}
