/**
 * A visitor's console stays clean on the public pages (issue 31, item 10), in both languages and on a
 * phone; in the project public-through-nginx too, with nginx's own headers (docs/deploy/nginx-headers.conf).
 */
import { test, expect, passAgeGate } from './fixtures.ts';
import { walk, watch } from './console-watch.ts';

test('a visitor’s console stays clean on the public pages, in both languages and on a phone', async ({ page, context, baseURL, request }) => {
  test.setTimeout(150_000);
  await passAgeGate(context, baseURL);
  const answer = await request.get('/api/frontend/searchpageprofiles', { params: { Locale: 'da', PageSize: '1', Url: '/escort/' } });
  const [advert] = ((await answer.json()) as { items: { url: string }[] }).items;
  const seen = watch(page);
  const pages = ['/', '/escort/', '/thaimassage/', advert!.url, '/search/', '/search/anna/', '/login/', '/create/', '/cookies/', '/privacy-policy/', '/artikler/'];
  await walk(page, pages);
  await walk(page, pages.map((path) => `/en${path}`));
  await page.setViewportSize({ width: 390, height: 844 });
  await walk(page, ['/', '/escort/', advert!.url, '/login/']);
  expect(seen).toEqual([]);
});

