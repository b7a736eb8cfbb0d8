/**
 * Restores a backup made by `npm run db:backup`: `npm run db:restore -- <file> [--replace]`. With
 * DATABASE_URL into that PostgreSQL database (pg_restore; empty, or --replace to drop what is there); else
 * into DATA_DIR/db (the server must be stopped; --replace sets the present folder aside, renamed).
 * Media are restored separately (README, "Backups").
 */
import 'dotenv/config';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '#server/config.ts';
import { restoreDatabase } from '#server/db/backup.ts';
import { MoveRefused } from '#server/db/move-to-postgres.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { replace: { type: 'boolean', default: false } } });
const file = positionals[0];
if (!file) {
  console.error('Name the backup file: npm run db:restore -- ./backup-2026-11-27.dump [--replace]');
  process.exit(2);
}
try {
  const config = loadConfig();
  const { setAside } = await restoreDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir }, path.resolve(file), { replace: values.replace });
  if (setAside) console.log(`The database that was there is kept in ${setAside} (delete it once the restore is checked).`);
  console.log(`Restored ${path.resolve(file)} into the ${config.databaseUrl ? 'PostgreSQL' : 'embedded'} database. Start the server: it applies newer migrations, if any.`);
} catch (error) {
  if (error instanceof MoveRefused || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
