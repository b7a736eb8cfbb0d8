import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import type { MediaStorage } from '../adapters/types.ts';
import { SYSTEM, type DomainEvents } from '../domain/context.ts';
import { eraseExpiredAccounts, purgeUnconfirmedSignUps } from '../domain/accounts/erase-account.ts';
import { enqueueJob, type JobHandler } from './queue.ts';

/** The durable queue of the daily erasure of deleted accounts (docs/decisions/023-erasure-and-data-export.md). */
export const ACCOUNT_ERASURE_QUEUE = 'account.erasure';

const DAY_MS = 86_400_000;

/**
 * The `account.erasure` job: erases every account deleted more than RESTORE_DAYS ago, and removes the
 * sign-ups never confirmed whose links are long expired (docs/decisions/024), each in batches until none
 * is left; then queues its next run a day later (one queued run at a time: the singleton key). A failure
 * is retried by the queue; a run interrupted by a restart is claimed again once its lock ends, and the
 * erasure of an account repeats safely (erase-account.ts).
 */
export function accountErasureHandler(deps: { db: Db; storage: MediaStorage; events: DomainEvents; log: Logger; now?: () => Date }): JobHandler {
  const now = deps.now ?? (() => new Date());
  return async () => {
    const ctx = { db: deps.db, actor: SYSTEM, events: deps.events, now, storage: deps.storage };
    const untilNoneLeft = async (batch: () => Promise<number>): Promise<number> => {
      let total = 0;
      for (let done = await batch(); done > 0; done = await batch()) total += done;
      return total;
    };
    const erased = await untilNoneLeft(() => eraseExpiredAccounts(ctx, deps.storage));
    if (erased > 0) deps.log.info({ accounts: erased }, 'deleted accounts erased after the restore window');
    const purged = await untilNoneLeft(() => purgeUnconfirmedSignUps(ctx, deps.storage));
    if (purged > 0) deps.log.info({ accounts: purged }, 'sign-ups never confirmed removed');
    await enqueueJob(deps.db, ACCOUNT_ERASURE_QUEUE, {}, { runAt: new Date(now().getTime() + DAY_MS), singletonKey: ACCOUNT_ERASURE_QUEUE });
  };
}
