/**
 * Backs up the database to a file: `npm run db:backup -- <file>`. With DATABASE_URL, PostgreSQL's
 * `pg_dump -Fc`; else the embedded database in DATA_DIR/db (the server must be stopped) as PGlite's own
 * archive. Media are files: back up DATA_DIR/media (or the S3 bucket) beside it (README, "Backups").
 */
import 'dotenv/config';
import path from 'node:path';
import { ConfigError, loadConfig } from '#server/config.ts';
import { backupDatabase } from '#server/db/backup.ts';
import { MoveRefused } from '#server/db/move-to-postgres.ts';

const file = process.argv[2];
if (!file) {
  console.error('Name the backup file: npm run db:backup -- ./backup-2026-11-27.dump');
  process.exit(2);
}
try {
  const config = loadConfig();
  await backupDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir }, path.resolve(file));
  console.log(`Backed up the ${config.databaseUrl ? 'PostgreSQL' : 'embedded'} database to ${path.resolve(file)}.`);
  if (!config.s3) console.log(`Media are not in it: copy ${config.paths.media} too (e.g. tar -czf media.tgz -C ${config.dataDir} media).`);
} catch (error) {
  if (error instanceof MoveRefused || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
