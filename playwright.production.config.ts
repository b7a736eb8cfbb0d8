/**
 * The production journey (issue 30): the server started with NODE_ENV=production on PostgreSQL, no demo
 * seed, its live adapters reaching stand-ins of SMTP, GatewayAPI, Yoti and Verotel FlexPay
 * (tests/support/production-stack.ts, started by the spec itself so the stand-ins' mail and messages are in
 * the worker's hands), and one serial journey in Chromium (tests/production/). Needs PostgreSQL at
 * 127.0.0.1:5432 (user postgres, no password). `npm run test:production`; .ci/run runs it after the
 * PostgreSQL integration tests.
 *
 * The server's port: E2E_PORT, else a free one from 3700 chosen once in the runner (PRODUCTION_PORT, passed
 * on to the worker). PRODUCTION_KEEP_LOGS=1 keeps the server's log and data folder.
 */
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from './tests/support/chromium.ts';
import { freePorts } from './tests/support/free-ports.ts';

process.env['PRODUCTION_PORT'] ??= process.env['E2E_PORT'] ?? String(freePorts(3700, 1)[0]);

export default defineConfig({
  testDir: 'tests/production',
  workers: 1,
  retries: 0,
  reporter: 'list',
  timeout: 2 * 60_000,
  expect: { timeout: 15_000 },
  use: {
    locale: 'da-DK',
    trace: 'retain-on-failure',
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
  projects: [{ name: 'production', use: { ...devices['Desktop Chrome'] } }],
});
