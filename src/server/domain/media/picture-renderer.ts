import { Worker } from 'node:worker_threads';
import type { RenderOutcome, UploadedPictureFile } from './picture-processing.ts';

/**
 * Renders pictures in a worker thread (picture-render-worker.ts), started on first use and restarted
 * if it dies; it never keeps the process alive. Calls are answered in any order, by id.
 */
export type PictureRenderer = { render: (file: UploadedPictureFile) => Promise<RenderOutcome>; close: () => Promise<void> };

type Pending = { resolve: (outcome: RenderOutcome) => void; reject: (error: Error) => void };

export function createPictureRenderer(): PictureRenderer {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const failAll = (error: Error) => {
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };

  const start = (): Worker => {
    const started = new Worker(new URL('./picture-render-worker.ts', import.meta.url), { name: 'picture-render' });
    started.unref();
    started.on('message', (message: { id: number; outcome?: RenderOutcome; error?: string }) => {
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.outcome) waiting.resolve(message.outcome);
      else waiting.reject(new Error(message.error ?? 'the picture render worker failed'));
    });
    started.on('error', (error) => failAll(error));
    started.on('exit', (code) => {
      if (worker === started) worker = null;
      failAll(new Error(`the picture render worker stopped (exit code ${code})`));
    });
    return started;
  };

  return {
    render: (file) =>
      new Promise<RenderOutcome>((resolve, reject) => {
        worker ??= start();
        const id = nextId++;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, file });
      }),
    close: async () => {
      const running = worker;
      worker = null;
      if (running) await running.terminate();
    },
  };
}
