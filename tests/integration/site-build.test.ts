import { mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { siteBuilds } from '#server/db/schema.ts';
import { buildSite } from '#server/jobs/site-build.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('the site build', () => {
  it('keeps the last good site online when a build fails, and records the failure', async () => {
    const siteDir = path.join(server.dataDir, 'site');
    const good = path.join(siteDir, 'builds', 'good');
    await mkdir(good, { recursive: true });
    await writeFile(path.join(good, 'index.html'), '<h1>Den gode udgave</h1>');
    await writeFile(path.join(good, '.build-info.json'), JSON.stringify({ id: 'good', pages: 1 }));
    await symlink(path.join('builds', 'good'), path.join(siteDir, 'current'));

    const lines: string[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
    // Nothing answers on port 9: the build cannot read its data and must fail, not publish an empty site.
    await expect(
      buildSite({ siteDir, apiUrl: 'http://127.0.0.1:9', siteUrl: 'http://localhost:3000', log, db: server.db }),
    ).rejects.toThrow(/astro build exited/);

    expect(await readlink(path.join(siteDir, 'current'))).toBe(path.join('builds', 'good'));
    expect(await (await fetch(`${server.url}/`)).text()).toContain('Den gode udgave');
    const [record] = await server.db.select().from(siteBuilds);
    expect(record).toMatchObject({ status: 'failed' });
    expect(lines.join('\n')).toContain('the last good site stays online');
    expect(await readFile(path.join(good, 'index.html'), 'utf8')).toContain('Den gode udgave');
  });
});
