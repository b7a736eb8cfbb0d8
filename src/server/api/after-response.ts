/**
 * Work a door starts after its answer is sent, so the answer takes the same time whatever the work finds
 * (issue 15: a password reset for a known email must not answer slower than for an unknown one). Tasks
 * run one at a time, in the order they were started (so "one reset email a minute" holds for two requests
 * in a row); a failure is logged, never answered; the server waits for the tasks when it closes.
 */
export type AfterResponse = {
  /** Runs `task` once the current answer has gone out (at the earliest on the next turn of the event loop). */
  run: (label: string, task: () => Promise<unknown>) => void;
  /** Resolves when every task started so far has ended (the app's onClose; tests before they look). */
  settle: () => Promise<void>;
};

type ErrorLogger = { error: (details: Record<string, unknown>, message: string) => void };

export function createAfterResponse(log: ErrorLogger): AfterResponse {
  let last: Promise<void> = Promise.resolve();
  return {
    run(label, task) {
      last = last
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(task)
        .then(
          () => undefined,
          (error: unknown) => log.error({ err: error, task: label }, 'work after the answer failed'),
        );
    },
    async settle() {
      let seen: Promise<void> | undefined;
      while (seen !== last) {
        seen = last;
        await seen;
      }
    },
  };
}
