/**
 * A production first start seeds no demo content (issue 30, "No demo content in production"): with the
 * settings docs/security.md asks for, the reference data only (no demo adverts, no demo accounts signing in
 * with the README's password, no demo receipts); a test installation that asks for the demo with the loud
 * consent (ALLOW_DEMO_SEED) gets its adverts but no document in the business's numbering series; development
 * keeps the demo with its receipts. On PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { count, like } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PROVIDERS_CONSENT, loadConfig } from '#server/config.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { accounts, adverts, documentCounters, orders, regions, salesDocuments } from '#server/db/schema.ts';
import { prepareDatabase } from '#server/main.ts';
import { openTestDatabase } from '#tests/support/test-server.ts';

const PRODUCTION = { NODE_ENV: 'production', SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'), SUPPORT_ADMIN_PASSWORD: 'a-long-enough-password' };

type FirstStart = { handle: DatabaseHandle; close: () => Promise<void> };

/** A first start's database preparation with these settings, on a fresh database and data directory. */
async function firstStart(env: Record<string, string>): Promise<FirstStart> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'production-seed-'));
  const { handle, drop } = await openTestDatabase();
  await prepareDatabase(handle, loadConfig({ DATA_DIR: dataDir, SEED_DEMO_ADVERTS: '8', ...env }), pino({ level: 'silent' }));
  return {
    handle,
    close: async () => {
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const countOf = async (handle: DatabaseHandle, table: typeof adverts | typeof salesDocuments | typeof regions) =>
  (await handle.db.select({ n: count() }).from(table))[0]!.n;

describe('the first start in production', () => {
  let production: FirstStart;
  let testInstallation: FirstStart;
  let development: FirstStart;

  beforeAll(async () => {
    production = await firstStart(PRODUCTION);
    testInstallation = await firstStart({ ...PRODUCTION, SEED_DEMO: 'true', ALLOW_DEMO_SEED: TEST_PROVIDERS_CONSENT });
    development = await firstStart({});
  }, 180_000);

  afterAll(async () => {
    await production?.close();
    await testInstallation?.close();
    await development?.close();
  });

  it('seeds the reference data only: no demo adverts, no demo accounts, no receipts', async () => {
    expect(await countOf(production.handle, regions)).toBeGreaterThan(0);
    expect(await countOf(production.handle, adverts)).toBe(0);
    expect((await production.handle.db.select({ n: count() }).from(accounts))[0]!.n).toBe(0);
    expect(await countOf(production.handle, salesDocuments)).toBe(0);
  });

  it('seeds the demo for a test installation that says so, but issues no document in the numbering series', async () => {
    expect(await countOf(testInstallation.handle, adverts)).toBe(8);
    expect((await testInstallation.handle.db.select({ n: count() }).from(orders).where(like(orders.referenceId, 'TEST-PAY-DEMO-%')))[0]!.n).toBeGreaterThan(0);
    expect(await countOf(testInstallation.handle, salesDocuments)).toBe(0);
    // The series starts at 0 (migration 0015): the business's first receipt is still number 1.
    expect(await testInstallation.handle.db.select({ last: documentCounters.last }).from(documentCounters)).toEqual([{ last: 0 }]);
  });

  it('keeps the demo with its receipts in development', async () => {
    expect(await countOf(development.handle, adverts)).toBe(8);
    expect(await countOf(development.handle, salesDocuments)).toBeGreaterThan(0);
  });
});
