import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_COMMAND, SERVER_ENV, SERVER_NODE_FLAGS } from '../../scripts/server-flags.ts';

describe('how the main job is started', () => {
  it('npm start runs scripts/start.ts with the environment and flags the benchmark and tests use', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['start']).toBe(SERVER_COMMAND);
    expect(SERVER_COMMAND).toBe(
      `MALLOC_ARENA_MAX=${SERVER_ENV.MALLOC_ARENA_MAX} MALLOC_MMAP_THRESHOLD_=${SERVER_ENV.MALLOC_MMAP_THRESHOLD_} node ${SERVER_NODE_FLAGS.join(' ')} scripts/start.ts`,
    );
  });
});
