/**
 * A PostgreSQL database of a run's own for the servers the browser journeys start in processes of their
 * own (tests/support/cluster.ts, tests/support/production-stack.ts), on postgres://postgres@127.0.0.1:5432:
 * `<prefix>_<random>`, dropped with its connections by `drop` (the servers are stopped by then).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export async function createRunDatabase(prefix: string, neededBy: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect().catch((error: unknown) => {
    throw new Error(`PostgreSQL does not answer at ${POSTGRES_ADMIN_URL}: ${neededBy} needs it`, { cause: error });
  });
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: POSTGRES_ADMIN_URL.replace(/\/postgres$/, `/${name}`),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
