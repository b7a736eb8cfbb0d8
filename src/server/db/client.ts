import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Pool } from 'pg';
import { mkdirSync, openSync, writeSync, closeSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The database as the domain sees it: the same type for PGlite and node-postgres. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseHandle = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL's connection pool, whose counts the metrics report (src/server/metrics.ts); none on PGlite. */
  pool?: Pick<Pool, 'totalCount' | 'idleCount' | 'waitingCount' | 'options'>;
  close: () => Promise<void>;
};

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export class DatabaseLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is already open in process ${pid}. ` +
        'Stop that process first (only one process may open a PGlite directory), ' +
        'or set DATA_DIR to another folder, or DATABASE_URL to a PostgreSQL server.',
    );
    this.name = 'DatabaseLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes an exclusive lock file beside a PGlite directory; a stale lock (dead pid) is taken over. */
export function lockDirectory(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, '..', `${path.basename(dir)}.lock`);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
        throw new DatabaseLockedError(dir, pid);
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

/**
 * Per-connection settings. Typo-tolerant search compares words with `<%` (pg_trgm word similarity);
 * 0.5 lets one wrong letter in a five-letter word through. Ignored until pg_trgm is installed.
 */
const SESSION_OPTION = 'pg_trgm.word_similarity_threshold=0.5';
const SESSION_SETUP = `set ${SESSION_OPTION.replace('=', ' = ')}`;

export type OpenDatabaseOptions =
  /** onConnectionError: an idle pooled connection broke (e.g. the server restarted); the pool reconnects. */
  | { databaseUrl: string; pgliteDir?: undefined; onConnectionError?: (error: Error) => void }
  /** pgliteDir 'memory://' opens a fresh in-memory database (tests). */
  | { databaseUrl?: undefined; pgliteDir: string };

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const { Pool } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    // The session setting travels with the connection's start-up parameters, so no query races the
    // pool's first one.
    const pool = new Pool({ connectionString: options.databaseUrl, max: 10, options: `-c ${SESSION_OPTION}` });
    pool.on('error', (error) => options.onConnectionError?.(error));
    const db = drizzle(pool, { schema }) as unknown as Db;
    await pool.query('select 1');
    return { db, kind: 'postgres', pool, close: () => pool.end() };
  }
  const { drizzle } = await import('drizzle-orm/pglite');
  const opened = await openPglite(options.pgliteDir ?? 'memory://');
  try {
    const client = yieldBeforeEachStatement(opened.client);
    await client.exec(SESSION_SETUP);
    const db = drizzle(client, { schema }) as unknown as Db;
    pgliteClients.set(db, client);
    return { db, kind: 'pglite', close: opened.close };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

/**
 * A PGlite database (a folder under its lock, or `memory://`) with the extensions the schema uses, as the
 * server and the backup commands open it; `loadDataDir` fills a new folder from a dump (db:restore).
 */
export async function openPglite(dir: string, options: { loadDataDir?: Blob } = {}): Promise<{ client: PGlite; close: () => Promise<void> }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const inMemory = dir.startsWith('memory://');
  const unlock = inMemory ? () => {} : lockDirectory(dir);
  try {
    const client = await PGlite.create(inMemory ? undefined : dir, {
      extensions: { pg_trgm },
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    return {
      client,
      close: async () => {
        await client.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * PGlite runs each statement synchronously in this thread and resolves it without ever giving the event
 * loop a turn, so a chain of statements (a payment's transaction and what follows it: some twenty) held
 * every other request, even those the database has no part in (an in-memory search, a static page), until
 * the whole chain ended. Each statement, in a transaction or not, now first lets waiting requests run;
 * other statements still wait for the transaction, as PGlite orders them.
 */
function yieldBeforeEachStatement(client: PGlite): PGlite {
  const query = client.query.bind(client);
  client.query = (async (...args: Parameters<PGlite['query']>) => {
    await nextTurn();
    return query(...args);
  }) as PGlite['query'];
  const transaction = client.transaction.bind(client);
  client.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx: Transaction) => {
      const txQuery = tx.query.bind(tx);
      tx.query = (async (...args: Parameters<Transaction['query']>) => {
        await nextTurn();
        return txQuery(...args);
      }) as Transaction['query'];
      return callback(tx);
    })) as PGlite['transaction'];
  return client;
}

/** The PGlite client behind a database (for COPY; none for PostgreSQL). */
const pgliteClients = new WeakMap<Db, { query: (sql: string) => Promise<{ blob?: Blob | undefined }> }>();

/**
 * Whether this process is the database's only client: an embedded PGlite (its lock file refuses a second
 * process). Then every write happens here, and in-process caches can learn of changes without asking.
 */
export function isExclusiveDatabase(db: Db): boolean {
  return pgliteClients.has(db);
}

/**
 * PGlite only: `COPY (query) TO '/dev/blob'` and its text (tab-separated, `\N` for null, arrays as
 * `{1,2}`, booleans `t`/`f`), or null on PostgreSQL (use a query there). Many rows come out of PGlite
 * far more cheaply this way: measured on 47,500 search rows, ~100 MB of memory at the peak instead of
 * ~500 MB for the same rows as a query's answer. `query` must be trusted SQL (no parameters).
 */
export async function copyOutText(db: Db, query: string): Promise<string | null> {
  const client = pgliteClients.get(db);
  if (!client) return null;
  const result = await client.query(`copy (${query}) to '/dev/blob'`);
  return result.blob ? await result.blob.text() : '';
}


/** Applies every migration in src/server/db/migrations (the same SQL for both engines). */
/** The rows of a raw `db.execute` on PGlite ({ rows }) and node-postgres alike. */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(handle.db as never, { migrationsFolder });
  } else {
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    await migrate(handle.db as never, { migrationsFolder });
  }
}

export async function isDatabaseReachable(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
