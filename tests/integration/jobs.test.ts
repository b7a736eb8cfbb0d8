import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { jobs } from '#server/db/schema.ts';
import { claimJob, completeJob, enqueueJob, failJob, startWorker } from '#server/jobs/queue.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';
import type { DatabaseHandle } from '#server/db/client.ts';

let handle: DatabaseHandle;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ handle, drop } = await openTestDatabase());
});
afterAll(async () => {
  await drop?.();
});

describe('the durable job queue', () => {
  it('keeps one queued job per singleton key, at the earliest run time asked for (debounce)', async () => {
    const later = new Date(Date.now() + 60_000);
    await enqueueJob(handle.db, 'debounce', {}, { singletonKey: 'rebuild', runAt: later });
    await enqueueJob(handle.db, 'debounce', {}, { singletonKey: 'rebuild', runAt: new Date(Date.now() + 120_000) });
    let queued = await handle.db.select().from(jobs).where(eq(jobs.queue, 'debounce'));
    expect(queued).toHaveLength(1);
    expect(queued[0]!.runAt.getTime()).toBe(later.getTime());
    expect(await claimJob(handle.db, ['debounce'], 60)).toBeNull();

    await enqueueJob(handle.db, 'debounce', {}, { singletonKey: 'rebuild' });
    queued = await handle.db.select().from(jobs).where(eq(jobs.queue, 'debounce'));
    expect(queued).toHaveLength(1);
    const job = await claimJob(handle.db, ['debounce'], 60);
    expect(job?.id).toBe(queued[0]!.id);

    // While it runs, a new change may queue the next one; no worker (another instance) starts it beside
    // the running one, and it is taken once that one is done.
    await enqueueJob(handle.db, 'debounce', {}, { singletonKey: 'rebuild' });
    expect(await handle.db.select().from(jobs).where(eq(jobs.queue, 'debounce'))).toHaveLength(2);
    expect(await claimJob(handle.db, ['debounce'], 60)).toBeNull();
    await completeJob(handle.db, job!.id);
    const next = await claimJob(handle.db, ['debounce'], 60);
    expect(next?.id).not.toBe(job!.id);
    await completeJob(handle.db, next!.id);
  });

  it('retries a failed job with backoff and gives up after max attempts', async () => {
    await enqueueJob(handle.db, 'flaky', { n: 1 }, { maxAttempts: 2 });
    const first = await claimJob(handle.db, ['flaky'], 60);
    await failJob(handle.db, first!, new Error('boom'));
    const [afterFirst] = await handle.db.select().from(jobs).where(eq(jobs.id, first!.id));
    expect(afterFirst).toMatchObject({ status: 'queued', lastError: 'boom', attempts: 1 });
    expect(afterFirst!.runAt.getTime()).toBeGreaterThan(Date.now() + 20_000);

    await handle.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.id, first!.id));
    const second = await claimJob(handle.db, ['flaky'], 60);
    expect(second?.attempts).toBe(2);
    await failJob(handle.db, second!, new Error('boom again'));
    const [afterSecond] = await handle.db.select().from(jobs).where(eq(jobs.id, first!.id));
    expect(afterSecond).toMatchObject({ status: 'failed', lastError: 'boom again' });
  });

  it('a failed singleton job whose next one is queued already leaves the work to it (the worker goes on polling)', async () => {
    await enqueueJob(handle.db, 'rebuilds', {}, { singletonKey: 'site' });
    const running = await claimJob(handle.db, ['rebuilds'], 60);
    // A change while it runs queues the next one; then the running one fails.
    await enqueueJob(handle.db, 'rebuilds', {}, { singletonKey: 'site', runAt: new Date(Date.now() + 60_000) });
    await failJob(handle.db, running!, new Error('build exited with 1'));
    const rows = await handle.db.select().from(jobs).where(eq(jobs.queue, 'rebuilds'));
    expect(rows.map((row) => row.status).sort()).toEqual(['failed', 'queued']);
    expect(rows.find((row) => row.id === running!.id)?.lastError).toContain('build exited with 1');

    // Alone, a failed singleton job is queued again with backoff.
    const next = rows.find((row) => row.status === 'queued')!;
    await handle.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.id, next.id));
    const claimed = await claimJob(handle.db, ['rebuilds'], 60);
    expect(claimed?.id).toBe(next.id);
    await failJob(handle.db, claimed!, new Error('again'));
    const [again] = await handle.db.select().from(jobs).where(eq(jobs.id, next.id));
    expect(again?.status).toBe('queued');
    expect(again!.runAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
  });

  it('takes over a job whose worker died (its lock expired)', async () => {
    await enqueueJob(handle.db, 'crashy', {});
    const taken = await claimJob(handle.db, ['crashy'], 60);
    expect(await claimJob(handle.db, ['crashy'], 60)).toBeNull();
    await handle.db.execute(sql`update jobs set locked_until = now() - interval '1 second' where id = ${taken!.id}`);
    const again = await claimJob(handle.db, ['crashy'], 60);
    expect(again?.id).toBe(taken!.id);
    expect(again?.attempts).toBe(2);
  });

  it('keeps a long job while its worker lives (heartbeat), and gives it to another when the worker dies', async () => {
    await enqueueJob(handle.db, 'long', {});
    let release: () => void = () => {};
    const running = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const worker = startWorker({
      db: handle.db,
      log: pino({ level: 'silent' }),
      pollMs: 20,
      lockSeconds: 1,
      handlers: {
        long: async () => {
          runs += 1;
          await running;
        },
      },
    });
    worker.poke();
    await expect.poll(() => runs, { timeout: 5000 }).toBe(1);
    // Three lock lengths later the job is still the first worker's: nobody else can claim it.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await claimJob(handle.db, ['long'], 1)).toBeNull();
    release();
    await worker.stop();
    const [done] = await handle.db.select().from(jobs).where(eq(jobs.queue, 'long'));
    expect(done?.status).toBe('done');
    expect(runs).toBe(1);

    // A worker that dies mid-job (no heartbeat any more): the job is taken again once its lock has run out.
    await enqueueJob(handle.db, 'orphan', {});
    const taken = await claimJob(handle.db, ['orphan'], 1);
    expect(taken).not.toBeNull();
    expect(await claimJob(handle.db, ['orphan'], 1)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await claimJob(handle.db, ['orphan'], 1))?.id).toBe(taken!.id);
  });

  it('runs queued jobs in a worker, one at a time, and stops cleanly', async () => {
    const seen: number[] = [];
    let running = 0;
    let overlap = false;
    for (let n = 0; n < 3; n += 1) await enqueueJob(handle.db, 'work', { n });
    const worker = startWorker({
      db: handle.db,
      log: pino({ level: 'silent' }),
      pollMs: 20,
      handlers: {
        work: async (job) => {
          running += 1;
          overlap ||= running > 1;
          await new Promise((resolve) => setTimeout(resolve, 10));
          seen.push(job.payload['n'] as number);
          running -= 1;
        },
      },
    });
    worker.poke();
    await expect.poll(() => seen.length, { timeout: 5000 }).toBe(3);
    await worker.stop();
    expect(seen.sort()).toEqual([0, 1, 2]);
    expect(overlap).toBe(false);
  });
});
