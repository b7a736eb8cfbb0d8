/**
 * The cluster's browser tests (issue 19): two instances of the server behind nginx (docs/deploy), on
 * PostgreSQL, Redis and S3-compatible storage (s3rver), started by tests/cluster/global-setup.ts
 * (tests/support/cluster.ts), and one serial journey through them with a `kill -9` of one instance in the
 * middle (tests/cluster/). Needs PostgreSQL at 127.0.0.1:5432 (user postgres, no password), nginx with its
 * Brotli module, and redis-server unless Redis answers (REDIS_URL or 127.0.0.1:6379).
 *
 * Ports: nginx on E2E_PORT, the instances on the next two; without E2E_PORT, three free ports chosen once
 * in the runner (CLUSTER_NGINX_PORT, CLUSTER_PORT_A and CLUSTER_PORT_B, passed on to the workers).
 * `npm run test:cluster`; .ci/run runs it after the PostgreSQL integration tests.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from './tests/support/chromium.ts';
import { freePorts } from './tests/support/free-ports.ts';

// Playwright loads this file in the runner and in every worker: make the run's folder and choose its ports
// once and pass them on.
process.env['CLUSTER_DIR'] ??= mkdtempSync(path.join(tmpdir(), 'annoncekatalog-cluster-'));
process.env['CLUSTER_STATE_FILE'] ??= path.join(process.env['CLUSTER_DIR'], 'state.json');
if (!process.env['CLUSTER_NGINX_PORT'] || !process.env['CLUSTER_PORT_A'] || !process.env['CLUSTER_PORT_B']) {
  const given = process.env['E2E_PORT'];
  const [nginx, a, b] = given ? [Number(given), Number(given) + 1, Number(given) + 2] : freePorts(3600, 3);
  process.env['CLUSTER_NGINX_PORT'] ??= String(nginx);
  process.env['CLUSTER_PORT_A'] ??= String(a);
  process.env['CLUSTER_PORT_B'] ??= String(b);
}
// The support admin's shared session (tests/e2e/fixtures.ts) is kept in the run's folder.
process.env['E2E_DATA_DIR'] ??= process.env['CLUSTER_DIR'];
process.env['E2E_SITE_BUILD_TOKEN'] ??= randomBytes(24).toString('base64url');

export default defineConfig({
  testDir: 'tests/cluster',
  globalSetup: './tests/cluster/global-setup.ts',
  workers: 1,
  retries: 0,
  reporter: 'list',
  timeout: 5 * 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${process.env['CLUSTER_NGINX_PORT']}`,
    locale: 'da-DK',
    trace: 'retain-on-failure',
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
  projects: [{ name: 'cluster', use: { ...devices['Desktop Chrome'] } }],
});
