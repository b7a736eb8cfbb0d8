/**
 * The server started as `npm start` starts it (SERVER_COMMAND, scripts/server-flags.ts) in a process group
 * of its own, its output appended to a log file, for the journeys that run servers as processes
 * (tests/support/cluster.ts, tests/support/production-stack.ts). Resolves once GET /readyz answers 200;
 * a start that fails says why with the end of the log.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SERVER_COMMAND } from '../../scripts/server-flags.ts';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The last lines of a log (for error messages). */
export function logTail(file: string, lines = 40): string {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n') : '(no log)';
}

/** Resolves once GET /readyz answers 200 (the database reachable and a site served), or throws after `timeoutMs`. */
export async function waitForReady(url: string, timeoutMs: number, stillRunning: () => boolean = () => true): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last: string;
  for (;;) {
    try {
      const answer = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5_000) });
      last = `${answer.status} ${await answer.text()}`;
      if (answer.status === 200) return;
    } catch (error) {
      last = (error as Error).message;
    }
    if (!stillRunning()) throw new Error(`${url} exited before it was ready (last answer: ${last})`);
    if (Date.now() > until) throw new Error(`${url}/readyz not ready after ${timeoutMs} ms (last answer: ${last})`);
    await sleep(250);
  }
}

/**
 * Starts the server with `env` (added to the given `baseEnv`) detached, and waits until it is ready at `url`.
 * Answers the child (its pid is the process group's); the caller unrefs or keeps it.
 */
export async function startServerProcess(options: {
  env: Record<string, string>;
  baseEnv: NodeJS.ProcessEnv;
  logFile: string;
  url: string;
  readyTimeoutMs: number;
  /** Called with the child as soon as it is spawned (before it is ready), e.g. to record its pid. */
  onSpawn?: (child: ChildProcess) => void;
}): Promise<ChildProcess> {
  const log = openSync(options.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(SERVER_COMMAND, { shell: true, detached: true, cwd: projectRoot, env: { ...options.baseEnv, ...options.env }, stdio: ['ignore', log, log] });
  } finally {
    closeSync(log);
  }
  if (child.pid === undefined) throw new Error(`the server for ${options.url} could not be started`);
  let exited: string | null = null;
  child.once('exit', (code, signal) => (exited = `exit code ${code}, signal ${signal}`));
  options.onSpawn?.(child);
  try {
    await waitForReady(options.url, options.readyTimeoutMs, () => exited === null);
  } catch (error) {
    throw new Error(`${(error as Error).message} (${exited ?? 'still running'})\n--- end of ${options.logFile}:\n${logTail(options.logFile)}`, { cause: error });
  }
  return child;
}
