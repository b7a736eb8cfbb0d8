/**
 * Moves an embedded database (a PGlite data folder) and its media into PostgreSQL (issue 19,
 * docs/decisions/036-moving-to-postgresql.md). `npm run db:move` is the operator's door (scripts/db-move.ts).
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { MediaStorage, StorageArea } from '../adapters/types.ts';
import { contentTypeOfKey } from '../adapters/storage/keys.ts';
import { migrateDatabase, migrationsFolder, openDatabase, rowsOf, type DatabaseHandle } from './client.ts';

/** Rows read from PGlite and written to PostgreSQL at a time: memory stays bounded at any size. */
const BATCH_ROWS = 2000;

/** Tables the migrations themselves fill (a counter, a state row, a word list): not a sign of a used database. */
const FILLED_BY_MIGRATIONS = new Set(['search_index_state', 'risk_words', 'document_counters']);

export type MoveOptions = {
  /** The stopped server's DATA_DIR (the database is in `{fromDataDir}/db`, media in `{fromDataDir}/media`). */
  fromDataDir: string;
  /** The target database: empty, or migrated by this app and still empty. */
  toUrl: string;
  /** Where the media go (another DATA_DIR's media storage, or S3); none when they stay in fromDataDir/media. */
  mediaTarget?: MediaStorage | undefined;
  /** The target's DATA_DIR, when it is another folder: the generated secrets key goes along. */
  toDataDir?: string | undefined;
  /** Empties a target that holds data first (its rows are lost). */
  replace?: boolean;
  log?: (line: string) => void;
};

export type MoveResult = {
  tables: { name: string; rows: number }[];
  media: { copied: number; alreadyThere: number; bytes: number } | null;
};

/** A refusal the operator can act on (printed without a stack by the script). */
export class MoveRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MoveRefused';
  }
}

type Column = { name: string; type: string };
type Table = { name: string; columns: Column[]; orderBy: string };

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Opens the PGlite folder of a stopped server; refuses a running one (its lock file) or a missing folder. */
export async function openStoppedPglite(dataDir: string): Promise<DatabaseHandle> {
  const dir = path.join(path.resolve(dataDir), 'db');
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    throw new MoveRefused(`${dir} holds no embedded database (no PG_VERSION): is ${dataDir} the server's DATA_DIR?`);
  }
  try {
    return await openDatabase({ pgliteDir: dir });
  } catch (error) {
    if ((error as Error).name === 'DatabaseLockedError') {
      throw new MoveRefused(`${(error as Error).message}\nThe server must be stopped while its embedded database is copied.`);
    }
    throw error;
  }
}

/** Refuses a source whose migrations are not all applied (the target gets the latest schema). */
export async function requireLatestMigrations(handle: DatabaseHandle): Promise<void> {
  const expected = readMigrationFiles({ migrationsFolder }).map((migration) => migration.hash);
  let applied: string[];
  try {
    applied = rowsOf<{ hash: string }>(await handle.db.execute(sql.raw('select hash from drizzle.__drizzle_migrations order by created_at, id'))).map((row) => row.hash);
  } catch {
    throw new MoveRefused('The source database has no migrations table: it was never opened by this server.');
  }
  const missing = expected.filter((hash) => !applied.includes(hash));
  if (missing.length > 0) {
    throw new MoveRefused(
      `The source database lacks ${missing.length} of this version's ${expected.length} migrations. ` +
        'Start the server once on it with this version (it migrates at start), stop it, then move again.',
    );
  }
}

/** The app's tables on PostgreSQL with their stored columns (generated ones are left out), in foreign-key order. */
async function tablesOf(client: pg.ClientBase): Promise<Table[]> {
  const columns = await client.query<{ table: string; column: string; type: string }>(`
    select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type
    from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = c.oid
    where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
    order by c.relname, a.attnum`);
  const keys = await client.query<{ table: string; columns: string[] }>(`
    select c.relname as table, array_agg(a.attname order by k.ord)::text[] as columns
    from pg_constraint p join pg_class c on c.oid = p.conrelid join pg_namespace n on n.oid = c.relnamespace
    cross join unnest(p.conkey) with ordinality as k(attnum, ord)
    join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
    where n.nspname = 'public' and p.contype = 'p' group by c.relname`);
  const references = await client.query<{ table: string; parent: string }>(`
    select c.relname as table, f.relname as parent
    from pg_constraint p join pg_class c on c.oid = p.conrelid join pg_class f on f.oid = p.confrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and p.contype = 'f' and p.conrelid <> p.confrelid`);
  const byTable = new Map<string, Column[]>();
  for (const row of columns.rows) {
    const list = byTable.get(row.table) ?? [];
    list.push({ name: row.column, type: row.type });
    byTable.set(row.table, list);
  }
  const primaryKeys = new Map(keys.rows.map((row) => [row.table, row.columns]));
  const parents = new Map<string, Set<string>>();
  for (const row of references.rows) {
    const set = parents.get(row.table) ?? new Set<string>();
    set.add(row.parent);
    parents.set(row.table, set);
  }
  // Parents before children: the foreign keys stay checked during the copy (nothing is switched off).
  const ordered: string[] = [];
  const done = new Set<string>();
  const visit = (name: string, path: string[]) => {
    if (done.has(name)) return;
    if (path.includes(name)) throw new Error(`foreign keys form a cycle: ${[...path, name].join(' → ')}`);
    for (const parent of parents.get(name) ?? []) visit(parent, [...path, name]);
    done.add(name);
    ordered.push(name);
  };
  for (const name of [...byTable.keys()].sort()) visit(name, []);
  return ordered.map((name) => {
    const list = byTable.get(name)!;
    const key = primaryKeys.get(name) ?? list.map((column) => column.name);
    return { name, columns: list, orderBy: key.map(quote).join(', ') };
  });
}

/** Row counts of every table that holds rows, beyond what the migrations put there. */
async function tablesWithRows(client: pg.ClientBase): Promise<{ name: string; rows: number }[]> {
  const found: { name: string; rows: number }[] = [];
  const tables = await client.query<{ name: string }>(
    `select relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') order by relname`,
  );
  for (const { name } of tables.rows) {
    if (FILLED_BY_MIGRATIONS.has(name)) continue;
    const result = await client.query<{ n: string }>(`select count(*) as n from ${quote(name)}`);
    const rows = Number(result.rows[0]?.n ?? 0);
    if (rows > 0) found.push({ name, rows });
  }
  return found;
}

/** Sets every sequence of the target past the highest id in use and past the source's own value. */
async function resetSequences(client: pg.ClientBase, source: DatabaseHandle): Promise<void> {
  const sequences = await client.query<{ sequence: string; table: string; column: string }>(`
    select s.relname as sequence, t.relname as table, a.attname as column
    from pg_depend d join pg_class s on s.oid = d.objid and s.relkind = 'S'
    join pg_class t on t.oid = d.refobjid join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
    join pg_namespace n on n.oid = s.relnamespace
    where n.nspname = 'public' and d.deptype in ('a', 'i')`);
  for (const row of sequences.rows) {
    // The source's last value too: ids of deleted rows (an advert's number in old links) are never handed out again.
    const [state] = rowsOf<{ last_value: string | number; is_called: boolean }>(
      await source.db.execute(sql.raw(`select last_value, is_called from ${quote(row.sequence)}`)),
    );
    const sourceLast = state?.is_called ? Number(state.last_value) : 0;
    const result = await client.query<{ max: string | null }>(`select max(${quote(row.column)}) as max from ${quote(row.table)}`);
    const last = Math.max(sourceLast, Number(result.rows[0]?.max ?? 0));
    if (last > 0) await client.query('select setval($1, $2, true)', [quote(row.sequence), last]);
    else await client.query('select setval($1, 1, false)', [quote(row.sequence)]);
  }
}

/** Copies one table in batches: PGlite's own text form of each value, cast back to the column's type. */
async function copyTable(source: DatabaseHandle, client: pg.ClientBase, table: Table, log: (line: string) => void): Promise<number> {
  const select = table.columns.map((column, index) => `${quote(column.name)}::text as c${index}`).join(', ');
  const cursor = `move_${table.name}`;
  const arrays = table.columns.map((_, index) => `$${index + 1}::text[]`).join(', ');
  const casts = table.columns.map((column, index) => `u.c${index}::${column.type}`).join(', ');
  const aliases = table.columns.map((_, index) => `c${index}`).join(', ');
  const insert = `insert into ${quote(table.name)} (${table.columns.map((column) => quote(column.name)).join(', ')}) select ${casts} from unnest(${arrays}) as u(${aliases})`;
  let copied = 0;
  await source.db.execute(sql.raw(`declare ${quote(cursor)} no scroll cursor for select ${select} from ${quote(table.name)} order by ${table.orderBy}`));
  try {
    for (;;) {
      const rows = rowsOf<Record<string, string | null>>(await source.db.execute(sql.raw(`fetch ${BATCH_ROWS} from ${quote(cursor)}`)));
      if (rows.length === 0) break;
      const values = table.columns.map((_, index) => rows.map((row) => row[`c${index}`] ?? null));
      await client.query(insert, values);
      copied += rows.length;
      if (copied % (BATCH_ROWS * 10) === 0) log(`  ${table.name}: ${copied} rows…`);
    }
  } finally {
    await source.db.execute(sql.raw(`close ${quote(cursor)}`));
  }
  return copied;
}

/** Every file under a local media root, as [area, key, absolute path]. */
async function* mediaFiles(root: string): AsyncGenerator<[StorageArea, string, string]> {
  for (const area of ['public', 'private'] as const) {
    const areaRoot = path.join(root, area);
    if (!existsSync(areaRoot)) continue;
    const entries = await readdir(areaRoot, { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      yield [area, path.relative(areaRoot, file).split(path.sep).join('/'), file];
    }
  }
}

/** Copies the media through the target's storage adapter (same keys); files already there are kept (a rerun resumes). */
export async function copyMedia(fromMediaDir: string, target: MediaStorage, log: (line: string) => void) {
  const counts = { copied: 0, alreadyThere: 0, bytes: 0 };
  const pending = new Set<Promise<void>>();
  for await (const [area, key, file] of mediaFiles(fromMediaDir)) {
    const work = (async () => {
      const { size } = await stat(file);
      // A file of the same size is taken as copied by an earlier run; a part-written one is copied again.
      const present = await target.open(area, key);
      present?.body.destroy();
      if (present?.size === size) {
        counts.alreadyThere += 1;
        return;
      }
      await target.putFile(area, key, file, contentTypeOfKey(key));
      counts.copied += 1;
      counts.bytes += size;
      if (counts.copied % 1000 === 0) log(`  media: ${counts.copied} files…`);
    })();
    pending.add(work);
    void work.finally(() => pending.delete(work)).catch(() => {});
    if (pending.size >= 8) await Promise.race(pending);
  }
  await Promise.all(pending);
  return counts;
}

/**
 * The whole move: checks, migrates the target, copies every table in one transaction (all or nothing: a
 * failed move leaves the target as it was, and can simply be run again), resets the sequences, then the media.
 */
export async function moveToPostgres(options: MoveOptions): Promise<MoveResult> {
  const log = options.log ?? (() => {});
  const source = await openStoppedPglite(options.fromDataDir);
  try {
    await requireLatestMigrations(source);
    const client = new pg.Client({ connectionString: options.toUrl });
    await client.connect();
    try {
      const used = await tablesWithRows(client);
      if (used.length > 0 && !options.replace) {
        throw new MoveRefused(
          `The target database is not empty (${used.map((table) => `${table.name}: ${table.rows}`).join(', ')}). ` +
            'Give an empty database, or add --replace to delete its rows first.',
        );
      }
      const target = await openDatabase({ databaseUrl: options.toUrl });
      try {
        await migrateDatabase(target);
      } finally {
        await target.close();
      }
      const tables = await tablesOf(client);
      const counts: { name: string; rows: number }[] = [];
      await source.db.execute(sql.raw('begin isolation level repeatable read read only'));
      await client.query('begin');
      try {
        // TRUNCATE is not an UPDATE or DELETE: the append-only triggers (audit_log, payment_events, …) do not fire.
        await client.query(`truncate ${tables.map((table) => quote(table.name)).join(', ')} restart identity`);
        for (const table of tables) {
          const rows = await copyTable(source, client, table, log);
          counts.push({ name: table.name, rows });
          log(`${table.name}: ${rows} rows`);
        }
        await resetSequences(client, source);
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        await source.db.execute(sql.raw('rollback'));
      }
      let media: MoveResult['media'] = null;
      if (options.mediaTarget) {
        media = await copyMedia(path.join(path.resolve(options.fromDataDir), 'media'), options.mediaTarget, log);
        log(`media: ${media.copied} files copied (${media.bytes} bytes), ${media.alreadyThere} already there`);
      }
      if (options.toDataDir && path.resolve(options.toDataDir) !== path.resolve(options.fromDataDir)) {
        const key = path.join(path.resolve(options.fromDataDir), 'secrets.key');
        const targetKey = path.join(path.resolve(options.toDataDir), 'secrets.key');
        if (existsSync(key) && !existsSync(targetKey)) {
          await mkdir(path.dirname(targetKey), { recursive: true });
          await copyFile(key, targetKey);
          log(`secrets.key copied to ${targetKey} (set SECRETS_KEY instead in production)`);
        }
      }
      return { tables: counts, media };
    } finally {
      await client.end();
    }
  } finally {
    await source.close();
  }
}
