/**
 * Scheduled work that must run once however many instances run (issue 19): durable singleton jobs of the
 * queue, each run queuing the next, so one worker of one instance takes each run. (Each instance's own
 * counts of search terms are still written by that instance: main.ts.)
 */
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import type { MediaStorage } from '../adapters/types.ts';
import type { DomainEvents } from '../domain/context.ts';
import { deleteExpiredSessions } from '../domain/accounts/sessions.ts';
import { pruneOutbox } from '../domain/accounts/list-outbox-messages.ts';
import { deleteStaleTempPictures } from '../domain/media/pictures.ts';
import { refreshDueAdvertSearch } from '../domain/search/refresh-advert-search.ts';
import { pruneSearchIndexLog } from '../domain/search/search-index-log.ts';
import { pruneSearchTerms } from '../domain/search/search-terms.ts';
import { enqueueJob, pruneFinishedJobs, type JobHandler } from './queue.ts';

/**
 * Every SITE_REBUILD_MINUTES: the scheduled rebuild, and expired sessions, stale temporary pictures, old
 * outbox messages and search terms, and jobs finished 30 days ago deleted.
 */
export const HOUSEKEEPING_QUEUE = 'housekeeping';
/** Every minute: adverts whose visibility changes with time alone (expiry, holidays, boosts) into the search index. */
export const SEARCH_CLOCK_QUEUE = 'search.clock';

const SEARCH_CLOCK_MS = 60_000;
/** Finished jobs are kept this long (to look at), then deleted. */
const FINISHED_JOBS_KEEP_MS = 30 * 86_400_000;
/** The log of index changes is kept this long (incremental builds and other instances read it). */
const SEARCH_INDEX_LOG_MS = 3 * 86_400_000;

/** Queues the first run of both (at start; a run queued already keeps the earlier time). */
export async function scheduleHousekeeping(db: Db, housekeepingMs: number, now = new Date()): Promise<void> {
  await enqueueJob(db, HOUSEKEEPING_QUEUE, {}, { runAt: new Date(now.getTime() + housekeepingMs), singletonKey: HOUSEKEEPING_QUEUE });
  await enqueueJob(db, SEARCH_CLOCK_QUEUE, {}, { runAt: new Date(now.getTime() + SEARCH_CLOCK_MS), singletonKey: SEARCH_CLOCK_QUEUE });
}

/**
 * The `housekeeping` job: queues the site rebuild, deletes what has expired, then queues its next run.
 * A step that fails is logged and the others still run (the next run tries it again).
 */
export function housekeepingHandler(deps: {
  db: Db;
  storage: MediaStorage;
  log: Logger;
  everyMs: number;
  scheduleRebuild: () => Promise<void>;
  now?: () => Date;
}): JobHandler {
  const now = deps.now ?? (() => new Date());
  return async () => {
    const at = now();
    const steps: [string, () => Promise<unknown>][] = [
      ['could not schedule the site rebuild', deps.scheduleRebuild],
      ['could not delete expired sessions', () => deleteExpiredSessions(deps.db, at)],
      ['could not delete stale temporary pictures', () => deleteStaleTempPictures(deps.db, deps.storage, at)],
      ['could not prune the outbox', () => pruneOutbox(deps.db, at)],
      ['could not prune the search terms', () => pruneSearchTerms(deps.db, at)],
      ['could not prune finished jobs', () => pruneFinishedJobs(deps.db, new Date(at.getTime() - FINISHED_JOBS_KEEP_MS))],
    ];
    for (const [failure, step] of steps) {
      await step().catch((error: unknown) => deps.log.error({ err: error }, failure));
    }
    await enqueueJob(deps.db, HOUSEKEEPING_QUEUE, {}, { runAt: new Date(at.getTime() + deps.everyMs), singletonKey: HOUSEKEEPING_QUEUE });
  };
}

/**
 * The `search.clock` job: expiry, holidays and boosts change what is public with time alone, so every
 * minute the adverts due are refreshed in the search index (a content change when any changed: the site
 * rebuilds), the index's change log is pruned, and the next run queued (a failed run is logged by the
 * worker; the next one comes a minute later).
 */
export function searchClockHandler(deps: { db: Db; events: DomainEvents; log: Logger; now?: () => Date }): JobHandler {
  const now = deps.now ?? (() => new Date());
  return async () => {
    const at = now();
    try {
      const count = await refreshDueAdvertSearch(deps.db, at);
      await pruneSearchIndexLog(deps.db, new Date(at.getTime() - SEARCH_INDEX_LOG_MS));
      if (count > 0) await deps.events.publish({ type: 'content.changed', reason: `${count} adverts changed with time` });
    } finally {
      await enqueueJob(deps.db, SEARCH_CLOCK_QUEUE, {}, { runAt: new Date(at.getTime() + SEARCH_CLOCK_MS), singletonKey: SEARCH_CLOCK_QUEUE });
    }
  };
}
