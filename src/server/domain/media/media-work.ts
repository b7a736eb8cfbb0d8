/**
 * The process's one queue for heavy media work (decoding and encoding pictures, probing videos): at most
 * `concurrency` tasks run at once, the rest wait in order. Bounded so a batch of uploads cannot starve
 * the API on a small machine (MEDIA_CONCURRENCY, default 1; docs/decisions/013).
 */
export type MediaWork = {
  run: <T>(task: () => Promise<T>) => Promise<T>;
  /** Tasks running and waiting now (for health and the benchmark). */
  load: () => { running: number; waiting: number };
};

export function createMediaWork(concurrency: number): MediaWork {
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = () => {
    if (running >= concurrency) return;
    const start = waiting.shift();
    if (start) {
      running += 1;
      start();
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
              next();
            });
        });
        next();
      }),
    load: () => ({ running, waiting: waiting.length }),
  };
}
