import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import type { MediaStorage } from '../adapters/types.ts';
import { SYSTEM, type DomainEvents } from '../domain/context.ts';
import { eraseExpiredAccounts } from '../domain/accounts/erase-account.ts';
import { enqueueJob, type JobHandler } from './queue.ts';

/** The durable queue of the daily erasure of deleted accounts (docs/decisions/023-erasure-and-data-export.md). */
export const ACCOUNT_ERASURE_QUEUE = 'account.erasure';

const DAY_MS = 86_400_000;

/**
 * The `account.erasure` job: erases every account deleted more than RESTORE_DAYS ago (in batches, until
 * none is left), then queues its next run a day later (one queued run at a time: the singleton key). A
 * failure is retried by the queue; a run interrupted by a restart is claimed again once its lock ends,
 * and the erasure of an account repeats safely (erase-account.ts).
 */
export function accountErasureHandler(deps: { db: Db; storage: MediaStorage; events: DomainEvents; log: Logger; now?: () => Date }): JobHandler {
  const now = deps.now ?? (() => new Date());
  return async () => {
    const ctx = { db: deps.db, actor: SYSTEM, events: deps.events, now, storage: deps.storage };
    let erased = 0;
    for (let batch = await eraseExpiredAccounts(ctx, deps.storage); batch > 0; batch = await eraseExpiredAccounts(ctx, deps.storage)) {
      erased += batch;
    }
    if (erased > 0) deps.log.info({ accounts: erased }, 'deleted accounts erased after the restore window');
    await enqueueJob(deps.db, ACCOUNT_ERASURE_QUEUE, {}, { runAt: new Date(now().getTime() + DAY_MS), singletonKey: ACCOUNT_ERASURE_QUEUE });
  };
}
