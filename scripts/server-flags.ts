/**
 * How the main job's process is started, wherever it is started (`npm start` in package.json, the
 * benchmark, the Lighthouse run, the browser tests); a unit test keeps package.json's "start" equal.
 * Measured at 50,000 adverts in docs/benchmarks/2026-11-22.md (runs 7 and 11); decision 018.
 *
 * V8 flags:
 * - `--max-semi-space-size=8`: a smaller young generation keeps ~100 MB less resident at no measured cost.
 * - `--liftoff-only`: PGlite's WebAssembly runs on V8's baseline compiler only. The optimising compiler
 *   spends ~600 MB for ~0.7 s on one 105 kB function of pglite.wasm at every start, which put the
 *   server's peak at ~940 MB against the 768 MB budget (run 7: peak 714 MB instead of 941 MB, and no loss
 *   in the site's figures; PGlite's queries alone run 1.5–2x slower on baseline code, but the site's hot
 *   paths, search in memory and prebuilt pages, do not wait on them).
 * - `--heap-growing-percent=100`: after a full collection the old generation may grow to twice what is
 *   live, instead of up to four times. Under page load the heap grew to ~300 MB of mostly garbage over
 *   ~80 MB live; with this it stays near 120 MB, pages served as fast (run 11).
 *
 * Environment (read by glibc when the process starts, so it cannot be set from inside):
 * - `MALLOC_ARENA_MAX=2`: at most two malloc arenas, instead of one per thread that ever allocated
 *   (libvips' worker threads, the picture render worker, libuv's pool each kept their own, half empty).
 * - `MALLOC_MMAP_THRESHOLD_=131072`: blocks from 128 kB up (decoded pictures, encoder buffers) are
 *   mapped and given back to the system when freed, instead of staying in the arenas after the first
 *   big one raised glibc's moving threshold. Together: ~140 MB less resident after a batch of uploads.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8', '--liftoff-only', '--heap-growing-percent=100'] as const;

export const SERVER_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' } as const;

/** The command `npm start` runs: the environment, then node with the flags. */
export const SERVER_COMMAND = `${Object.entries(SERVER_ENV)
  .map(([name, value]) => `${name}=${value}`)
  .join(' ')} node ${SERVER_NODE_FLAGS.join(' ')} scripts/start.ts`;
