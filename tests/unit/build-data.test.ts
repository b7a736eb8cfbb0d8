/** The site build reads the frontend API and fails loudly when it does not answer. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

let server: http.Server;
let apiUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/api/frontend/websiteconfig') {
      res.end(
        JSON.stringify({
          siteName: 'Katalog',
          siteUrl: 'https://katalog.example',
          companyName: encodeURIComponent('Katalog & Co ApS'),
          companyAddress: encodeURIComponent('Vestergade 1, 2. sal'),
          companyZipCity: encodeURIComponent('1456 København K'),
          companyEmail: 'a@b.dk',
          companyVAT: 'DK1',
          supportEmail: 's@b.dk',
          supportPhone: '+45 1',
        }),
      );
    } else if (url.pathname === '/api/frontend/landingpagepage') {
      res.statusCode = 404;
      res.end(JSON.stringify({ title: 'Not Found', status: 404 }));
    } else {
      res.statusCode = 500;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('build data', () => {
  it('decodes the URL-encoded company fields and treats a missing landing page as null', async () => {
    vi.stubEnv('API_URL', apiUrl);
    vi.resetModules();
    const data = await import('#lib/api/build-data.ts');
    const config = await data.getWebsiteConfig();
    expect(config.companyName).toBe('Katalog & Co ApS');
    expect(config.companyAddress).toBe('Vestergade 1, 2. sal');
    expect(config.companyZipCity).toBe('1456 København K');
    await expect(data.findLandingPage('artikler', 'gone', 'da')).resolves.toBeNull();
    await expect(data.getAvailableCounts()).rejects.toThrow(/^Site build: GET .*frontpageavailablecounts failed/);
  });

  it('fails when the API does not answer', async () => {
    vi.stubEnv('API_URL', 'http://127.0.0.1:9');
    vi.resetModules();
    const data = await import('#lib/api/build-data.ts');
    await expect(data.getWebsiteConfig()).rejects.toThrow(/^Site build: GET http:\/\/127\.0\.0\.1:9\/api\/frontend\/websiteconfig/);
  });
});
