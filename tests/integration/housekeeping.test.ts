/**
 * Scheduled work once across instances (issue 19): the housekeeping and the search clock are singleton
 * jobs of the durable queue. Two instances starting on one database queue them both, and with a worker
 * each, every run is taken by one of them and queues the next.
 */
import { sql } from 'drizzle-orm';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '#server/adapters/storage/local-storage.ts';
import { rowsOf } from '#server/db/client.ts';
import { sessions } from '#server/db/schema.ts';
import { HOUSEKEEPING_QUEUE, SEARCH_CLOCK_QUEUE, housekeepingHandler, scheduleHousekeeping, searchClockHandler } from '#server/jobs/housekeeping-job.ts';
import { startWorker } from '#server/jobs/queue.ts';
import { signIn, startTestServer, type TestServer } from '#tests/support/test-server.ts';

const HOUR_MS = 3_600_000;

let server: TestServer;
let mediaDir: string;
beforeAll(async () => {
  server = await startTestServer();
  mediaDir = await mkdtemp(path.join(os.tmpdir(), 'housekeeping-media-'));
});
afterAll(async () => {
  await server?.close();
  await rm(mediaDir, { recursive: true, force: true });
});

type JobState = { queue: string; status: string; run_ms: number };

async function jobsOf(queue: string): Promise<JobState[]> {
  return rowsOf<JobState>(await server.db.execute(sql`select queue, status, (extract(epoch from run_at) * 1000)::float8 as run_ms from jobs where queue = ${queue} order by id`));
}

describe('scheduled work with several instances', () => {
  it('runs each scheduled job once, on one of two workers, and queues its next run', async () => {
    // A support session that has expired (housekeeping deletes it).
    await signIn(server, 'support', server.admin);
    await server.db.update(sessions).set({ expiresAt: new Date(Date.now() - 60_000) });

    // A job that finished long ago (the clocks leave one a minute).
    await server.db.execute(sql`insert into jobs (queue, status, finished_at) values ('old.work', 'done', now() - interval '40 days')`);

    // Two instances start: each queues the first runs (due now here, rather than in an interval).
    const past = new Date(Date.now() - 2 * HOUR_MS);
    await scheduleHousekeeping(server.db, HOUR_MS, past);
    await scheduleHousekeeping(server.db, HOUR_MS, past);

    const rebuildsScheduled: number[] = [];
    const log = pino({ level: 'silent' });
    const storage = createLocalStorage(mediaDir);
    const workers = [1, 2].map((instance) =>
      startWorker({
        db: server.db,
        log,
        pollMs: 20,
        handlers: {
          [HOUSEKEEPING_QUEUE]: housekeepingHandler({
            db: server.db,
            storage,
            log,
            everyMs: HOUR_MS,
            scheduleRebuild: async () => void rebuildsScheduled.push(instance),
          }),
          [SEARCH_CLOCK_QUEUE]: searchClockHandler({ db: server.db, events: { publish: () => {} }, log }),
        },
      }),
    );
    try {
      await expect.poll(async () => (await jobsOf(HOUSEKEEPING_QUEUE)).map((job) => job.status), { timeout: 10_000 }).toEqual(['done', 'queued']);
      await expect.poll(async () => (await jobsOf(SEARCH_CLOCK_QUEUE)).map((job) => job.status), { timeout: 10_000 }).toEqual(['done', 'queued']);
      // Both workers go on polling for a while (dozens of polls each): nothing runs twice.
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
    expect(rebuildsScheduled).toHaveLength(1);
    expect((await jobsOf(HOUSEKEEPING_QUEUE)).map((job) => job.status)).toEqual(['done', 'queued']);
    expect((await jobsOf(SEARCH_CLOCK_QUEUE)).map((job) => job.status)).toEqual(['done', 'queued']);
    expect(await server.db.select().from(sessions)).toEqual([]);
    expect(await jobsOf('old.work')).toEqual([]);

    // The next runs: in an interval (housekeeping) and in a minute (search clock) from the run.
    const [, nextHousekeeping] = await jobsOf(HOUSEKEEPING_QUEUE);
    const [, nextClock] = await jobsOf(SEARCH_CLOCK_QUEUE);
    expect(Number(nextHousekeeping!.run_ms) - Date.now()).toBeGreaterThan(HOUR_MS - 60_000);
    expect(Number(nextClock!.run_ms) - Date.now()).toBeGreaterThan(50_000);
    expect(Number(nextClock!.run_ms) - Date.now()).toBeLessThanOrEqual(60_000);
  });
});
