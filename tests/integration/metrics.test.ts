import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { enqueueJob, startWorker } from '#server/jobs/queue.ts';
import { buildSite } from '#server/jobs/site-build.ts';
import { loadConfig } from '#server/config.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { writeSite } from '#tests/support/built-site.ts';
import { RS, SITE_ORIGIN, advertiserWithSession, rawHubSocket } from './hub-helpers.ts';

const TOKEN = randomBytes(24).toString('base64url');
const onPostgres = Boolean(process.env['DATABASE_URL']);

/** One sample of the exposition text: its name, labels and value. */
type Sample = { name: string; labels: Record<string, string>; value: number };

function samplesOf(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[name!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample with this name and (at least) these labels; undefined when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

describe('metrics off (no METRICS_TOKEN)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('has no /metrics: 404, with or without a token', async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });
});

describe('metrics on (METRICS_TOKEN)', () => {
  let server: TestServer;
  const scrape = async () => {
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    const text = await response.text();
    return { response, text, samples: samplesOf(text) };
  };

  beforeAll(async () => {
    server = await startTestServer({ captureLogs: true, app: { metricsToken: TOKEN } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a missing or wrong token with 401, and never logs the token', async () => {
    const none = await fetch(`${server.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(await none.text()).not.toContain('annonce_');
    // The last character swapped for another: never the token itself, whatever the random token ends in.
    const wrongToken = `${TOKEN.slice(0, -1)}${TOKEN.endsWith('x') ? 'y' : 'x'}`;
    expect(wrongToken).not.toBe(TOKEN);
    const wrong = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${wrongToken}` } });
    expect(wrong.status).toBe(401);
    const basic = await fetch(`${server.url}/metrics`, { headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` } });
    expect(basic.status).toBe(401);
    const { response } = await scrape();
    expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(JSON.stringify(server.logs)).not.toContain(TOKEN);
  });

  it('counts API calls and the built site under their route patterns, never under the URL asked for', async () => {
    const finishedAt = new Date(Date.now() - 60_000).toISOString();
    await writeSite(path.join(server.dataDir, 'site'), 'one', {
      'index.html': '<h1>Forside</h1>',
      'cookies/index.html': '<h1>Cookies</h1>',
      'search/index.html': '<div id="search"></div>',
      '404.html': '<h1>Siden findes ikke</h1>',
      '.build-info.json': JSON.stringify({ id: 'one', finishedAt, pages: 4, durationMs: 1 }),
    });
    const before = (await scrape()).samples;
    const count = (samples: Sample[], route: string, status: string) => valueOf(samples, 'annonce_http_requests_total', { method: 'GET', route, status }) ?? 0;

    // An id, a visitor's words and an unknown path: none may become a label.
    expect((await fetch(`${server.url}/api/frontend/fullprofile?Id=987654321&Locale=da`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/frontend/websiteconfig`)).status).toBe(200);
    expect((await fetch(`${server.url}/search/hemmelig-soegning-4711/`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/frontend/no-such-call-55501`)).status).toBe(404);
    expect((await fetch(`${server.url}/no-such-page-55502/`)).status).toBe(404);
    // The same page three times: the first through Fastify, then from the fast path (static-site.ts).
    for (let i = 0; i < 3; i += 1) expect((await fetch(`${server.url}/cookies/`)).status).toBe(200);
    expect(server.logs.some((record) => record['fastPath'] === true)).toBe(true);

    const { text, samples } = await scrape();
    expect(count(samples, '/api/frontend/fullprofile', '404') - count(before, '/api/frontend/fullprofile', '404')).toBe(1);
    expect(count(samples, '/api/frontend/websiteconfig', '200') - count(before, '/api/frontend/websiteconfig', '200')).toBe(1);
    expect(count(samples, 'static', '200') - count(before, 'static', '200')).toBe(4);
    expect(count(samples, 'not_found', '404') - count(before, 'not_found', '404')).toBe(2);
    expect(valueOf(samples, 'annonce_http_request_duration_seconds_count', { method: 'GET', route: 'static' })).toBeGreaterThanOrEqual(4);
    for (const secret of ['987654321', 'hemmelig', '4711', '55501', '55502', 'cookies', 'Locale=']) expect(text).not.toContain(secret);
    const routes = new Set(samples.filter((sample) => sample.name === 'annonce_http_requests_total').map((sample) => sample.labels['route']!));
    for (const route of routes) expect(route === 'static' || route === 'not_found' || route.startsWith('/')).toBe(true);

    // The served build: when it finished and its pages.
    expect(valueOf(samples, 'annonce_site_build_last_success_timestamp_seconds')).toBe(Date.parse(finishedAt) / 1000);
    expect(valueOf(samples, 'annonce_site_served_pages')).toBe(4);
    // Node's own figures, under the same prefix.
    expect(valueOf(samples, 'annonce_process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('shows the job queue as it is in the table, and counts the failures of the workers', async () => {
    await enqueueJob(server.db, 'metrics.waiting', { note: 'ready' });
    await enqueueJob(server.db, 'metrics.waiting', {}, { runAt: new Date(Date.now() + 3_600_000) });
    let samples = (await scrape()).samples;
    expect(valueOf(samples, 'annonce_job_queue_jobs', { queue: 'metrics.waiting', state: 'ready' })).toBe(1);
    expect(valueOf(samples, 'annonce_job_queue_jobs', { queue: 'metrics.waiting', state: 'scheduled' })).toBe(1);
    expect(valueOf(samples, 'annonce_job_queue_jobs', { queue: 'metrics.waiting', state: 'running' })).toBe(0);
    expect(valueOf(samples, 'annonce_job_queue_oldest_ready_seconds', { queue: 'metrics.waiting' })).toBeGreaterThanOrEqual(0);

    // A worker reporting to this app's metrics, whose handler fails.
    await enqueueJob(server.db, 'metrics.failing', {}, { maxAttempts: 1 });
    const worker = startWorker({
      db: server.db,
      log: pino({ level: 'silent' }),
      handlers: { 'metrics.failing': async () => Promise.reject(new Error('the job failed on purpose')) },
      metrics: server.app.metrics.jobs,
      pollMs: 50,
    });
    try {
      await vi.waitFor(async () => expect(valueOf((await scrape()).samples, 'annonce_job_failures_total', { queue: 'metrics.failing' })).toBe(1), { timeout: 10_000 });
    } finally {
      await worker.stop();
    }
    samples = (await scrape()).samples;
    expect(valueOf(samples, 'annonce_job_duration_seconds_count', { queue: 'metrics.failing', outcome: 'failed' })).toBe(1);
    // Nothing of it is left waiting: the queue is still reported, at 0.
    expect(valueOf(samples, 'annonce_job_queue_jobs', { queue: 'metrics.failing', state: 'ready' })).toBe(0);
  });

  it('counts a failed site build by its kind', async () => {
    const siteDir = path.join(server.dataDir, 'other-site');
    // A time limit Astro cannot meet: the build fails, as one that breaks does.
    await expect(
      buildSite({ siteDir, apiUrl: server.url, siteUrl: 'http://localhost:3000', log: pino({ level: 'silent' }), timeoutMs: 1, metrics: server.app.metrics.siteBuilds }),
    ).rejects.toThrow();
    const samples = (await scrape()).samples;
    expect(valueOf(samples, 'annonce_site_build_failures_total', { kind: 'full' })).toBe(1);
  });

  it('shows the hub connections of this instance', async () => {
    expect(valueOf((await scrape()).samples, 'annonce_hub_connections')).toBe(0);
    const owner = await advertiserWithSession(server);
    const raw = await rawHubSocket(server, { cookie: owner.cookie, origin: SITE_ORIGIN });
    raw.sendText(`${JSON.stringify({ protocol: 'json', version: 1 })}${RS}`);
    await raw.waitForRecord((record) => Object.keys(record).length === 0);
    expect(valueOf((await scrape()).samples, 'annonce_hub_connections')).toBe(1);
    raw.socket.close();
    await raw.closed;
    await vi.waitFor(async () => expect(valueOf((await scrape()).samples, 'annonce_hub_connections')).toBe(0), { timeout: 10_000 });
  });

  it('names the database engine, and the pool on PostgreSQL', async () => {
    const samples = (await scrape()).samples;
    expect(valueOf(samples, 'annonce_database_info', { engine: onPostgres ? 'postgres' : 'pglite' })).toBe(1);
    if (onPostgres) {
      expect(valueOf(samples, 'annonce_database_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'annonce_database_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(valueOf(samples, 'annonce_database_pool_waiting_queries')).toBe(0);
      expect(valueOf(samples, 'annonce_database_pool_max_connections')).toBe(10);
    } else {
      // PGlite runs in this process: there is no pool to report.
      expect(samples.some((sample) => sample.name.startsWith('annonce_database_pool_'))).toBe(false);
    }
  });
});

describe('METRICS_TOKEN', () => {
  it('is optional, at least 24 printable characters, and never repeated in the error', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    const short = 'too-short-token-1234';
    expect(() => loadConfig({ METRICS_TOKEN: short })).toThrow(/METRICS_TOKEN=\(hidden\): must be at least 24 characters/);
    try {
      loadConfig({ METRICS_TOKEN: short });
    } catch (error) {
      expect(String(error)).not.toContain(short);
    }
    expect(() => loadConfig({ METRICS_TOKEN: 'with a space in the middle of it' })).toThrow(/printable ASCII/);
  });
});
