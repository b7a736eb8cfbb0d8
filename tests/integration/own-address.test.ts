/**
 * Issue 30, "Opening the site at any address the server prints works": in development the notification hub
 * accepts the pages of whichever of this machine's addresses the visitor opened (localhost, 127.0.0.1), and
 * the providers' returns come back to that address (where the session cookie is). A host name that only
 * resolves here (DNS rebinding) or another site is still refused, and outside development SITE_URL stays
 * the only origin.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '#tests/support/test-server.ts';
import { isOwnHostname, ownAddressOf, siteUrlForVisitor } from '#server/api/own-address.ts';
import { advertiserWithSession, upgradeRequest } from './hub-helpers.ts';
import { buy, commerceAdvertiser, productIdOf, startCommerceServer } from './orders-helpers.ts';

let development: TestServer;
let test: TestServer;

beforeAll(async () => {
  development = await startCommerceServer({ app: { environment: 'development' } });
  test = await startCommerceServer();
});
afterAll(async () => {
  await development?.close();
  await test?.close();
});

const portOf = (server: TestServer) => new URL(server.url).port;

describe('the notification hub at any of the machine\'s addresses', () => {
  it('in development, opens for a page of the address it was opened at: 127.0.0.1 and localhost', async () => {
    const owner = await advertiserWithSession(development);
    const port = portOf(development);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const answer = await upgradeRequest(development, { Host: host, origin: `http://${host}`, cookie: owner.cookie });
      expect(answer.status, host).toBe(101);
    }
  });

  it('in development, still refuses another site, a page of another address, and a host name that merely points here', async () => {
    const owner = await advertiserWithSession(development);
    const port = portOf(development);
    const refused = [
      { Host: `127.0.0.1:${port}`, origin: 'https://evil.example' },
      { Host: `127.0.0.1:${port}`, origin: `http://localhost:${port}1` },
      { Host: `rebind.example:${port}`, origin: `http://rebind.example:${port}` },
      { Host: `8.8.8.8:${port}`, origin: `http://8.8.8.8:${port}` },
    ];
    for (const headers of refused) {
      expect((await upgradeRequest(development, { ...headers, cookie: owner.cookie })).status, JSON.stringify(headers)).toBe(403);
    }
  });

  it('outside development, only SITE_URL\'s pages open it', async () => {
    const owner = await advertiserWithSession(test);
    const host = `127.0.0.1:${portOf(test)}`;
    expect((await upgradeRequest(test, { Host: host, origin: `http://${host}`, cookie: owner.cookie })).status).toBe(403);
  });
});

describe("the providers' returns", () => {
  it('in development, a card payment returns to the address the advertiser used; otherwise to SITE_URL', async () => {
    const successOf = async (server: TestServer) => {
      const who = await commerceAdvertiser(server);
      const bought = await buy(server, who, await productIdOf(server, 'membership-30'));
      expect(bought.next.kind).toBe('redirect');
      const start = new URL(bought.next.kind === 'redirect' ? bought.next.url : '');
      return new URL(start.searchParams.get('successURL')!).origin;
    };
    // The test servers are reached at 127.0.0.1 (call() uses server.url); SITE_URL is http://localhost:3000.
    expect(await successOf(development)).toBe(`http://127.0.0.1:${portOf(development)}`);
    expect(await successOf(test)).toBe('http://localhost:3000');
  });

  it('in development behind a proxy (the cluster behind nginx: Host without the port the server listens on), returns go to SITE_URL', async () => {
    const who = await commerceAdvertiser(development);
    // As nginx forwards it (docs/deploy/nginx.conf: Host $host, no port); fetch would not send this Host.
    const body = JSON.stringify({ ProductId: await productIdOf(development, 'membership-30'), PaymentMethod: 'card' });
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(
        `${development.url}/api/backend/buyproduct`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), cookie: who.cookie, host: '127.0.0.1' } },
        (response) => {
          let received = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (received += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text: received }));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
    expect(status, text).toBe(200);
    const bought = JSON.parse(text) as { next: { kind: string; url: string } };
    expect(new URL(new URL(bought.next.url).searchParams.get('successURL')!).origin).toBe('http://localhost:3000');
  });

  it('names only this machine: localhost, loopback and its own interfaces', () => {
    expect(isOwnHostname('localhost')).toBe(true);
    expect(isOwnHostname('127.0.0.1')).toBe(true);
    expect(isOwnHostname('[::1]')).toBe(true);
    expect(isOwnHostname('8.8.8.8')).toBe(false);
    expect(isOwnHostname('localhost.evil.example')).toBe(false);
    const direct = { localPort: 4321 };
    expect(ownAddressOf({ headers: { host: '127.0.0.1:4321' }, socket: direct })).toBe('http://127.0.0.1:4321');
    expect(ownAddressOf({ headers: { host: 'user@127.0.0.1:4321' }, socket: direct })).toBeNull();
    expect(ownAddressOf({ headers: {}, socket: direct })).toBeNull();
    // Through a proxy (nginx's Host $host has no port; another proxy's port): not the address it came in on.
    expect(ownAddressOf({ headers: { host: '127.0.0.1' }, socket: direct })).toBeNull();
    expect(ownAddressOf({ headers: { host: '127.0.0.1:3600' }, socket: direct })).toBeNull();
    const deps = { siteUrl: 'https://example.dk' };
    expect(siteUrlForVisitor(deps, { headers: { host: '127.0.0.1:4321' }, socket: direct })).toBe('https://example.dk');
    expect(siteUrlForVisitor({ ...deps, followVisitorAddress: true }, { headers: { host: '127.0.0.1:4321' }, socket: direct })).toBe('http://127.0.0.1:4321');
    expect(siteUrlForVisitor({ ...deps, followVisitorAddress: true }, { headers: { host: 'evil.example' }, socket: direct })).toBe('https://example.dk');
    expect(siteUrlForVisitor({ ...deps, followVisitorAddress: true }, { headers: { host: '127.0.0.1' }, socket: direct })).toBe('https://example.dk');
  });
});
