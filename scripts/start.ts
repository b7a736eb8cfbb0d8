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
const log = createLogger(config.logLevel, config.logFormat);
if (process.platform === 'linux' && !process.env['MALLOC_ARENA_MAX']) {
  log.warn('started without the environment of `npm start` (scripts/server-flags.ts): the server will hold more memory');
}

// One handler per signal for the whole life of the process. A signal while the server is still starting (it
// answers /healthz before its last start-up work is done) is kept, and the server stops cleanly as soon as it
// has started. The handlers are never swapped: Node drops a signal that arrived for a listener removed before
// the event loop delivered it, so swapping them lost a SIGTERM now and then and the process never stopped
// (seen in CI, tests/integration/main-process.test.ts).
let signalled: string | null = null;
let stopOn: ((signal: string) => void) | null = null;
const onSignal = (signal: string) => () => {
  if (stopOn) stopOn(signal);
  else signalled ??= signal;
};
process.on('SIGTERM', onSignal('SIGTERM'));
process.on('SIGINT', onSignal('SIGINT'));

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
  stopOn = stop;
  if (signalled) stop(signalled);
} catch (error) {
  if (error instanceof DatabaseLockedError) {
    console.error(error.message);
    process.exit(75);
  }
  log.fatal({ err: error }, 'could not start');
  process.exit(1);
}
