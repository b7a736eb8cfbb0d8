import { existsSync } from 'node:fs';
import { link, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTreeQuietly } from '../../src/server/jobs/remove-quietly.ts';

let base: string | undefined;
afterEach(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

describe('removing an old site build at the lowest priority', () => {
  it('removes a nested tree and leaves the files it shared by hard link with the served build', async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'remove-quietly-'));
    const served = path.join(base, 'builds', 'new');
    const old = path.join(base, 'builds', 'old');
    await mkdir(path.join(served, 'annonce', 'a-1'), { recursive: true });
    await mkdir(path.join(old, 'annonce', 'a-1'), { recursive: true });
    await writeFile(path.join(served, 'annonce', 'a-1', 'index.html'), '<p>kept</p>');
    await link(path.join(served, 'annonce', 'a-1', 'index.html'), path.join(old, 'annonce', 'a-1', 'index.html'));
    for (let i = 0; i < 50; i += 1) await writeFile(path.join(old, `page-${i}.html`), 'old');

    await removeTreeQuietly(old);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(path.join(served, 'annonce', 'a-1', 'index.html'))).toBe(true);
  });

  it('resolves when there is nothing to remove', async () => {
    await expect(removeTreeQuietly(path.join(os.tmpdir(), 'remove-quietly-none', 'x'))).resolves.toBeUndefined();
  });
});
