import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatabaseLockedError, openDatabase } from '#server/db/client.ts';

describe('the embedded database', () => {
  it('refuses a second opening of the same PGlite directory with a clear message', async () => {
    const dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'pglite-lock-')), 'db');
    const first = await openDatabase({ pgliteDir: dir });
    try {
      await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(DatabaseLockedError);
      await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(/already open in process \d+/);
    } finally {
      await first.close();
    }
    // Closed: it opens again.
    const again = await openDatabase({ pgliteDir: dir });
    await again.close();
    await rm(path.dirname(dir), { recursive: true, force: true });
  });
});
