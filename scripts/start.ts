/**
 * The main job (`npm start`): migrations, first-start seed, API, site build and schedule.
 * Reads configuration from the environment and `.env`.
 */
import 'dotenv/config';
import { ConfigError, loadConfig } from '#server/config.ts';
import { createLogger } from '#server/logger.ts';
import { startServer } from '#server/main.ts';
import { DatabaseLockedError } from '#server/db/client.ts';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78);
  }
  throw error;
}
const log = createLogger(config.logLevel);
if (process.platform === 'linux' && !process.env['MALLOC_ARENA_MAX']) {
  log.warn('started without the environment of `npm start` (scripts/server-flags.ts): the server will hold more memory');
}

try {
  const server = await startServer(config, log);
  const lines = [`Annoncekatalog runs at ${config.siteUrl}/ (support area: ${config.siteUrl}/support/login/)`];
  if (server.bootstrap.created) {
    lines.push(`Support sign-in: ${server.bootstrap.email}`);
    lines.push(
      server.bootstrap.generatedPassword
        ? `Generated password (shown once, change it after signing in): ${server.bootstrap.generatedPassword}`
        : 'Password: the value of SUPPORT_ADMIN_PASSWORD',
    );
  }
  if (server.firstStart) lines.push('First start: the site is being built; it is served as soon as the build is done.');
  process.stdout.write(`\n${lines.join('\n')}\n\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: draining requests, stopping jobs, closing the database');
    server
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error({ err: error }, 'could not stop cleanly');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
} catch (error) {
  if (error instanceof DatabaseLockedError) {
    console.error(error.message);
    process.exit(75);
  }
  log.fatal({ err: error }, 'could not start');
  process.exit(1);
}
