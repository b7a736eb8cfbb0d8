/**
 * Shared Playwright fixtures: `checkA11y(page)` runs axe-core and fails on serious or critical violations
 * (call it on every page a test visits); helpers for the age-gate cookie and unique values.
 */
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';

type Fixtures = {
  checkA11y: (page: Page) => Promise<void>;
};

export const test = base.extend<Fixtures>({
  // Playwright reads the fixture's dependencies from this pattern; this one needs none.
  // eslint-disable-next-line no-empty-pattern
  checkA11y: async ({}, use) => {
    await use(async (page: Page) => {
      const results = await new AxeBuilder({ page }).analyze();
      const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      const report = blocking
        .map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`)
        .join('\n');
      expect(blocking, `axe violations on ${page.url()}:\n${report}`).toEqual([]);
    });
  },
});

export { expect };

/** Marks the visitor as having passed the age gate (the cookie the gate sets). */
export async function passAgeGate(context: BrowserContext, baseURL: string | undefined): Promise<void> {
  await context.addCookies([{ name: 'age_consent', value: '1', url: baseURL ?? 'http://127.0.0.1:3100' }]);
}

/**
 * Waits until every island on the page has hydrated (Astro removes the `ssr` attribute then), so a click
 * on an island's control is handled by it.
 */
export async function islandsReady(page: Page): Promise<void> {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

/**
 * `test` for a visitor who has passed the age gate: the gate's cookie is set before the test's first visit
 * (a test that clears the cookies calls passAgeGate again).
 */
export const visitorTest = test.extend({
  page: async ({ page, context, baseURL }, use) => {
    await passAgeGate(context, baseURL);
    await use(page);
  },
});

/** A value no other test (or earlier run) uses. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export const supportAdmin = { email: 'admin@example.test', password: 'e2e-admin-password' };
