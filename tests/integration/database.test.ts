import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DatabaseLockedError, openDatabase, rowsOf } from '#server/db/client.ts';
import { idArray, textArray } from '#server/db/any-of.ts';

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

describe('lists as one array parameter (db/any-of.ts)', () => {
  it('keeps every value as it is, whatever characters it has, on the database the tests run on', async () => {
    const url = process.env['DATABASE_URL'];
    const handle = await openDatabase(url ? { databaseUrl: url } : { pgliteDir: 'memory://' });
    try {
      const values = ['plain', 'a,b', '"quoted"', 'back\\slash', '{braces}', 'æøå søgning', '', 'NULL'];
      const texts = rowsOf<{ value: string }>(await handle.db.execute(sql`select unnest(${textArray(values)}) as value`));
      expect(texts.map((row) => row.value)).toEqual(values);
      const ids = rowsOf<{ value: number }>(await handle.db.execute(sql`select unnest(${idArray([3, 1, 2])}) as value`));
      expect(ids.map((row) => Number(row.value))).toEqual([3, 1, 2]);
      expect(() => idArray([1.5])).toThrow(TypeError);
    } finally {
      await handle.close();
    }
  });
});
