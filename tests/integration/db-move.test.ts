/**
 * Moving an embedded database to PostgreSQL, and backup/restore per engine (issue 19,
 * docs/decisions/036-moving-to-postgresql.md). The PostgreSQL parts need a server: DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres (CI has one); without it they fail and say so.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { createLocalStorage } from '#server/adapters/storage/local-storage.ts';
import { migrateDatabase, openDatabase, rowsOf, type DatabaseHandle } from '#server/db/client.ts';
import { backupDatabase, restoreDatabase } from '#server/db/backup.ts';
import { MoveRefused, moveToPostgres, type MoveResult } from '#server/db/move-to-postgres.ts';
import { seedDemo } from '#server/db/seed/seed-demo.ts';
import { seedReference } from '#server/db/seed/seed-reference.ts';
import { startS3StandIn } from '#tests/support/s3-stand-in.ts';
import { refreshAllAdvertSearch } from '#server/domain/search/refresh-advert-search.ts';
import { secretKeysFrom } from '#server/domain/secret-box.ts';

const ADMIN_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SAMPLE = 20;

/** A stopped server's DATA_DIR: an embedded database with the demo seed, and its media. */
async function seededDataDir(): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'db-move-src-'));
  const handle = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  try {
    await migrateDatabase(handle);
    await seedReference(handle.db, { siteUrl: 'http://localhost:3000' });
    await seedDemo(handle.db, { adverts: 30, mediaDir: path.join(dataDir, 'media') });
    // The search rows the server builds at start (tsvector documents among them).
    await refreshAllAdvertSearch(handle.db, new Date());
    // Adverts created and deleted since: their numbers must not be handed out again on the target (old links).
    await handle.db.execute(sql.raw(`select setval('adverts_id_seq', (select max(id) from adverts) + 5)`));
    // An audit row (append-only by a trigger; jsonb before and after, with text that needs escaping).
    await handle.db.execute(
      sql.raw(`insert into audit_log (actor_type, actor_id, action, target_type, target_id, before, after, reason, ip)
        values ('support', 1, 'advert.status', 'advert', '1', '{"status": 0}', '{"status": 1, "note": "tab\\tquote\\" æøå {}"}', 'Godkendt, "ok"', '127.0.0.1')`),
    );
  } catch (error) {
    await handle.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  await handle.close();
  return dataDir;
}

async function adminClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${ADMIN_URL} (${(error as Error).message}): these tests move data into it. ` +
        'Start PostgreSQL there or set DATABASE_URL to a server where databases may be created.',
      { cause: error },
    );
  }
  return client;
}

/** A new, empty PostgreSQL database; its URL and a function that drops it. */
async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `move_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await adminClient();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = await adminClient();
      try {
        await dropper.query(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

type Snapshot = Map<string, { rows: number; sample: string[] }>;

/**
 * Every table's row count and its first rows by primary key, each row as JSON in UTC (the same text on both
 * engines exactly when the values are equal), and every sequence's next value.
 */
async function snapshot(handle: DatabaseHandle): Promise<Snapshot> {
  const query = async <T>(text: string) => rowsOf<T>(await handle.db.execute(sql.raw(text)));
  await query(`set timezone = 'UTC'`);
  const tables = await query<{ name: string; key: string | null }>(`
    select c.relname as name,
      (select string_agg(quote_ident(a.attname), ', ' order by k.ord) from pg_constraint p
        cross join unnest(p.conkey) with ordinality as k(attnum, ord)
        join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
        where p.conrelid = c.oid and p.contype = 'p') as key
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' order by c.relname`);
  const result: Snapshot = new Map();
  for (const table of tables) {
    const [count] = await query<{ n: string | number }>(`select count(*) as n from ${table.name}`);
    const sample = await query<{ row: string }>(`select row_to_json(t)::text as row from ${table.name} t order by ${table.key ?? '1'} limit ${SAMPLE}`);
    result.set(table.name, { rows: Number(count?.n ?? 0), sample: sample.map((row) => row.row) });
  }
  return result;
}

function expectSameData(actual: Snapshot, expected: Snapshot) {
  expect([...actual.keys()]).toEqual([...expected.keys()]);
  for (const [name, want] of expected) {
    const got = actual.get(name)!;
    expect({ table: name, rows: got.rows }).toEqual({ table: name, rows: want.rows });
    expect(got.sample, name).toEqual(want.sample);
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** Runs one of the operator's scripts (as `npm run` does) and answers its output; throws with it on failure. */
function runScript(script: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, DATABASE_URL: '', S3_BUCKET: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${script} exited ${code}:\n${output}`))));
  });
}

let sourceDir: string;
let expected: Snapshot;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  sourceDir = await seededDataDir();
  cleanups.push(() => rm(sourceDir, { recursive: true, force: true }));
  const source = await openDatabase({ pgliteDir: path.join(sourceDir, 'db') });
  try {
    expected = await snapshot(source);
  } finally {
    await source.close();
  }
  expect(expected.get('adverts')!.rows).toBe(30);
  // The types worth checking have rows: jsonb (pictures.variants, audit_log), arrays (adverts), tsvector (search documents).
  for (const table of ['pictures', 'audit_log', 'advert_search_documents', 'advert_search', 'price_list_items']) {
    expect({ table, hasRows: expected.get(table)!.rows > 0 }).toEqual({ table, hasRows: true });
  }
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('npm run db:move: an embedded database into PostgreSQL', () => {
  let target: { url: string; drop: () => Promise<void> };
  let targetDir: string;
  let result: MoveResult;
  let moved: DatabaseHandle;

  beforeAll(async () => {
    target = await createPostgresDatabase();
    cleanups.push(() => target.drop());
    targetDir = await mkdtemp(path.join(os.tmpdir(), 'db-move-dst-'));
    cleanups.push(() => rm(targetDir, { recursive: true, force: true }));
    // The operator's command, as run: `npm run db:move -- --from … --to … --to-data-dir …`.
    const output = await runScript('scripts/db-move.ts', ['--from', sourceDir, '--to', target.url, '--to-data-dir', targetDir]);
    expect(output).toMatch(/Moved \d+ rows in \d+ tables/);
    expect(output).toMatch(/^adverts: 30 rows$/m);
    expect(output).toMatch(/Media: \d+ files copied, 0 already there/);
    result = {
      tables: [...output.matchAll(/^(\w+): (\d+) rows$/gm)].map((match) => ({ name: match[1]!, rows: Number(match[2]) })),
      media: { copied: Number(/Media: (\d+) files copied/.exec(output)![1]), alreadyThere: 0, bytes: 0 },
    };
    moved = await openDatabase({ databaseUrl: target.url });
    cleanups.push(() => moved.close());
  });

  it('copies every table: the same row counts and the same first rows, column by column', async () => {
    expectSameData(await snapshot(moved), expected);
    const counted = new Map(result.tables.map((table) => [table.name, table.rows]));
    for (const [name, { rows }] of expected) expect({ name, rows: counted.get(name) }).toEqual({ name, rows });
  });

  it('copies every media file under the same key', async () => {
    const sourceFiles = await filesUnder(path.join(sourceDir, 'media'));
    expect(sourceFiles.length).toBeGreaterThan(0);
    expect(await filesUnder(path.join(targetDir, 'media'))).toEqual(sourceFiles);
    expect(result.media!.copied).toBe(sourceFiles.length);
  });

  it('the server on PostgreSQL answers a public advert, and its picture from the moved media', async () => {
    const app = await buildApp({
      database: moved,
      events: { publish: () => {} },
      logger: pino({ level: 'silent' }),
      siteDir: path.join(targetDir, 'site'),
      mediaDir: path.join(targetDir, 'media'),
      sessionDays: 30,
      cookieSecure: false,
      trustProxy: false,
      siteBuildToken: randomBytes(24).toString('base64url'),
      secretKeys: secretKeysFrom(randomBytes(32)),
    });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const [advert] = rowsOf<{ id: number; name: string }>(
        await moved.db.execute(sql.raw(`select a.id, a.name from adverts a where a.status = 1 and exists (select 1 from pictures p where p.advert_id = a.id) order by a.id limit 1`)),
      );
      expect(advert).toBeDefined();
      const response = await fetch(`${base}/api/frontend/fullprofile?Id=${advert!.id}`);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain(advert!.name);
      const picture = /\/media\/[^"?]+/.exec(text)?.[0];
      expect(picture, 'the profile names a picture').toBeDefined();
      const image = await fetch(`${base}${picture!}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toMatch(/^image\//);
      const bytes = Buffer.from(await image.arrayBuffer());
      // Served from the target's DATA_DIR/media (public area), where the move put it.
      expect(bytes.length).toBe((await stat(path.join(targetDir, 'media', 'public', picture!.replace(/^\/media\//, '')))).size);
    } finally {
      await app.close();
    }
  });

  it('new rows get fresh ids: every sequence continues after the source, past deleted rows too', async () => {
    const [word] = rowsOf<{ id: number }>(await moved.db.execute(sql.raw(`insert into risk_words (word) values ('efter flytningen') returning id`)));
    const [before] = rowsOf<{ max: number }>(await moved.db.execute(sql.raw(`select max(id) as max from risk_words where word <> 'efter flytningen'`)));
    expect(word!.id).toBeGreaterThan(before!.max);
    const source = await openDatabase({ pgliteDir: path.join(sourceDir, 'db') });
    try {
      const [last] = rowsOf<{ last_value: number }>(await source.db.execute(sql.raw(`select last_value from adverts_id_seq`)));
      const [next] = rowsOf<{ id: string }>(await moved.db.execute(sql.raw(`select nextval('adverts_id_seq') as id`)));
      // The deleted advert's number (the source's last) is not given to a new advert.
      expect(Number(next!.id)).toBe(Number(last!.last_value) + 1);
    } finally {
      await source.close();
    }
  });

  it('refuses a target that holds data, and --replace moves again over it (media already there are kept)', async () => {
    await expect(moveToPostgres({ fromDataDir: sourceDir, toUrl: target.url })).rejects.toThrow(/not empty.*--replace/s);
    const again = await moveToPostgres({
      fromDataDir: sourceDir,
      toUrl: target.url,
      replace: true,
      mediaTarget: createLocalStorage(path.join(targetDir, 'media')),
    });
    expect(again.media).toMatchObject({ copied: 0, alreadyThere: result.media!.copied });
    expectSameData(await snapshot(moved), expected);
  });

  it('refuses while the server holds the embedded database (its lock file)', async () => {
    const running = await openDatabase({ pgliteDir: path.join(sourceDir, 'db') });
    try {
      const attempt = moveToPostgres({ fromDataDir: sourceDir, toUrl: target.url, replace: true });
      await expect(attempt).rejects.toBeInstanceOf(MoveRefused);
      await expect(attempt).rejects.toThrow(/server must be stopped/);
    } finally {
      await running.close();
    }
  });

  it('refuses a folder that holds no embedded database', async () => {
    await expect(moveToPostgres({ fromDataDir: targetDir, toUrl: target.url })).rejects.toThrow(/no embedded database/);
  });

  it('with S3_BUCKET set, the media go to the bucket under the same keys (through the S3 adapter)', async () => {
    const s3 = await startS3StandIn('moved-media');
    cleanups.push(() => s3.stop());
    const port = new URL(s3.settings.endpoint!).port;
    const other = await createPostgresDatabase();
    cleanups.push(() => other.drop());
    const settings = { S3_BUCKET: 'moved-media', S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: 'true' };
    const output = await runScript('scripts/db-move.ts', ['--from', sourceDir, '--to', other.url], settings);
    const files = await filesUnder(path.join(sourceDir, 'media'));
    expect(output).toContain(`Media: ${files.length} files copied, 0 already there.`);
    const bucket = s3.storage;
    for (const file of files) {
      const [area, ...key] = file.split(path.sep);
      const stored = await bucket.open(area as 'public' | 'private', key.join('/'));
      stored?.body.destroy();
      expect({ file, size: stored?.size }).toEqual({ file, size: (await stat(path.join(sourceDir, 'media', file))).size });
    }
  });

  it('refuses a source whose migrations are behind this version: start the server once on it first', async () => {
    const behind = await mkdtemp(path.join(os.tmpdir(), 'db-move-old-'));
    cleanups.push(() => rm(behind, { recursive: true, force: true }));
    const old = await openDatabase({ pgliteDir: path.join(behind, 'db') });
    try {
      await migrateDatabase(old);
      await old.db.execute(sql.raw(`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`));
    } finally {
      await old.close();
    }
    await expect(moveToPostgres({ fromDataDir: behind, toUrl: target.url, replace: true })).rejects.toThrow(/lacks 1 of .* migrations.*Start the server once/s);
  });

  it('backup and restore on PostgreSQL (pg_dump -Fc, pg_restore): the same data in a new database', async () => {
    const file = path.join(targetDir, 'postgres.dump');
    expect(await runScript('scripts/db-backup.ts', [file], { DATABASE_URL: target.url })).toContain('Backed up the PostgreSQL database');
    const copy = await createPostgresDatabase();
    cleanups.push(() => copy.drop());
    // A backup holds every account and order: readable by its owner only (issue 30).
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await runScript('scripts/db-restore.ts', [file], { DATABASE_URL: copy.url })).toContain('Restored');
    await expect(restoreDatabase({ databaseUrl: copy.url }, file)).rejects.toThrow(/already has tables/);
    const restored = await openDatabase({ databaseUrl: copy.url });
    try {
      // --replace under a running server (its pool connected) is refused, and nothing is dropped (issue 30).
      await restored.db.execute(sql`select 1`);
      await expect(restoreDatabase({ databaseUrl: copy.url }, file, { replace: true })).rejects.toThrow(/other connection.*stop every instance/);
      expectSameData(await snapshot(restored), await snapshot(moved));
      // The restored database is at the latest migration: the server would start on it without changes.
      await migrateDatabase(restored);
      expectSameData(await snapshot(restored), await snapshot(moved));
    } finally {
      await restored.close();
    }
  });
});

describe('npm run db:backup and db:restore on the embedded database', () => {
  it('round trip: the restored DATA_DIR holds the same data', async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'db-backup-'));
    cleanups.push(() => rm(work, { recursive: true, force: true }));
    const file = path.join(work, 'pglite.tar.gz');
    const backup = await runScript('scripts/db-backup.ts', [file], { DATA_DIR: sourceDir });
    expect(backup).toContain('Backed up the embedded database');
    expect(backup).toContain('Media are not in it');
    expect((await stat(file)).size).toBeGreaterThan(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const restoredDir = path.join(work, 'data');
    expect(await runScript('scripts/db-restore.ts', [file], { DATA_DIR: restoredDir })).toContain('Restored');
    await expect(restoreDatabase({ dataDir: restoredDir }, file)).rejects.toThrow(/--replace/);
    const restored = await openDatabase({ pgliteDir: path.join(restoredDir, 'db') });
    try {
      expectSameData(await snapshot(restored), expected);
    } finally {
      await restored.close();
    }
    // --replace keeps the database that was there, renamed beside it.
    const { setAside } = await restoreDatabase({ dataDir: restoredDir }, file, { replace: true });
    expect(setAside).toMatch(/db\.replaced-/);
    expect(existsSync(path.join(setAside!, 'PG_VERSION'))).toBe(true);
    expect(existsSync(path.join(restoredDir, 'db', 'PG_VERSION'))).toBe(true);
  });

  it('refuses while the server holds the embedded database', async () => {
    const running = await openDatabase({ pgliteDir: path.join(sourceDir, 'db') });
    try {
      await expect(backupDatabase({ dataDir: sourceDir }, path.join(os.tmpdir(), 'never.tar.gz'))).rejects.toThrow(/Stop the server/);
    } finally {
      await running.close();
    }
  });
});
