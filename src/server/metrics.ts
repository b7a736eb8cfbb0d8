import { createHash, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { rowsOf, type DatabaseHandle } from './db/client.ts';
import { readCurrentBuildInfo, type BuildKind } from './jobs/site-build.ts';
import { sendProblem } from './api/http.ts';

/**
 * Prometheus metrics at `/metrics` (issue 19, docs/decisions/035): off unless METRICS_TOKEN is set, then
 * only for `Authorization: Bearer <METRICS_TOKEN>`. Each app has a registry of its own (tests run several
 * apps in one process; prom-client's global registry would mix them). Labels are bounded: a request is
 * counted under its route's pattern (`/api/frontend/fullprofile`, never its URL with ids, tokens or a
 * visitor's words), the built site under `static`, anything no route knows under `not_found`; queues are
 * the code's own names. What lives elsewhere (queue depth, hub connections, the database pool, the served
 * build) is read when Prometheus asks, so nothing is counted twice.
 */

export const METRICS_PREFIX = 'annonce_';

/** The built site's answers, from the fast path or through Fastify's catch-all route. */
export const STATIC_ROUTE = 'static';
/** Requests no route knows (a 404 of any path): one label, whatever the path. */
export const NOT_FOUND_ROUTE = 'not_found';

export type JobOutcome = 'done' | 'failed';
/** What a job worker reports (jobs/queue.ts `startWorker`). */
export type JobMetrics = { jobFinished(queue: string, outcome: JobOutcome, seconds: number): void };
/** What the site build reports (jobs/site-build.ts `buildSite`). */
export type SiteBuildMetrics = { buildFinished(kind: BuildKind, outcome: 'succeeded' | 'failed', seconds: number): void };

/** The parts of the app the workers and the build report to; they do nothing while metrics are off. */
export type AppMetrics = { jobs: JobMetrics; siteBuilds: SiteBuildMetrics };

declare module 'fastify' {
  interface FastifyInstance {
    /** Where workers and builds report (src/server/metrics.ts); no-ops without METRICS_TOKEN. */
    metrics: AppMetrics;
  }
}

const NO_METRICS: AppMetrics = { jobs: { jobFinished: () => {} }, siteBuilds: { buildFinished: () => {} } };

/** Seconds: static files in well under a millisecond, API calls in milliseconds, the slowest in seconds. */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800];
const BUILD_BUCKETS = [5, 10, 20, 30, 60, 120, 300, 600, 1200];

type QueueRow = { queue: string; ready: number | string; scheduled: number | string; running: number | string; oldest_ready_seconds: number | string | null };

export type MetricsSources = {
  database: DatabaseHandle;
  siteDir: string;
  hub: { connectionCount(): number };
};

/**
 * `read` once per scrape: the gauges that show parts of one reading (the queue table, the served build's
 * record) are collected together, so they share the reading in progress; the next scrape reads anew.
 */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let reading: Promise<T> | null = null;
  return () =>
    (reading ??= read().finally(() => {
      reading = null;
    }));
}

/** The route label of a request Fastify answered. */
function routeOf(request: FastifyRequest, status: number): string {
  const url = request.routeOptions.url;
  // Fastify's catch-all serves the built site (static-site.ts); its not-found handler also serves the
  // client-only apps' shells (`/backend/...`) with 200, and the 404 page.
  if (url === undefined) return status < 400 ? STATIC_ROUTE : NOT_FOUND_ROUTE;
  if (url === '/*') return status === 404 ? NOT_FOUND_ROUTE : STATIC_ROUTE;
  return url;
}

/** The token compared in constant time (hashes of equal length, whatever was sent). */
function tokenMatcher(token: string): (header: string | undefined) => boolean {
  const expected = createHash('sha256').update(token).digest();
  return (header) => {
    const given = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
    return timingSafeEqual(createHash('sha256').update(given).digest(), expected);
  };
}

/**
 * Sets up the metrics of one app: with a token, the registry, the hook that counts every request Fastify
 * answers and the `/metrics` route; without one, nothing is counted (no hook) and `/metrics` answers 404.
 * Decorates `app.metrics`. Answers the fast path's counter (app.ts `serverFactory`), or null when off.
 */
export function registerMetrics(
  app: FastifyInstance,
  token: string | undefined,
  sources: MetricsSources,
): ((method: string | undefined, status: number, startedMs: number) => void) | null {
  if (!token) {
    app.decorate('metrics', NO_METRICS);
    app.get('/metrics', async (request, reply) =>
      sendProblem(reply, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Metrics are off (METRICS_TOKEN is not set)', requestId: request.id }),
    );
    return null;
  }
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: METRICS_PREFIX });
  const registers = [registry];
  const name = (suffix: string) => `${METRICS_PREFIX}${suffix}`;

  const requests = new Counter({
    name: name('http_requests_total'),
    help: 'HTTP requests answered, by method, route pattern (static: the built site; not_found: no route) and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const requestSeconds = new Histogram({
    name: name('http_request_duration_seconds'),
    help: 'Time to answer an HTTP request, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const observeRequest = (method: string, route: string, status: number, seconds: number) => {
    requests.inc({ method, route, status: String(status) });
    requestSeconds.observe({ method, route }, seconds);
  };
  app.addHook('onResponse', (request, reply, done) => {
    observeRequest(request.method, routeOf(request, reply.statusCode), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  const jobFailures = new Counter({
    name: name('job_failures_total'),
    help: 'Job attempts that failed in this instance, by queue (each is tried again with backoff until its attempts run out).',
    labelNames: ['queue'] as const,
    registers,
  });
  const jobSeconds = new Histogram({
    name: name('job_duration_seconds'),
    help: 'Time a job attempt took in this instance, by queue and outcome (done or failed).',
    labelNames: ['queue', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers,
  });
  /** Queues seen in the table or worked here stay reported (at 0 when empty) rather than vanishing. */
  const knownQueues = new Set<string>();
  const jobs: JobMetrics = {
    jobFinished(queue, outcome, seconds) {
      knownQueues.add(queue);
      jobSeconds.observe({ queue, outcome }, seconds);
      if (outcome === 'failed') jobFailures.inc({ queue });
    },
  };

  // Queue depth from the jobs table (shared by every instance: each reports the same numbers).
  const queueRows = oncePerScrape(async () =>
    rowsOf<QueueRow>(
      await sources.database.db.execute(sql`
        select queue,
          count(*) filter (where status = 'queued' and run_at <= now()) as ready,
          count(*) filter (where status = 'queued' and run_at > now()) as scheduled,
          count(*) filter (where status = 'running') as running,
          extract(epoch from now() - min(run_at) filter (where status = 'queued' and run_at <= now())) as oldest_ready_seconds
        from jobs where status in ('queued', 'running') group by queue`),
    ),
  );
  new Gauge({
    name: name('job_queue_jobs'),
    help: 'Jobs in the queue table by queue and state: ready (due, waiting for a worker), scheduled (due later), running.',
    labelNames: ['queue', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      let rows: QueueRow[];
      try {
        rows = await queueRows();
      } catch (error) {
        app.log.warn({ err: error }, 'metrics: the job queue could not be read');
        return;
      }
      for (const queue of knownQueues) for (const state of ['ready', 'scheduled', 'running']) this.set({ queue, state }, 0);
      for (const row of rows) {
        knownQueues.add(row.queue);
        this.set({ queue: row.queue, state: 'ready' }, Number(row.ready));
        this.set({ queue: row.queue, state: 'scheduled' }, Number(row.scheduled));
        this.set({ queue: row.queue, state: 'running' }, Number(row.running));
      }
    },
  });
  new Gauge({
    name: name('job_queue_oldest_ready_seconds'),
    help: 'How long the oldest due job of each queue has been waiting for a worker (0 when none is waiting).',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      this.reset();
      const rows = await queueRows().catch(() => null);
      if (!rows) return;
      for (const queue of knownQueues) this.set({ queue }, 0);
      for (const row of rows) this.set({ queue: row.queue }, row.oldest_ready_seconds === null ? 0 : Math.max(0, Number(row.oldest_ready_seconds)));
    },
  });

  const buildSeconds = new Histogram({
    name: name('site_build_duration_seconds'),
    help: 'Time a successful site build took in this instance, by kind (full or incremental).',
    labelNames: ['kind'] as const,
    buckets: BUILD_BUCKETS,
    registers,
  });
  const buildFailures = new Counter({
    name: name('site_build_failures_total'),
    help: 'Site builds that failed in this instance, by kind (the last good site stays online).',
    labelNames: ['kind'] as const,
    registers,
  });
  const siteBuilds: SiteBuildMetrics = {
    buildFinished(kind, outcome, seconds) {
      if (outcome === 'succeeded') buildSeconds.observe({ kind }, seconds);
      else buildFailures.inc({ kind });
    },
  };
  // The served build's own record (.build-info.json): also right for a build fetched from another instance.
  const servedBuildInfo = oncePerScrape(() => readCurrentBuildInfo(sources.siteDir));
  new Gauge({
    name: name('site_build_last_success_timestamp_seconds'),
    help: 'When the served site build finished (Unix time); 0 before the first build.',
    registers,
    async collect() {
      this.reset();
      const info = await servedBuildInfo();
      if (info) this.set(Date.parse(info.finishedAt) / 1000);
    },
  });
  new Gauge({
    name: name('site_served_pages'),
    help: 'Pages of the served site build; 0 before the first build.',
    registers,
    async collect() {
      this.reset();
      const info = await servedBuildInfo();
      if (info) this.set(info.pages);
    },
  });

  new Gauge({
    name: name('hub_connections'),
    help: 'Open notification hub connections (past the handshake) of this instance.',
    registers,
    collect() {
      this.set(sources.hub.connectionCount());
    },
  });

  new Gauge({
    name: name('database_info'),
    help: 'The database engine (pglite: embedded, one process, no pool; postgres: a connection pool).',
    labelNames: ['engine'] as const,
    registers,
  }).set({ engine: sources.database.kind }, 1);
  const pool = sources.database.pool;
  if (pool) {
    const poolGauge = (suffix: string, help: string, read: () => number) =>
      new Gauge({
        name: name(`database_pool_${suffix}`),
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    poolGauge('connections', 'Connections the PostgreSQL pool holds open (busy and idle).', () => pool.totalCount);
    poolGauge('idle_connections', 'Open connections of the PostgreSQL pool waiting for a query.', () => pool.idleCount);
    poolGauge('waiting_queries', 'Queries waiting for a connection of the PostgreSQL pool (all busy).', () => pool.waitingCount);
    poolGauge('max_connections', 'The most connections the PostgreSQL pool opens.', () => pool.options.max ?? 10);
  }

  app.decorate('metrics', { jobs, siteBuilds } satisfies AppMetrics);

  const authorized = tokenMatcher(token);
  app.get('/metrics', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (!authorized(request.headers.authorization)) {
      reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return sendProblem(reply, { type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'The metrics need their bearer token', requestId: request.id });
    }
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });

  return (method, status, startedMs) => observeRequest(method ?? 'GET', STATIC_ROUTE, status, (performance.now() - startedMs) / 1000);
}
