import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import type { MediaStorage } from '../adapters/types.ts';
import { SYSTEM } from '../domain/context.ts';
import { deleteUnclaimedImports } from '../domain/migration/delete-unclaimed.ts';
import { enqueueJob, type JobHandler } from './queue.ts';

/** The durable queue of the daily cleanup of imports nobody claimed (domain/migration/delete-unclaimed.ts). */
export const MIGRATION_CLEANUP_QUEUE = 'migration.cleanup';

const DAY_MS = 86_400_000;

/**
 * The `migration.cleanup` job: imported adverts not claimed MIGRATION_UNCLAIMED_DAYS after their import
 * lose their personal data and pictures, in batches until none is left; then the next run is queued a day
 * later (one queued run at a time: the singleton key). A failure is retried by the queue; a batch repeats
 * safely (a picture already deleted is no error).
 */
export function migrationCleanupHandler(deps: { db: Db; storage: MediaStorage; log: Logger; now?: () => Date }): JobHandler {
  const now = deps.now ?? (() => new Date());
  return async () => {
    const ctx = { db: deps.db, actor: SYSTEM, events: { publish: () => {} }, now, storage: deps.storage };
    let deleted = 0;
    for (let batch = await deleteUnclaimedImports(ctx, deps.storage); batch > 0; batch = await deleteUnclaimedImports(ctx, deps.storage)) deleted += batch;
    if (deleted > 0) deps.log.info({ adverts: deleted }, 'imported adverts nobody claimed deleted');
    await enqueueJob(deps.db, MIGRATION_CLEANUP_QUEUE, {}, { runAt: new Date(now().getTime() + DAY_MS), singletonKey: MIGRATION_CLEANUP_QUEUE });
  };
}
