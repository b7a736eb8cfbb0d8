/**
 * Backup and restore of the database, per engine (docs/decisions/036-moving-to-postgresql.md):
 * PostgreSQL with its own tools (`pg_dump -Fc`, `pg_restore`), PGlite with its own archive of the data folder
 * (`dumpDataDir`, restored with `loadDataDir`). Media are files (DATA_DIR/media or the S3 bucket) and are
 * backed up beside the database, not in its archive (README, "Backups").
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { lockDirectory, openPglite } from './client.ts';
import { MoveRefused } from './move-to-postgres.ts';

export type BackupTarget = { databaseUrl: string } | { dataDir: string };

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(new MoveRefused(`${command} is not installed: install PostgreSQL's client tools (Debian: apt-get install postgresql-client) of the server's major version or newer.`));
      } else reject(error);
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} failed (exit ${code}):\n${errors.trim()}`))));
  });
}

/** Opens the PGlite folder of a stopped server under its lock (refused while the server runs). */
async function openLockedPglite(dir: string, loadDataDir?: Blob) {
  try {
    return await openPglite(dir, loadDataDir ? { loadDataDir } : {});
  } catch (error) {
    if ((error as Error).name === 'DatabaseLockedError') {
      throw new MoveRefused(`${(error as Error).message}\nStop the server before backing up or restoring its embedded database.`);
    }
    throw error;
  }
}

/**
 * The backup's file, made readable and writable by its owner only before anything is written to it (a
 * backup holds every account, order and verification): pg_dump and PGlite then write into it.
 */
async function privateFile(file: string): Promise<void> {
  await writeFile(file, '', { mode: 0o600 });
  await chmod(file, 0o600);
}

/** Writes a backup of the database to `file`, readable by its owner only. */
export async function backupDatabase(target: BackupTarget, file: string): Promise<void> {
  if ('databaseUrl' in target) {
    await privateFile(file);
    await run('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, `--dbname=${target.databaseUrl}`]);
    return;
  }
  const dir = path.join(path.resolve(target.dataDir), 'db');
  if (!existsSync(path.join(dir, 'PG_VERSION'))) throw new MoveRefused(`${dir} holds no embedded database (no PG_VERSION).`);
  const pglite = await openLockedPglite(dir);
  try {
    // A consistent tarball of the whole data folder, made by PGlite itself (held in memory: about the folder's size).
    const archive = await pglite.client.dumpDataDir('gzip');
    await privateFile(file);
    await writeFile(file, Buffer.from(await archive.arrayBuffer()));
  } finally {
    await pglite.close();
  }
}

/**
 * Restores a backup made by backupDatabase into an empty target; `replace` empties it first (PostgreSQL:
 * pg_restore --clean, refused while anyone else is connected to the database; PGlite: the old folder is
 * kept beside, renamed `db.replaced-<time>`, refused while a server holds it).
 */
export async function restoreDatabase(target: BackupTarget, file: string, options: { replace?: boolean } = {}): Promise<{ setAside: string | null }> {
  if (!existsSync(file)) throw new MoveRefused(`${file} does not exist.`);
  if ('databaseUrl' in target) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    let tables: number;
    let others: number;
    try {
      const result = await client.query<{ n: string }>(`select count(*) as n from pg_tables where schemaname in ('public', 'drizzle')`);
      tables = Number(result.rows[0]?.n ?? 0);
      // Anyone else connected (a server's pool, another tool): what they write during or after the
      // restore would be lost or would clash with it (ids and receipt numbers given twice).
      const connected = await client.query<{ n: string }>(`select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
      others = Number(connected.rows[0]?.n ?? 0);
    } finally {
      await client.end();
    }
    if (tables > 0 && !options.replace) {
      throw new MoveRefused('The target database already has tables: restore into an empty database, or add --replace to drop them first.');
    }
    if (tables > 0 && others > 0) {
      throw new MoveRefused(
        `${others} other connection${others === 1 ? '' : 's'} use${others === 1 ? 's' : ''} the target database (a running server?): stop every instance and tool using it before restoring over it.`,
      );
    }
    const clean = tables > 0 ? ['--clean', '--if-exists'] : [];
    await run('pg_restore', ['--no-owner', '--single-transaction', '--exit-on-error', ...clean, `--dbname=${target.databaseUrl}`, file]);
    return { setAside: null };
  }
  const dir = path.join(path.resolve(target.dataDir), 'db');
  let setAside: string | null = null;
  if (existsSync(dir) && (await readdir(dir)).length > 0) {
    if (!options.replace) throw new MoveRefused(`${dir} already holds a database: add --replace to set it aside (renamed, not deleted) and restore.`);
    const aside = `${dir}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    // Taken under the lock, so a running server is never moved from under its feet.
    const unlock = (() => {
      try {
        return lockDirectory(dir);
      } catch (error) {
        if ((error as Error).name === 'DatabaseLockedError') throw new MoveRefused(`${(error as Error).message}\nStop the server before restoring.`);
        throw error;
      }
    })();
    try {
      await rename(dir, aside);
    } finally {
      unlock();
    }
    setAside = aside;
  }
  const pglite = await openLockedPglite(dir, new Blob([await readFile(file)]));
  await pglite.close();
  return { setAside };
}
