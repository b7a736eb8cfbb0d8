/**
 * What a browser test watches on a page for a clean console (issue 31, item 10): console errors and
 * warnings, uncaught errors, failed requests and answers of 400 and up (tests/e2e/console*.spec.ts); and
 * the walk that opens each screen and, when asked, runs axe on it at the desktop's and the phone's size.
 */
import type { Page } from '@playwright/test';
import { expect, islandsReady } from './fixtures.ts';

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

type Walk = {
  /** axe (the `checkA11y` fixture): run on each screen at the desktop's size and at the phone's. */
  axe?: (page: Page, options: { bothSizes: true }) => Promise<void>;
};

/**
 * Visits each path and waits until the page has settled (its islands hydrated, its calls answered); a
 * `{ firstLinkOn }` step opens the list and then its first row's link (a detail screen). Answers the paths
 * visited.
 */
export async function walk(page: Page, steps: readonly (string | { firstLinkOn: string })[], options: Walk = {}): Promise<string[]> {
  const visited: string[] = [];
  for (const step of steps) {
    const path = typeof step === 'string' ? step : await firstLinkOn(page, step.firstLinkOn);
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await islandsReady(page);
    if (options.axe) await options.axe(page, { bothSizes: true });
    visited.push(path);
  }
  return visited;
}

/** The first link of a list screen's rows to a screen under the list's path (not its "new" link). */
async function firstLinkOn(page: Page, list: string): Promise<string> {
  await page.goto(list);
  const row = new RegExp(`^${list.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!new/)[^/?#]+/$`);
  const links = page.locator(`main a[href^="${list}"]`);
  let found: string | undefined;
  await expect
    .poll(async () => {
      found = (await links.evaluateAll((all) => all.map((link) => link.getAttribute('href') ?? ''))).find((href) => row.test(href));
      return found;
    }, { message: `a row's link on ${list}` })
    .toBeTruthy();
  return found!;
}
