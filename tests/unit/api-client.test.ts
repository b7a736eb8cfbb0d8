/** The ky clients against a real local HTTP server: spec section 8 errors, 204, aborts, no POST retries. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '#lib/api/client.ts';
import { ApiError, HttpError, REQUEST_ABORTED } from '#lib/api/errors.ts';
import { createSupportApi } from '#lib/api/support.ts';

type Seen = { method: string; url: string; contentType: string | undefined; body: string };
let seen: Seen[] = [];
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'], body });
      const url = new URL(req.url ?? '/', 'http://x');
      const status = Number(url.searchParams.get('status') ?? 200);
      if (url.pathname.endsWith('/slow')) {
        setTimeout(() => res.end('{}'), 5000);
        return;
      }
      if (url.pathname.endsWith('/slow-body')) {
        // The answer's head at once, its body later: a cancel lands while the body is read.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"ok":');
        setTimeout(() => res.end('true}'), 5000);
        return;
      }
      if (url.pathname.endsWith('/text')) {
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end('plain failure');
        return;
      }
      if (status === 204) {
        res.writeHead(204);
        res.end();
        return;
      }
      if (status >= 400) {
        res.writeHead(status, { 'content-type': 'application/problem+json' });
        res.end(JSON.stringify({ type: 'about:blank', title: 'Problem', status, errors: [{ field: 'email', message: 'validation.email' }] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, path: url.pathname, query: Object.fromEntries(url.searchParams), body: body ? JSON.parse(body) : null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
});

describe('api client', () => {
  it('prefixes the area, sends JSON and query parameters, and parses JSON answers', async () => {
    const client = createApiClient('frontend', { baseUrl });
    const answer = await client.post<{ path: string; query: Record<string, string>; body: unknown }>('login', {
      json: { email: 'a@b.dk' },
      searchParams: { Kind: 'artikler', Skip: 0, Missing: undefined, Nothing: null },
    });
    expect(answer.path).toBe('/api/frontend/login');
    expect(answer.query).toEqual({ Kind: 'artikler', Skip: '0' });
    expect(answer.body).toEqual({ email: 'a@b.dk' });
    expect(seen[0]?.contentType).toContain('application/json');
  });

  it('returns undefined for 204', async () => {
    const client = createApiClient('backend', { baseUrl });
    await expect(client.post('logout', { searchParams: { status: 204 } })).resolves.toBeUndefined();
  });

  for (const status of [400, 401, 403, 404, 500, 502, 503]) {
    it(`raises an ApiError with url, status, statusText and the parsed body for ${status}`, async () => {
      const client = createApiClient('support', { baseUrl });
      const error = await client.post('thing', { searchParams: { status } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      const apiError = error as ApiError;
      expect(apiError.status).toBe(status);
      expect(apiError.statusText).toBe(http.STATUS_CODES[status]);
      expect(apiError.url).toBe(`${baseUrl}/api/support/thing?status=${status}`);
      expect(apiError.body).toMatchObject({ title: 'Problem', status });
      expect(apiError.fieldErrors).toEqual([{ field: 'email', message: 'validation.email' }]);
    });
  }

  it('keeps a body that is not JSON as text', async () => {
    const client = createApiClient('frontend', { baseUrl });
    const error = (await client.get('text', { searchParams: { status: 500 } }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.body).toBe('plain failure');
  });

  for (const status of [402, 409, 418, 422, 429]) {
    it(`raises a generic HttpError for ${status}`, async () => {
      const client = createApiClient('frontend', { baseUrl });
      const error = await client.post('thing', { searchParams: { status } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect(error).not.toBeInstanceOf(ApiError);
      expect((error as HttpError).status).toBe(status);
      expect((error as HttpError).statusText).toBe(http.STATUS_CODES[status]);
      expect((error as HttpError).body).toMatchObject({ status });
    });
  }

  it("raises 'Request aborted' when the request is cancelled", async () => {
    const client = createApiClient('frontend', { baseUrl });
    const controller = new AbortController();
    const pending = client.get('slow', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow(REQUEST_ABORTED);
  });

  it("raises 'Request aborted' when the request is cancelled while its body is read, never answering undefined", async () => {
    const client = createApiClient('frontend', { baseUrl });
    const controller = new AbortController();
    const pending = client.get('slow-body', { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow(REQUEST_ABORTED);
  });

  it('never retries a POST', async () => {
    const client = createApiClient('frontend', { baseUrl });
    await expect(client.post('thing', { searchParams: { status: 503 } })).rejects.toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(1);
  });

  it('retries a GET once on 503, and not on 500', async () => {
    const client = createApiClient('frontend', { baseUrl });
    await expect(client.get('thing', { searchParams: { status: 503 } })).rejects.toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(2);
    seen = [];
    await expect(client.get('thing', { searchParams: { status: 500 } })).rejects.toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(1);
  });

  it('area clients call the spec paths', async () => {
    const support = createSupportApi({ baseUrl });
    await support.login({ email: 'a@b.dk', password: 'x' });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/support/login' });
  });
});
