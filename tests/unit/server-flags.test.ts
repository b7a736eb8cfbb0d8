import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../scripts/server-flags.ts';

describe('the main job V8 flags', () => {
  it('npm start runs scripts/start.ts with the flags the benchmark and tests use', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['start']).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} scripts/start.ts`);
  });
});
