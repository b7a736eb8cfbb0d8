/**
 * The cluster's browser tests (issue 19): two instances of the server behind nginx (docs/deploy), on
 * PostgreSQL, Redis and S3-compatible storage (s3rver), started by tests/cluster/global-setup.ts
 * (tests/support/cluster.ts), and one serial journey through them with a `kill -9` of one instance in the
 * middle (tests/cluster/). Needs PostgreSQL at 127.0.0.1:5432 (user postgres, no password), nginx with its
 * Brotli module, and redis-server unless Redis answers (REDIS_URL or 127.0.0.1:6379).
 *
 * Ports: nginx on E2E_PORT (default 3600), the instances on the next two.
 * `npm run test:cluster`; .ci/run runs it after the PostgreSQL integration tests.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from './tests/support/chromium.ts';

const port = Number(process.env['E2E_PORT'] ?? 3600);

// Playwright loads this file in the runner and in every worker: make the run's folder once and pass it on.
process.env['CLUSTER_DIR'] ??= mkdtempSync(path.join(tmpdir(), 'annoncekatalog-cluster-'));
process.env['CLUSTER_STATE_FILE'] ??= path.join(process.env['CLUSTER_DIR'], 'state.json');
process.env['CLUSTER_NGINX_PORT'] ??= String(port);
process.env['CLUSTER_PORT_A'] ??= String(port + 1);
process.env['CLUSTER_PORT_B'] ??= String(port + 2);
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
