/**
 * A scratch folder for the files a spec makes (pictures, clips). With `fullyParallel`, a worker runs a
 * file's afterAll after each group of its tests and may run more of that file's tests afterwards, so the
 * folder is made again whenever a path in it is asked for (a fixed folder removed by afterAll made the
 * next test fail with "unable to open for write").
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function scratchFolder(prefix: string): { file: (name: string) => string; remove: () => void } {
  const dir = path.join(tmpdir(), `${prefix}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  return {
    file: (name) => {
      mkdirSync(dir, { recursive: true });
      return path.join(dir, name);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
