import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll waits on a condition: a second (the default) is short for a busy 2-core machine.
          expect: { poll: { timeout: 10_000, interval: 50 } },
          // PGlite is single-threaded WASM; two workers match the machine's two cores.
          maxWorkers: 2,
        },
      },
    ],
    setupFiles: ['tests/support/fail-on-console-error.ts'],
  },
});
