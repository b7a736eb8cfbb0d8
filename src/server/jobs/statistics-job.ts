import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { isoDayOf } from '#lib/format.ts';
import { countPublicAdverts } from '../domain/statistics/public-advert-days.ts';
import { addDays } from '../domain/statistics/statistics.ts';
import { startOfCopenhagenDay } from '../domain/commerce/copenhagen-days.ts';
import { enqueueJob, type JobHandler } from './queue.ts';

/** The durable queue of the public adverts' daily count (docs/decisions/030-statistics.md). */
export const PUBLIC_ADVERT_COUNT_QUEUE = 'statistics.public-adverts';

const HOUR_MS = 3_600_000;
/** The day's last count is taken this long before Copenhagen midnight. */
const BEFORE_MIDNIGHT_MS = 60_000;

/**
 * When the next count runs: in an hour, or a minute before Copenhagen midnight if that comes first, so
 * that the day's row holds what the day ended with (the first run after midnight writes the day just
 * ended if that last run was missed).
 */
export function nextPublicAdvertCount(now: Date): Date {
  const lastOfDay = startOfCopenhagenDay(addDays(isoDayOf(now), 1)).getTime() - BEFORE_MIDNIGHT_MS;
  const inAnHour = now.getTime() + HOUR_MS;
  return new Date(now.getTime() < lastOfDay && lastOfDay < inAnHour ? lastOfDay : inAnHour);
}

/**
 * The `statistics.public-adverts` job: counts the public adverts by kind into public_advert_days
 * (today's row refreshed, yesterday's written if missing), then queues its next run. One queued run at a
 * time (the singleton key) and one worker claims it, however many instances run.
 */
export function publicAdvertCountHandler(deps: { db: Db; log: Logger; now?: () => Date }): JobHandler {
  const now = deps.now ?? (() => new Date());
  return async () => {
    const at = now();
    const counts = await countPublicAdverts(deps.db, at);
    deps.log.debug({ counts }, 'public adverts counted');
    await enqueueJob(deps.db, PUBLIC_ADVERT_COUNT_QUEUE, {}, { runAt: nextPublicAdvertCount(at), singletonKey: PUBLIC_ADVERT_COUNT_QUEUE });
  };
}
