import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { SYSTEM, type DomainContext } from '../domain/context.ts';
import type { PictureMedia } from '../domain/media/pictures.ts';
import { failImport, runMigrationImport } from '../domain/migration/run-import.ts';
import { enqueueJob, startWorker, type JobHandler, type JobRow } from './queue.ts';

/**
 * The durable import of the old site's export archives (docs/decisions/031-old-site-import.md): one job
 * per uploaded archive in the database queue `migration-import`, run by a worker of its own in every app
 * (like the video worker: it needs the app's picture renderer and media queue), apart from the site build.
 * The queue's worker keeps a run's lock alive while it works (its heartbeat, queue.ts); cut short (a crash,
 * a restart: the server's close aborts it between two lines) it is taken again and continues after the
 * last line it recorded. After the last failed try the import is marked failed; uploading the same file
 * again tries it once more.
 */

export const MIGRATION_IMPORT_QUEUE = 'migration-import';
/** Tries of one import before it is marked failed (a restart during a run uses one). */
export const MIGRATION_IMPORT_ATTEMPTS = 10;

export async function enqueueMigrationImport(db: Db, importId: number): Promise<void> {
  await enqueueJob(db, MIGRATION_IMPORT_QUEUE, { importId }, { maxAttempts: MIGRATION_IMPORT_ATTEMPTS, singletonKey: `${MIGRATION_IMPORT_QUEUE}:${importId}` });
}

export type MigrationImportJobDeps = {
  db: Db;
  media: PictureMedia;
  log: Logger;
  now?: () => Date;
  signal?: AbortSignal;
};

export function migrationImportHandler(deps: MigrationImportJobDeps): JobHandler {
  const ctx: DomainContext = { db: deps.db, actor: SYSTEM, events: { publish: () => {} }, now: deps.now ?? (() => new Date()), storage: deps.media.storage };
  return async (job: JobRow) => {
    const importId = Number(job.payload['importId']);
    try {
      await runMigrationImport(ctx, { media: deps.media, signal: deps.signal }, importId);
    } catch (error) {
      if (job.attempts >= job.max_attempts) {
        deps.log.warn({ importId, err: error }, 'migration import failed for good');
        await failImport(deps.db, importId, 'failed', ctx.now());
      }
      throw error;
    }
  };
}

/** How the app runs the import worker: off (tests that run the job themselves), or with these settings. */
export type MigrationWorkerOptions = {
  /** How often the queue is looked at when nobody pokes it; default 2 s. */
  pollMs?: number;
};

export type MigrationWorkerControl = {
  /** Looks for due imports now (after an upload). */
  poke: () => void;
};

declare module 'fastify' {
  interface FastifyInstance {
    migrationWorker: MigrationWorkerControl;
  }
}

/**
 * Runs one worker for the `migration-import` queue in this app, started once the server listens and
 * stopped before it closes (a running import stops between two lines and is taken again later).
 */
export function registerMigrationImportWorker(app: FastifyInstance, deps: { db: Db; media: PictureMedia; now: () => Date }, options: MigrationWorkerOptions | false): void {
  let worker: ReturnType<typeof startWorker> | null = null;
  app.decorate('migrationWorker', { poke: () => worker?.poke() } satisfies MigrationWorkerControl);
  if (options === false) return;
  const stopping = new AbortController();
  app.addHook('onListen', async () => {
    if (worker) return;
    const log = app.log.child({ worker: MIGRATION_IMPORT_QUEUE }) as unknown as Logger;
    worker = startWorker({
      db: deps.db,
      log,
      handlers: { [MIGRATION_IMPORT_QUEUE]: migrationImportHandler({ ...deps, log, signal: stopping.signal }) },
      metrics: app.metrics.jobs,
      pollMs: options.pollMs ?? 2000,
    });
  });
  app.addHook('preClose', async () => {
    if (!worker) return;
    stopping.abort();
    await worker.stop();
    worker = null;
  });
}
