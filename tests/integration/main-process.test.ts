import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from '#tests/support/redis-server.ts';

/** `npm start` as an operator runs it: the real entry point in its own process. */
function start(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', SEED_DEMO: 'false', SITE_BUILD_ON_START: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  running.add(child);
  void exited.then(() => running.delete(child));
  return { child, output: () => output, exited };
}

/** Every process a test started and that still runs: killed after each test, passed or failed, so none keeps a port or a data folder. */
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * Waits until the process has printed `text`. The server answers /healthz before its last start-up work is
 * done and prints its address after it, so on a slow machine the line comes a little later (seen in CI).
 */
async function waitForOutput(output: () => string, text: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && !output().includes(text)) await new Promise((resolve) => setTimeout(resolve, 100));
}

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'annonce-main-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/**
 * How long a real start may take: migrations, the reference seed and the jobs, in a process of its own. On
 * the two-core machine with the rest of the suite beside it that reached 50 s, so the waits and the tests
 * get room; what is tested is what the process does, not how fast (npm run bench measures speed).
 */
const START_MS = 150_000;
const TEST_MS = 2 * START_MS;

describe('the main job', () => {
  it('stops with a clear message naming each bad setting', async () => {
    const run = start({ PORT: 'eighty', SITE_REBUILD_MINUTES: '0' });
    expect(await run.exited).toBe(78);
    expect(run.output()).toContain('PORT="eighty": must be a whole number');
    expect(run.output()).toContain('SITE_REBUILD_MINUTES="0": must be at least 1');
  }, TEST_MS);

  it('refuses to start in production with a built-in test provider, and starts with the explicit consent, warning loudly', async () => {
    const refused = start({ NODE_ENV: 'production', AGE_PROVIDER: 'test', DATA_DIR: await dataDir(), PORT: String(await freePort()) });
    expect(await refused.exited).toBe(78);
    expect(refused.output()).toContain('AGE_PROVIDER=test (age verification): a built-in TEST provider cannot run with NODE_ENV=production');
    expect(refused.output()).toContain('ALLOW_TEST_PROVIDERS=i-understand-this-is-not-production');

    const port = await freePort();
    const allowed = start({
      NODE_ENV: 'production',
      AGE_PROVIDER: 'test',
      ALLOW_TEST_PROVIDERS: 'i-understand-this-is-not-production',
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      DATA_DIR: await dataDir(),
      PORT: String(port),
    });
    await waitFor(`http://127.0.0.1:${port}/healthz`, START_MS);
    await waitForOutput(allowed.output, 'TEST PROVIDERS IN PRODUCTION', START_MS);
    expect(allowed.output()).toContain('TEST PROVIDERS IN PRODUCTION (ALLOW_TEST_PROVIDERS is set): AGE_PROVIDER=test (age verification)');
    allowed.child.kill('SIGTERM');
    expect(await allowed.exited).toBe(0);
  }, TEST_MS);

  it('prints the address and the support sign-in on the first start, refuses a second process on the same data, and stops cleanly on SIGTERM', async () => {
    const dir = await dataDir();
    const port = await freePort();
    const first = start({ DATA_DIR: dir, PORT: String(port), SUPPORT_ADMIN_EMAIL: 'owner@example.test' });
    await waitFor(`http://127.0.0.1:${port}/healthz`, START_MS);
    await waitForOutput(first.output, 'Generated password', START_MS);
    expect(first.output()).toContain(`runs at http://localhost:${port}/`);
    expect(first.output()).toContain('Support sign-in: owner@example.test');
    expect(first.output()).toMatch(/Generated password \(shown once, change it after signing in\): \S{12,}/);
    expect(existsSync(path.join(dir, 'db.lock'))).toBe(true);

    const second = start({ DATA_DIR: dir, PORT: String(await freePort()) });
    expect(await second.exited).toBe(75);
    expect(second.output()).toMatch(/already open in process \d+/);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(path.join(dir, 'db.lock'))).toBe(false);

    // The second start keeps the data and does not print a password again.
    const againPort = await freePort();
    const again = start({ DATA_DIR: dir, PORT: String(againPort) });
    await waitFor(`http://127.0.0.1:${againPort}/healthz`, START_MS);
    await waitForOutput(again.output, 'runs at', START_MS);
    expect(again.output()).not.toContain('Generated password');
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, TEST_MS);
});
