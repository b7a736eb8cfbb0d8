/**
 * Issue 15, item 12: every answer (API and the built site) carries a Permissions-Policy that turns off the
 * browser features the product does not use, and the CSP lets pages connect only to their own origin and
 * the notification hub's allowed origins (not to any ws:/wss: host). netlify.toml says the same.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { writeSite } from '#tests/support/built-site.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    app: { siteUrl: 'https://annonce.example.dk', hubAllowedOrigins: ['https://annonce.example.dk', 'http://127.0.0.1:4321'] },
  });
  await writeSite(path.join(server.dataDir, 'site'), 'one', { 'index.html': '<h1>Forside</h1>', '404.html': '<h1>Ikke fundet</h1>' });
});

afterAll(async () => {
  await server?.close();
});

/** The directives of a CSP header as { name: sources }. */
function directives(csp: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (csp ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** The features a policy turns off entirely, as { feature: allowlist }. */
function policy(header: string | null): Record<string, string> {
  return Object.fromEntries((header ?? '').split(',').map((part) => part.trim().split('=') as [string, string]));
}

describe('security headers', () => {
  for (const [what, url] of [
    ['an API answer', '/api/frontend/websiteconfig'],
    ['a page of the built site', '/'],
    ['the 404 page', '/findes-ikke/'],
  ] as const) {
    it(`${what} turns off camera, microphone, geolocation and payment, and connects only to its own hub origins`, async () => {
      const response = await fetch(`${server.url}${url}`);
      await response.arrayBuffer();
      const features = policy(response.headers.get('permissions-policy'));
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'display-capture']) expect(features[feature], feature).toBe('()');
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp['connect-src']).toEqual(["'self'", 'wss://annonce.example.dk', 'ws://127.0.0.1:4321']);
    });
  }

  it('netlify.toml sets the same policy and no connect-src open to any host', async () => {
    const toml = await readFile('netlify.toml', 'utf8');
    const csp = directives(/Content-Security-Policy = "([^"]+)"/.exec(toml)?.[1] ?? null);
    expect(csp['connect-src']).toEqual(["'self'"]);
    // The browser posts the carrier provider's start form to DIMOCO_URL (by default).
    const carrier = loadConfig({ PAYMENT_CARRIER: 'dimoco', DIMOCO_MERCHANT_ID: 'merchant', DIMOCO_ORDER: 'order', DIMOCO_PASSWORD: 'a-long-password' }).paymentCarrier;
    if (carrier.kind !== 'dimoco') throw new Error(`PAYMENT_CARRIER=dimoco gave ${carrier.kind}`);
    expect(csp['form-action']).toEqual(["'self'", new URL(carrier.url).origin]);
    const response = await fetch(`${server.url}/`);
    await response.arrayBuffer();
    expect(/Permissions-Policy = "([^"]+)"/.exec(toml)?.[1]).toBe(response.headers.get('permissions-policy'));
  });
});
