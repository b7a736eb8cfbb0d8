/**
 * nginx in front, as operators run it (issue 19; docs/deploy, decision 034): Debian's nginx with the
 * deploy files serves the built site from the data folder, the build's Brotli and gzip copies as they
 * are, with the headers our server gives the same files, and passes the API, the rewrites, the answers
 * for paths without a file and the hub's WebSocket to the server. Needs nginx and its Brotli module
 * (apt-get install nginx libnginx-mod-http-brotli-static; CI installs them): without them it fails.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { writeSite } from '#tests/support/built-site.ts';
import { freePort } from '#tests/support/redis-server.ts';
import { DEPLOY_HEADERS, startNginx, type TestNginx } from '#tests/support/nginx.ts';
import { writePrecompressed } from '#server/jobs/precompress.ts';
import { createSession } from '#server/domain/accounts/sessions.ts';
import { sessionCookieName } from '#server/api/http.ts';
import { createAdvertiser } from '#tests/support/fixtures.ts';
import { RS, rawHubSocket } from './hub-helpers.ts';

const SITE_URL = 'https://annonce.example.dk';
let server: TestServer;
let nginx: TestNginx;
let build: string;

/** A page big enough to be compressed (more than 1 KiB), with a word to recognise it by. */
const page = (word: string) => `<!doctype html><html lang="da"><title>${word}</title><h1>${word}</h1>${'<p>Annoncer i hele Danmark.</p>'.repeat(80)}</html>`;

beforeAll(async () => {
  server = await startTestServer({ captureLogs: true, app: { siteUrl: SITE_URL, cookieSecure: true, trustProxy: ['127.0.0.1'] } });
  const siteDir = path.join(server.dataDir, 'site');
  await writeSite(siteDir, 'one', {
    'index.html': page('Forside'),
    'escort/index.html': page('Escort'),
    'backend/index.html': page('Backend-app'),
    '404.html': page('Ikke fundet'),
    'en/404.html': page('Not found'),
    '_astro/app.AbC123.js': `export const words = ${JSON.stringify('annonce '.repeat(400))};`,
    'robots.txt': 'User-agent: *\nDisallow: /backend/\n',
  });
  build = path.join(siteDir, 'builds', 'one');
  await writePrecompressed(build);
  nginx = await startNginx({ port: await freePort(), upstreams: [new URL(server.url).host], root: path.join(siteDir, 'current') });
});

afterAll(async () => {
  await nginx?.stop();
  await server?.close();
});

/** Headers that belong to one answer (its body, its caching, the connection), not to every answer. */
const OWN = new Set(['content-type', 'content-length', 'content-encoding', 'cache-control', 'etag', 'last-modified', 'vary', 'x-request-id', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'accept-ranges', 'server']);

/** Every header an answer carries for all answers, as sorted [name, value] pairs. */
function commonHeaders(response: Response): [string, string][] {
  return [...response.headers.entries()].filter(([name]) => !OWN.has(name)).sort(([a], [b]) => a.localeCompare(b));
}

async function get(base: string, url: string, headers: Record<string, string> = {}): Promise<{ response: Response; body: Buffer }> {
  const response = await fetch(`${base}${url}`, { headers, redirect: 'manual' });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

/**
 * The raw bytes nginx sends for a page (fetch would decompress them): status, headers and body over a
 * plain HTTP/1.1 request.
 */
async function rawGet(url: string, acceptEncoding: string): Promise<{ headers: Record<string, string>; body: Buffer }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const outgoing = request(`${nginx.url}${url}`, { headers: { 'accept-encoding': acceptEncoding } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ headers: incoming.headers as Record<string, string>, body: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('nginx in front (docs/deploy/nginx.conf)', () => {
  it('sends the Brotli copy the build wrote to a client that accepts Brotli, the gzip copy to one that accepts gzip', async () => {
    const original = await readFile(path.join(build, 'escort/index.html'));
    const brotli = await rawGet('/escort/', 'gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    // Byte for byte the file the build wrote: nginx compressed nothing itself.
    expect(brotli.body.length).toBe((await stat(path.join(build, 'escort/index.html.br'))).size);
    expect(brotliDecompressSync(brotli.body).equals(original)).toBe(true);
    expect(brotli.headers['vary']).toBe('Accept-Encoding');

    const gzip = await rawGet('/escort/', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body.equals(await readFile(path.join(build, 'escort/index.html.gz')))).toBe(true);
    expect(gunzipSync(gzip.body).equals(original)).toBe(true);

    const plain = await rawGet('/escort/', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(original)).toBe(true);
    // Served by nginx from the file, not by the server: nginx's access log has it as a 200 of the Brotli size.
    expect(await nginx.accessLog()).toContain(`"GET /escort/ HTTP/1.1" 200 ${brotli.body.length} `);
  });

  it('gives a page and an asset the same security headers, type and caching as the server does', async () => {
    for (const url of ['/', '/escort/', '/_astro/app.AbC123.js', '/robots.txt']) {
      const direct = await get(server.url, url, { 'accept-encoding': 'br' });
      const through = await get(nginx.url, url, { 'accept-encoding': 'br' });
      expect(through.response.status, url).toBe(200);
      expect(commonHeaders(through.response), url).toEqual(commonHeaders(direct.response));
      expect(through.response.headers.get('content-type'), url).toBe(direct.response.headers.get('content-type'));
      expect(through.response.headers.get('cache-control'), url).toBe(direct.response.headers.get('cache-control'));
      expect(through.body.equals(direct.body), url).toBe(true);
      expect(through.response.headers.get('etag'), url).toBeTruthy();
    }
    expect((await get(nginx.url, '/_astro/app.AbC123.js')).response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await get(nginx.url, '/')).response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
  });

  it('answers a repeated request with the ETag it gave with 304', async () => {
    const first = await get(nginx.url, '/escort/', { 'accept-encoding': 'br' });
    const again = await get(nginx.url, '/escort/', { 'accept-encoding': 'br', 'if-none-match': first.response.headers.get('etag')! });
    expect(again.response.status).toBe(304);
  });

  it('passes the API, the rewrites, the redirects and the not-found page on, answered as the server answers them', async () => {
    for (const url of ['/api/frontend/websiteconfig', '/backend/pictures/', '/backend/x/', '/escort', '/findes-ikke/', '/en/findes-ikke/', '/.build-info.json', '/index.html.br', '/healthz', '/readyz']) {
      const direct = await get(server.url, url);
      const through = await get(nginx.url, url);
      expect(through.response.status, url).toBe(direct.response.status);
      expect(through.response.headers.get('location'), url).toBe(direct.response.headers.get('location'));
      expect(through.response.headers.get('content-type'), url).toBe(direct.response.headers.get('content-type'));
      expect(commonHeaders(through.response), url).toEqual(commonHeaders(direct.response));
      if (!url.endsWith('z') && !url.startsWith('/api/')) expect(through.body.equals(direct.body), url).toBe(true);
    }
    expect((await get(nginx.url, '/backend/x/')).body.toString()).toContain('Backend-app');
    expect((await get(nginx.url, '/escort')).response.headers.get('location')).toBe('/escort/');
    expect((await get(nginx.url, '/en/findes-ikke/')).body.toString()).toContain('Not found');
    // A method other than GET or HEAD on a page nginx has a file for is the server's to answer, too.
    for (const method of ['POST', 'DELETE']) {
      const direct = await fetch(`${server.url}/escort/`, { method });
      const through = await fetch(`${nginx.url}/escort/`, { method });
      expect(through.status, method).toBe(direct.status);
      expect(await through.text(), method).toBe(await direct.text());
    }
  });

  it('passes the WebSocket of the notification hub on', async () => {
    const { accountId } = await createAdvertiser(server.db);
    const session = await createSession(server.db, { accountId }, { days: 1, now: new Date() });
    const hub = await rawHubSocket({ ...server, url: nginx.url }, { cookie: `${sessionCookieName('advertiser', true)}=${session.token}`, origin: SITE_URL });
    hub.sendText(`${JSON.stringify({ protocol: 'json', version: 1 })}${RS}`);
    // The handshake's answer is an empty record.
    await hub.waitForRecord((record) => Object.keys(record).length === 0);
    hub.socket.close();
    await hub.closed;
  });

  it("names the client to the server (X-Forwarded-For, trusted with TRUST_PROXY) and passes nginx's request id", async () => {
    const through = await get(nginx.url, '/api/frontend/websiteconfig', { 'x-forwarded-for': '203.0.113.9' });
    expect(through.response.status).toBe(200);
    const requestId = through.response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f]{32}$/);
    const line = server.logs.find((record) => record['reqId'] === requestId && (record['req'] as { ip?: string } | undefined)?.ip);
    expect((line?.['req'] as { ip?: string } | undefined)?.ip).toBe('203.0.113.9');
  });
});

describe('docs/deploy/nginx-headers.conf', () => {
  it('has every header the server gives a page, with the same value (connect-src naming SITE_URL)', async () => {
    const conf = await readFile(DEPLOY_HEADERS, 'utf8');
    const written = Object.fromEntries(
      [...conf.matchAll(/^add_header ([\w-]+) "([^"]*)" always;$/gm)].map(([, name, value]) => [name!.toLowerCase(), value!]),
    );
    const direct = await get(server.url, '/');
    expect(written).toEqual(Object.fromEntries(commonHeaders(direct.response)));
  });
});
