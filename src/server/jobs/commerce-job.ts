import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import type { MediaStorage, Messaging, PaymentProviders } from '../adapters/types.ts';
import { SYSTEM, type DomainEvents } from '../domain/context.ts';
import { expireUnpaidOrders, sendRenewalReminders } from '../domain/commerce/subscriptions.ts';
import { pruneRefusedPostbacks } from '../domain/commerce/apply-payment-event.ts';
import { enqueueJob, type JobHandler } from './queue.ts';

/** The durable queue of the commerce clock (docs/decisions/025-commerce.md). */
export const COMMERCE_QUEUE = 'commerce.clock';

const MINUTE_MS = 60_000;

/**
 * The `commerce.clock` job, every minute: unpaid orders past their `expires_at` move to Expired, and the
 * renewal reminders due (a few days before a subscription's next charge, once per charge) go out, and the
 * log of postbacks that failed authentication is pruned (30 days, 10,000 rows). Each
 * run queues the next (one queued run at a time: the singleton key); a failed run is retried by the queue.
 */
export function commerceClockHandler(deps: {
  db: Db;
  events: DomainEvents;
  messaging: Messaging;
  payments: PaymentProviders;
  siteUrl: string;
  storage?: MediaStorage;
  log: Logger;
  now?: () => Date;
}): JobHandler {
  const now = deps.now ?? (() => new Date());
  return async () => {
    const ctx = { db: deps.db, actor: SYSTEM, events: deps.events, now, storage: deps.storage };
    const expired = await expireUnpaidOrders(ctx);
    const reminded = await sendRenewalReminders(ctx, { messaging: deps.messaging, providers: deps.payments, siteUrl: deps.siteUrl });
    const pruned = await pruneRefusedPostbacks(deps.db, now());
    if (expired > 0 || reminded > 0 || pruned > 0) deps.log.info({ expired, reminded, prunedRefusedPostbacks: pruned }, 'commerce clock');
    await enqueueJob(deps.db, COMMERCE_QUEUE, {}, { runAt: new Date(now().getTime() + MINUTE_MS), singletonKey: COMMERCE_QUEUE });
  };
}
