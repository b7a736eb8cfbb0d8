/**
 * The V8 flags the main job runs with, wherever it is started (`npm start` in package.json, the
 * benchmark, the Lighthouse run, the browser tests); a unit test keeps package.json's "start" equal.
 *
 * - `--max-semi-space-size=8`: a smaller young generation keeps ~100 MB less resident at no measured cost.
 * - `--liftoff-only`: PGlite's WebAssembly stays on V8's baseline compiler. The optimising compiler
 *   spends ~600 MB for about half a second on one of PostgreSQL's functions (measured on Node 24:
 *   the 105 kB function #2272 of pglite.wasm), which was most of the server's peak memory
 *   (docs/benchmarks/2026-11-22.md, run 5).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8', '--liftoff-only'] as const;
