import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { migrateDatabase, openDatabase, type DatabaseHandle, type Db } from '#server/db/client.ts';
import { seedReference } from '#server/db/seed/seed-reference.ts';
import { buildApp, type AppOptions } from '#server/app.ts';
import { createAfterResponse } from '#server/api/after-response.ts';
import type { DomainEvent } from '#server/domain/context.ts';
import { ensureBootstrapAdmin } from '#server/domain/support-users/save-support-user.ts';
import { SYSTEM } from '#server/domain/context.ts';
import { secretKeysFrom, type SecretKeys } from '#server/domain/secret-box.ts';

export type TestServer = {
  url: string;
  db: Db;
  /** The database handle (to start a second server on the same database: `shareDatabaseOf`). */
  database: DatabaseHandle;
  app: FastifyInstance;
  events: DomainEvent[];
  /** The server's log records (parsed JSON lines, debug and up) when started with `captureLogs`; else empty. */
  logs: Record<string, unknown>[];
  dataDir: string;
  admin: { email: string; password: string };
  /** The site build's credential (Authorization: Bearer …) for fullprofiles. */
  siteBuildToken: string;
  /** Waits for the work the doors started after their answers (a reset's email: src/server/api/after-response.ts). */
  settle: () => Promise<void>;
  /** The keys sealing authenticator secrets (a second instance on the same database shares them unless given its own). */
  secretKeys: SecretKeys;
  close: () => Promise<void>;
};

/**
 * A fresh database for one test file: in-memory PGlite, or, when DATABASE_URL is set, a new
 * PostgreSQL database created for this file and dropped afterwards.
 */
export async function openTestDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const url = process.env['DATABASE_URL'];
  if (!url) {
    const handle = await openDatabase({ pgliteDir: 'memory://' });
    await migrateDatabase(handle);
    return { handle, drop: () => handle.close() };
  }
  const { Client } = await import('pg');
  const name = `test_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: testUrl.toString() });
  await migrateDatabase(handle);
  return {
    handle,
    drop: async () => {
      await handle.close();
      // Not `with (force)`: terminating the pool's last connections while they close raises an
      // uncaught error in the client. Wait for them to go instead.
      const dropper = new Client({ connectionString: url });
      await dropper.connect();
      try {
        for (let attempt = 0; ; attempt += 1) {
          try {
            await dropper.query(`drop database if exists ${name}`);
            break;
          } catch (error) {
            if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      } finally {
        await dropper.end();
      }
    },
  };
}

/**
 * The real HTTP server on a free port, over a fresh database with reference data. `captureLogs` keeps
 * its log records (debug and up) in `logs` instead of discarding them (or printing them with TEST_LOG).
 * `app` adds options of the app (Redis, the hub's timings, …). `shareDatabaseOf` runs a second instance on
 * another server's database (as two instances behind a load balancer do); closing it leaves the database.
 */
export async function startTestServer(
  options: { now?: () => Date; captureLogs?: boolean; app?: Partial<AppOptions>; shareDatabaseOf?: TestServer } = {},
): Promise<TestServer> {
  const shared = options.shareDatabaseOf;
  const { handle, drop } = shared ? { handle: shared.database, drop: async () => {} } : await openTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'annonce-test-'));
  const admin = { email: 'admin@example.test', password: 'test-admin-password' };
  if (!shared) {
    await seedReference(handle.db, { siteUrl: 'http://localhost:3000' });
    await ensureBootstrapAdmin(
      { db: handle.db, actor: SYSTEM, events: { publish: () => {} }, now: () => new Date() },
      { email: admin.email, password: admin.password, generate: () => 'unused' },
    );
  }
  const events: DomainEvent[] = [];
  const logs: Record<string, unknown>[] = [];
  // One random key per database unless the test gives its own: another instance on it shares the key.
  const secretKeys = options.app?.secretKeys ?? shared?.secretKeys ?? secretKeysFrom(randomBytes(32));
  const logger = options.captureLogs
    ? pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) })
    : pino({ level: process.env['TEST_LOG'] ?? 'silent' });
  const siteBuildToken = options.app?.siteBuildToken ?? randomBytes(24).toString('base64url');
  // The app's work after its answers; a test may hold it back (`app.afterResponse`) to look in between.
  const afterResponse = options.app?.afterResponse ?? createAfterResponse(logger);
  const app = await buildApp({
    afterResponse,
    database: handle,
    events: { publish: (event) => void events.push(event) },
    logger,
    siteDir: path.join(dataDir, 'site'),
    mediaDir: path.join(dataDir, 'media'),
    sessionDays: 30,
    cookieSecure: false,
    trustProxy: false,
    siteBuildToken,
    ...(options.now ? { now: options.now } : {}),
    ...options.app,
    secretKeys,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    db: handle.db,
    database: handle,
    app,
    events,
    logs,
    dataDir,
    admin,
    siteBuildToken,
    settle: () => afterResponse.settle(),
    secretKeys,
    close: async () => {
      await app.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in over HTTP and returns the Cookie header to send with later calls. */
export async function signIn(
  server: TestServer,
  area: 'support' | 'frontend',
  credentials: { email: string; password: string },
): Promise<string> {
  const response = await fetch(`${server.url}/api/${area}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie()[0];
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0]!;
}
