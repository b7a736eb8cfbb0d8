/**
 * What a browser test watches on a page for a clean console (issue 31, item 10): console errors and
 * warnings, uncaught errors, failed requests and answers of 400 and up (tests/e2e/console*.spec.ts).
 */
import type { Page } from '@playwright/test';
import { islandsReady } from './fixtures.ts';

/** Console errors and warnings, uncaught errors and failed or refused requests of a page, as lines. */
export function watch(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') seen.push(`${page.url()} console.${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => seen.push(`${page.url()} uncaught: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A navigation away cancels what the page still loaded: not a failure of the site.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') seen.push(`${page.url()} request failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) seen.push(`${page.url()} ${response.status()}: ${response.url()}`);
  });
  return seen;
}

/** Visits each path and waits until the page has settled (its islands hydrated, its calls answered). */
export async function walk(page: Page, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await islandsReady(page);
  }
}

