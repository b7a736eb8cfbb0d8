/**
 * How every Playwright configuration launches the system's Chromium (`/usr/bin/chromium`, or CHROMIUM_PATH):
 * playwright.config.ts (the browser tests) and playwright.cluster.config.ts (the two-instance journey).
 */
import type { LaunchOptions } from '@playwright/test';

export const CHROMIUM_LAUNCH_OPTIONS: LaunchOptions = {
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
