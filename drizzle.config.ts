import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate` writes a new migration after a change to the schema. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './src/server/db/migrations',
  strict: true,
  verbose: true,
});
