/**
 * Cross-site request forgery (issue 15, item 8): a page on another port of the same host (the same *site*
 * for cookies, so SameSite=Lax sends the advertiser's session along) posts to "close my advert" as soon as
 * it opens: a text/plain form with the input in the action's query (the form that closed an advert before),
 * a text/plain form with a JSON-looking body, an urlencoded form, and a no-cors fetch with credentials. The
 * server refuses every one (403) and the advert stays public. Uses demo advert 30 (reserved for this file;
 * another public demo advert if 30 is not).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Request } from '@playwright/test';
import { test, expect } from './fixtures.ts';

const CANDIDATES = [30, 29, 28, 27, 26];

async function publicDemoAdvert(request: APIRequestContext): Promise<number> {
  for (const n of CANDIDATES) {
    const response = await request.get('/api/frontend/fullprofile', { params: { Id: String(n), Locale: 'da' } });
    if (response.ok()) return n;
  }
  throw new Error('No public demo advert among the candidates');
}

/** The attacker's page: forms and a fetch that fire on load, each into its own frame. */
function attackPage(api: string): string {
  const target = `${api}/api/backend/changeprofilestatus`;
  return `<!doctype html><html><head><title>Vind en præmie</title></head><body>
<iframe name="f1"></iframe><iframe name="f2"></iframe><iframe name="f3"></iframe>
<form id="query" method="POST" enctype="text/plain" action="${target}?Status=5" target="f1"></form>
<form id="plain" method="POST" enctype="text/plain" action="${target}" target="f2"><input name='{"Status":5,"x":"' value='"}'></form>
<form id="urlencoded" method="POST" action="${target}?Status=5" target="f3"><input name="Status" value="5"></form>
<script>
  for (const id of ['query', 'plain', 'urlencoded']) document.getElementById(id).submit();
  fetch('${target}?Status=5', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{"Status":5}' })
    .finally(() => { document.title = 'sent'; });
</script></body></html>`;
}

test('a page on another port of the same host cannot close a signed-in advertiser\'s advert', async ({ page, baseURL }) => {
  const n = await publicDemoAdvert(page.request);
  const signedIn = await page.request.post('/api/frontend/login', { data: { email: `demo-${n}@example.invalid`, password: 'demo-password' } });
  expect(signedIn.ok(), await signedIn.text()).toBe(true);

  const api = new URL(baseURL!).origin;
  const attacker = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(attackPage(api));
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = attacker.address() as AddressInfo;
    const attempts: Request[] = [];
    page.context().on('request', (request) => {
      if (request.url().startsWith(`${api}/api/backend/changeprofilestatus`) && request.method() === 'POST') attempts.push(request);
    });
    await page.goto(`http://127.0.0.1:${port}/`);
    await expect(page).toHaveTitle('sent');
    await expect.poll(() => attempts.length).toBe(4);
    // Every answer the browser got is 403 (a refused answer in a frame may go unreported: 0).
    const statuses = await Promise.all(attempts.map(async (request) => (await request.response())?.status() ?? 0));
    expect(statuses.filter((status) => status !== 0 && status !== 403)).toEqual([]);
    expect(statuses.filter((status) => status === 403).length).toBeGreaterThanOrEqual(2);
  } finally {
    await new Promise((resolve) => attacker.close(resolve));
  }

  // Still public, and the advertiser's own dashboard does not say closed.
  expect((await page.request.get('/api/frontend/fullprofile', { params: { Id: String(n), Locale: 'da' } })).status()).toBe(200);
  const dashboard = (await (await page.request.get('/api/backend/dashboard')).json()) as { status: { word: string } };
  expect(dashboard.status.word).not.toBe('Deactivated');
});
