import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * The process's one queue for heavy media work (decoding and encoding pictures, probing videos): at most
 * `concurrency` tasks run at once, the rest wait in order. Bounded so a batch of uploads cannot starve
 * the API on a small machine (MEDIA_CONCURRENCY, default 1; docs/decisions/013).
 *
 * While tasks run, the image library's worker threads ("libvips worker") and the picture render worker
 * thread are kept at the lowest CPU priority (nice 19): when searches and encoding want the same core,
 * searches go first; when nothing else runs, encoding gets the whole core. Linux only; elsewhere
 * nothing changes.
 */
export type MediaWork = {
  run: <T>(task: () => Promise<T>) => Promise<T>;
  /** Tasks running and waiting now (for health and the benchmark). */
  load: () => { running: number; waiting: number };
};

/** The image library's threads and the picture render worker thread (picture-renderer.ts). */
const MEDIA_THREAD = /^(libvips|picture-render)/;
/** How much nicer than the server the media threads run (nice values go up to 19). */
const MEDIA_NICER = 19;
const TASKS = '/proc/self/task';

/** Lowers the priority of this process's media threads not lowered yet (new ones appear as libvips needs them). */
function lowerMediaThreads(done: Set<number>): void {
  let ids: string[];
  try {
    ids = readdirSync(TASKS);
  } catch {
    return;
  }
  const nice = Math.min(19, getPriority() + MEDIA_NICER);
  for (const id of ids) {
    const tid = Number(id);
    if (done.has(tid)) continue;
    try {
      if (!MEDIA_THREAD.test(readFileSync(`${TASKS}/${id}/comm`, 'utf8'))) continue;
      setPriority(tid, nice);
      done.add(tid);
    } catch {
      // The thread ended, or the system does not allow it: nothing to do.
    }
  }
}

export function createMediaWork(concurrency: number): MediaWork {
  let running = 0;
  const waiting: (() => void)[] = [];
  const lowered = new Set<number>();
  let watch: NodeJS.Timeout | null = null;
  const next = () => {
    if (running >= concurrency) return;
    const start = waiting.shift();
    if (start) {
      running += 1;
      lowerMediaThreads(lowered);
      watch ??= setInterval(() => lowerMediaThreads(lowered), 250).unref();
      start();
    } else if (running === 0 && watch) {
      clearInterval(watch);
      watch = null;
    }
  };
  return {
    run: <T>(task: () => Promise<T>) =>
      new Promise<T>((resolve, reject) => {
        waiting.push(() => {
          task()
            .then(resolve, reject)
            .finally(() => {
              running -= 1;
              // Threads the task started after the last look are lowered now, however short it was.
              lowerMediaThreads(lowered);
              next();
            });
        });
        next();
      }),
    load: () => ({ running, waiting: waiting.length }),
  };
}
