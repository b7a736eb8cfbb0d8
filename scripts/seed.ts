/**
 * Applies migrations and seeds reference data (and demo content when SEED_DEMO is on) into the
 * configured database, if it has not been seeded yet. `npm start` does the same on its first start.
 */
import 'dotenv/config';
import { loadConfig } from '#server/config.ts';
import { createLogger } from '#server/logger.ts';
import { openDatabase } from '#server/db/client.ts';
import { prepareDatabase } from '#server/main.ts';

const config = loadConfig();
const log = createLogger(config.logLevel, config.logFormat);
const database = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { pgliteDir: config.paths.db });
try {
  const { firstStart, bootstrap } = await prepareDatabase(database, config, log);
  console.log(firstStart ? 'Seeded.' : 'Already seeded; nothing to do.');
  if (bootstrap.generatedPassword) console.log(`Support sign-in: ${bootstrap.email} / ${bootstrap.generatedPassword}`);
} finally {
  await database.close();
}
