import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { rowsOf, type Db } from '../db/client.ts';
import type { JobMetrics } from '../metrics.ts';

/**
 * A durable job queue in the database (works on PGlite and PostgreSQL): jobs survive restarts,
 * a crashed worker's job is taken again when its lock expires, failures retry with backoff.
 */
export type JobRow = {
  id: number;
  queue: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
};

export type EnqueueOptions = {
  runAt?: Date;
  /** At most one queued job per key; a second enqueue keeps the earlier run time of the two. */
  singletonKey?: string;
  maxAttempts?: number;
};

export async function enqueueJob(
  db: Db,
  queue: string,
  payload: Record<string, unknown> = {},
  options: EnqueueOptions = {},
): Promise<void> {
  const runAt = (options.runAt ?? new Date()).toISOString();
  const maxAttempts = options.maxAttempts ?? 5;
  if (options.singletonKey) {
    await db.execute(sql`
      insert into jobs (queue, payload, run_at, singleton_key, max_attempts)
      values (${queue}, ${JSON.stringify(payload)}::jsonb, ${runAt}::timestamptz, ${options.singletonKey}, ${maxAttempts})
      on conflict (singleton_key) where status = 'queued'
      do update set run_at = least(jobs.run_at, excluded.run_at)`);
  } else {
    await db.execute(sql`
      insert into jobs (queue, payload, run_at, max_attempts)
      values (${queue}, ${JSON.stringify(payload)}::jsonb, ${runAt}::timestamptz, ${maxAttempts})`);
  }
}


/**
 * Takes the next due job of the given queues, or a running one whose lock has expired. A job with a
 * singleton key waits while another of its key runs (on any instance, its lock alive): a change during a
 * site build queues the next build, which starts when the running one is done, never beside it on another
 * instance (two Astro builds at once would share the cores for one result: the publication keeps only the
 * newer build either way, jobs/site-share.ts).
 */
export async function claimJob(db: Db, queues: string[], lockSeconds: number): Promise<JobRow | null> {
  const result = await db.execute(sql`
    update jobs set status = 'running', attempts = attempts + 1,
      locked_until = now() + make_interval(secs => ${lockSeconds})
    where id = (
      select id from jobs
      where queue in (${sql.join(queues.map((q) => sql`${q}`), sql`, `)})
        and ((status = 'queued' and run_at <= now()) or (status = 'running' and locked_until < now()))
        and (singleton_key is null or not exists (
          select 1 from jobs running
          where running.singleton_key = jobs.singleton_key and running.status = 'running'
            and running.locked_until >= now() and running.id <> jobs.id))
      order by run_at
      limit 1
      for update skip locked
    )
    returning id, queue, payload, attempts, max_attempts`);
  const [row] = rowsOf<JobRow>(result);
  return row ? { ...row, id: Number(row.id) } : null;
}

/** A running job's heartbeat (`startWorker`'s): its lock runs `lockSeconds` from now, so no other worker takes it while it works. */
async function extendJobLock(db: Db, id: number, lockSeconds: number): Promise<void> {
  await db.execute(sql`
    update jobs set locked_until = now() + make_interval(secs => ${lockSeconds})
    where id = ${id} and status = 'running'`);
}

export async function completeJob(db: Db, id: number): Promise<void> {
  await db.execute(sql`update jobs set status = 'done', finished_at = now(), locked_until = null where id = ${id}`);
}

/** Retries with exponential backoff (30 s, 1 min, 2 min, ...) until max_attempts, then marks failed. */
export async function failJob(db: Db, job: JobRow, error: unknown): Promise<void> {
  const message = error instanceof Error ? `${error.message}`.slice(0, 4000) : String(error).slice(0, 4000);
  if (job.attempts >= job.max_attempts) {
    await db.execute(sql`
      update jobs set status = 'failed', last_error = ${message}, finished_at = now(), locked_until = null
      where id = ${job.id}`);
    return;
  }
  const delaySeconds = Math.min(3600, 30 * 2 ** (job.attempts - 1));
  // A singleton job queued meanwhile (a change during a failed rebuild) does the same work: this one
  // stops there, rather than breaking the one-queued-per-key rule (which would stop the worker's poll).
  let retried: unknown[] = [];
  try {
    retried = rowsOf(
      await db.execute(sql`
        update jobs set status = 'queued', last_error = ${message}, locked_until = null,
          run_at = now() + make_interval(secs => ${delaySeconds})
        where id = ${job.id} and not exists (
          select 1 from jobs other where other.singleton_key = jobs.singleton_key and other.status = 'queued' and other.id <> jobs.id)
        returning id`),
    );
  } catch (error) {
    // The same, when the other job was queued between the check and the write (PostgreSQL).
    if ((error as { cause?: { code?: string } }).cause?.code !== '23505' && (error as { code?: string }).code !== '23505') throw error;
  }
  if (retried.length > 0) return;
  await db.execute(sql`
    update jobs set status = 'failed', last_error = ${`${message} (not retried: a queued job of the same key does the work)`},
      finished_at = now(), locked_until = null
    where id = ${job.id}`);
}

/**
 * Deletes jobs that finished (done or failed) before `before`: the clocks queue a job a minute, and a
 * finished job is only there to be looked at. Answers how many.
 */
export async function pruneFinishedJobs(db: Db, before: Date): Promise<number> {
  const result = await db.execute(sql`
    delete from jobs where status in ('done', 'failed') and finished_at < ${before.toISOString()}::timestamptz returning id`);
  return rowsOf(result).length;
}

export type JobHandler = (job: JobRow) => Promise<void>;

/**
 * How long a claimed job stays this worker's without a sign of life. While its handler runs, the worker
 * renews the lock every quarter of it (a heartbeat), so a long job (a site build of minutes) keeps it; a
 * worker that died (kill -9, a lost machine) stops renewing, and another instance takes the job again
 * within this time, instead of the 30 minutes a lock without a heartbeat had to last (issue 19: found by the
 * two-instance journey, tests/cluster/). The handlers' heavy work runs in other processes and threads, so the
 * event loop is free to beat.
 */
export const JOB_LOCK_SECONDS = 120;

/**
 * Polls for due jobs and runs them one at a time in this process. `poke()` looks at once;
 * `stop()` waits for the running job to finish.
 */
export function startWorker(options: {
  db: Db;
  log: Logger;
  handlers: Record<string, JobHandler>;
  pollMs?: number;
  /** How long a claimed job's lock lasts between two heartbeats; default JOB_LOCK_SECONDS (tests shorten it). */
  lockSeconds?: number;
  /** Each attempt's outcome and time, for the metrics (the app's `app.metrics.jobs`). */
  metrics?: JobMetrics;
}): { stop: () => Promise<void>; poke: () => void } {
  const queues = Object.keys(options.handlers);
  let stopped = false;
  let again = false;
  let active: Promise<void> | null = null;

  const drain = async (): Promise<void> => {
    while (!stopped) {
      const lockSeconds = options.lockSeconds ?? JOB_LOCK_SECONDS;
      const job = await claimJob(options.db, queues, lockSeconds);
      if (!job) return;
      const log = options.log.child({ jobId: job.id, queue: job.queue, attempt: job.attempts });
      const started = performance.now();
      const heartbeat = setInterval(() => {
        extendJobLock(options.db, job.id, lockSeconds).catch((error: unknown) => log.warn({ err: error }, 'could not renew the job lock'));
      }, (lockSeconds * 1000) / 4);
      try {
        log.info('job started');
        await options.handlers[job.queue]!(job);
        await completeJob(options.db, job.id);
        log.info('job done');
        options.metrics?.jobFinished(job.queue, 'done', (performance.now() - started) / 1000);
      } catch (error) {
        log.error({ err: error }, 'job failed');
        options.metrics?.jobFinished(job.queue, 'failed', (performance.now() - started) / 1000);
        await failJob(options.db, job, error);
      } finally {
        clearInterval(heartbeat);
      }
    }
  };

  const run = (): void => {
    if (stopped) return;
    if (active) {
      again = true;
      return;
    }
    active = (async () => {
      do {
        again = false;
        try {
          await drain();
        } catch (error) {
          options.log.error({ err: error }, 'job worker could not poll');
        }
      } while (again && !stopped);
    })().finally(() => {
      active = null;
    });
  };

  const interval = setInterval(run, options.pollMs ?? 1000);
  run();
  return {
    poke: run,
    stop: async () => {
      stopped = true;
      clearInterval(interval);
      await active;
    },
  };
}
