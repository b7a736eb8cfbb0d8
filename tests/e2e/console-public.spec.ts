/**
 * A visitor's console stays clean and axe finds nothing serious on every public page type (issue 31, item
 * 10 and the tests' axe), in both languages, at 1366 and at 390 px; the console in the project
 * public-through-nginx too, with nginx's own headers (docs/deploy/nginx-headers.conf).
 */
import { test, expect, passAgeGate } from './fixtures.ts';
import { walk, watch } from './console-watch.ts';
import { publicPages } from './screens.ts';

test('a visitor’s console stays clean and axe finds nothing serious on every public page type, in both languages and at both sizes', async ({
  page,
  context,
  baseURL,
  request,
  checkA11y,
}) => {
  test.setTimeout(300_000);
  await passAgeGate(context, baseURL);
  const pages = await publicPages(request);
  const seen = watch(page);
  // axe once per page (the chromium project): through nginx only the headers differ, which the console watches.
  const options = test.info().project.name === 'public-through-nginx' ? {} : { axe: checkA11y };
  await walk(page, pages, options);
  await walk(page, pages.map((path) => `/en${path}`), options);
  // A phone's first visit (the layout as loaded at its size, not resized to it).
  await page.setViewportSize({ width: 390, height: 844 });
  await walk(page, ['/', '/escort/', pages[6]!, '/login/']);
  expect(seen).toEqual([]);
});
