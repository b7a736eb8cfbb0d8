/**
 * Removes a folder tree at the lowest CPU and I/O priority. An old site build holds ~100,000 files at
 * 50,000 adverts; unlinking them through libuv's thread pool from the server process took the pool and
 * a core for minutes after every rebuild, and searches answered meanwhile waited (p99 tens of ms higher).
 * `rm -rf` under `nice -n 19` (and `ionice -c 3`, idle I/O, where there is one) does the same work in its
 * own process that yields to the server at once. Without those tools (not Linux) it falls back to
 * fs.rm. Resolves when the tree is gone.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';

const find = (...candidates: string[]) => candidates.find((candidate) => existsSync(candidate)) ?? null;
const NICE = find('/usr/bin/nice', '/bin/nice');
const IONICE = find('/usr/bin/ionice', '/bin/ionice');
const RM = find('/bin/rm', '/usr/bin/rm');

export async function removeTreeQuietly(dir: string): Promise<void> {
  if (!NICE || !RM) {
    await rm(dir, { recursive: true, force: true });
    return;
  }
  const command = [NICE, '-n', '19', ...(IONICE ? [IONICE, '-c', '3'] : []), RM, '-rf', '--', dir];
  const ok = await new Promise<boolean>((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
  // Whatever the tools could not remove (or when they could not start), fs.rm removes.
  if (!ok || existsSync(dir)) await rm(dir, { recursive: true, force: true });
}
