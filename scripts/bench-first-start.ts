/**
 * The first-start part of `npm run bench` (issue 19: "`npm start` serves the site in under 20 seconds on a
 * fresh clone"): `npm start` itself, as a newcomer runs it, on an empty data folder with the demo content,
 * timed until it answers (/healthz) and until it serves the site (/readyz: a build present). The data
 * folder is deleted after.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

export async function benchFirstStart(record: { fact: (fact: string) => void }, port = 3950): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'annonce-first-start-'));
  const started = Date.now();
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  try {
    let upMs: number | null = null;
    const until = started + 10 * 60_000;
    while (Date.now() < until) {
      if (upMs === null && (await answers(`http://127.0.0.1:${port}/healthz`))) upMs = Date.now() - started;
      if (await answers(`http://127.0.0.1:${port}/readyz`)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const readyMs = Date.now() - started;
    record.fact(
      `npm start on an empty data folder (demo content): answering after ${((upMs ?? readyMs) / 1000).toFixed(1)} s, serving the site after ${(readyMs / 1000).toFixed(1)} s (target under 20 s: ${readyMs < 20_000 ? 'met' : 'NOT met'})`,
    );
  } finally {
    // npm start runs node under npm's shell: stop the whole group.
    process.kill(-child.pid!, 'SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}
