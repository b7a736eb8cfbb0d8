/**
 * Moves the embedded database (PGlite in DATA_DIR/db) and its media into PostgreSQL, in one command
 * (docs/decisions/036-moving-to-postgresql.md). The server must be stopped.
 *
 *   npm run db:move -- --from ./data --to postgres://user@host/db [--to-data-dir /srv/annonce] [--replace]
 *
 * --from defaults to DATA_DIR, --to to DATABASE_URL. Media go to --to-data-dir's media folder, or to S3 when
 * S3_BUCKET (and S3_*) is set; with neither they stay in the source's DATA_DIR/media, which the server on
 * PostgreSQL then keeps using (same DATA_DIR).
 */
import 'dotenv/config';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { ConfigError, loadConfig } from '#server/config.ts';
import { createLocalStorage } from '#server/adapters/storage/local-storage.ts';
import { createS3Storage } from '#server/adapters/storage/s3-storage.ts';
import { MoveRefused, moveToPostgres } from '#server/db/move-to-postgres.ts';

const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    'to-data-dir': { type: 'string' },
    replace: { type: 'boolean', default: false },
  },
});

try {
  const config = loadConfig();
  const from = path.resolve(values.from ?? config.dataDir);
  const to = values.to ?? config.databaseUrl;
  if (!to) {
    console.error('Name the target: --to postgres://user@host:5432/database (or set DATABASE_URL).');
    process.exit(2);
  }
  const toDataDir = values['to-data-dir'];
  const mediaTarget = toDataDir ? createLocalStorage(path.join(path.resolve(toDataDir), 'media')) : config.s3 ? createS3Storage(config.s3) : undefined;
  const started = Date.now();
  const result = await moveToPostgres({ fromDataDir: from, toUrl: to, mediaTarget, toDataDir, replace: values.replace, log: (line) => console.log(line) });
  const rows = result.tables.reduce((sum, table) => sum + table.rows, 0);
  console.log(`\nMoved ${rows} rows in ${result.tables.length} tables in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  if (result.media) {
    console.log(`Media: ${result.media.copied} files copied, ${result.media.alreadyThere} already there.`);
  } else {
    console.log(`Media stay in ${path.join(from, 'media')}: start the server with DATA_DIR=${from} (or copy that folder).`);
  }
  const shown = new URL(to);
  if (shown.password) shown.password = '…';
  console.log(`Now start the server with DATABASE_URL=${shown.toString()}`);
} catch (error) {
  if (error instanceof MoveRefused || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
