/**
 * The V8 flags the main job runs with, wherever it is started (`npm start` in package.json, the
 * benchmark, the Lighthouse run, the browser tests); a unit test keeps package.json's "start" equal.
 *
 * - `--max-semi-space-size=8`: a smaller young generation keeps ~100 MB less resident at no measured cost.
 *
 * Not `--liftoff-only` yet, although it lowers the peak memory from ~920 to ~700 MB: V8's optimising
 * compiler spends ~600 MB for about 0.7 s on one 105 kB function of pglite.wasm when PGlite starts.
 * PGlite's queries run 1.5–2x slower on baseline code (alternating runs); whether the site's budgets
 * (build rate, search p99) suffer needs both flags measured back to back on the same machine state
 * (docs/benchmarks/2026-11-22.md, runs 5 and 6).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8'] as const;
