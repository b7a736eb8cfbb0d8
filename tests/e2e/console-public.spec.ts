/**
 * A visitor's console stays clean and axe finds nothing serious on every public page type (issue 31, item
 * 10 and the tests' axe), in both languages (a test each), at 1366 and at 390 px; the console in the project
 * public-through-nginx too, with nginx's own headers (docs/deploy/nginx-headers.conf).
 */
import type { Page } from '@playwright/test';
import { test, expect, passAgeGate } from './fixtures.ts';
import { walk, watch } from './console-watch.ts';
import { publicPages } from './screens.ts';

for (const [language, locale] of [
  ['Danish', 'da'],
  ['English', 'en'],
] as const) {
  test(`a visitor’s console stays clean and axe finds nothing serious on every public page type in ${language}, at both sizes`, async ({
    page,
    context,
    baseURL,
    request,
    checkA11y,
  }) => {
    // 21 pages, each with axe twice: minutes on a busy machine.
    test.setTimeout(480_000);
    await passAgeGate(context, baseURL);
    const pages = await publicPages(request, locale);
    const seen = watch(page);
    // axe once per page (the chromium project): through nginx only the headers differ, which the console watches.
    const axe = test.info().project.name === 'public-through-nginx' ? undefined : (checked: Page, options: { bothSizes: true }) => checkA11y(checked, options);
    await walk(page, pages, axe ? { axe } : {});
    // A phone's first visit (the layout as loaded at its size, not resized to it).
    await page.setViewportSize({ width: 390, height: 844 });
    await walk(page, [pages[0]!, pages[1]!, pages[6]!, pages[14]!]);
    expect(seen).toEqual([]);
  });
}
