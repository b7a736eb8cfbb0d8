/**
 * The V8 flags the main job runs with, wherever it is started (`npm start` in package.json, the
 * benchmark, the Lighthouse run, the browser tests); a unit test keeps package.json's "start" equal.
 *
 * - `--max-semi-space-size=8`: a smaller young generation keeps ~100 MB less resident at no measured cost.
 * - `--liftoff-only`: PGlite's WebAssembly runs on V8's baseline compiler only. The optimising compiler
 *   spends ~600 MB for ~0.7 s on one 105 kB function of pglite.wasm at every start, which put the
 *   server's peak at ~940 MB against the 768 MB budget. Measured back to back at 50,000 adverts
 *   (docs/benchmarks/2026-11-22.md, run 7): peak 714 MB instead of 941 MB, and no loss in the site's
 *   figures (build 219 against 209 pages/s; search at half its maximum rate as fast or faster). PGlite's
 *   queries alone run 1.5–2x slower on baseline code, but the site's hot paths (search in memory,
 *   prebuilt pages) do not wait on them.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8', '--liftoff-only'] as const;
