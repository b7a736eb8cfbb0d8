/**
 * Issue 15, item 12: which errors mean a full disk (answered 503 with Retry-After by problemFromError):
 * the system's own ENOSPC (a real one, written to /dev/full), a quota's EDQUOT, PostgreSQL's disk_full,
 * also as the cause of a wrapping error (Drizzle wraps the driver's).
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { isDiskFull } from '#server/api/http.ts';

describe('isDiskFull', () => {
  it('knows a real ENOSPC, EDQUOT and PostgreSQL disk_full, also as a cause', async () => {
    const enospc = await writeFile('/dev/full', 'x').then(
      () => null,
      (error: unknown) => error,
    );
    expect((enospc as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(isDiskFull(enospc)).toBe(true);
    expect(isDiskFull(Object.assign(new Error('quota'), { code: 'EDQUOT' }))).toBe(true);
    const pg = Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' });
    expect(isDiskFull(new Error('Failed query: insert …', { cause: pg }))).toBe(true);
  });

  it('does not take other errors for a full disk', () => {
    expect(isDiskFull(Object.assign(new Error('missing'), { code: 'ENOENT' }))).toBe(false);
    expect(isDiskFull(Object.assign(new Error('unique'), { code: '23505' }))).toBe(false);
    expect(isDiskFull(null)).toBe(false);
  });
});
