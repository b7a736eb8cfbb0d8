/**
 * The permanent redirects of moved public addresses (path_redirects: a published SEO page given a new
 * address, a renamed city; src/server/domain/site/redirects.ts), kept in memory so a page request never
 * waits for the database: read at start, again after every `content.changed` of this instance (each
 * change that moves an address publishes one after its transaction), and every minute for the changes
 * other instances make.
 */
import type { Db } from './db/client.ts';
import { listPathRedirects, sitePath } from './domain/site/redirects.ts';

export type MovedPaths = {
  /** Where a moved path leads now (with both slashes), or null. */
  targetOf: (pathname: string) => string | null;
  /** Reads the redirects again (errors are the caller's to log). */
  refresh: () => Promise<void>;
  stop: () => void;
};

export function createMovedPaths(db: Db, onError: (error: unknown) => void, everyMs = 60_000): MovedPaths {
  let targets = new Map<string, string>();
  let pending: Promise<void> | null = null;
  let again = false;
  const load = async () => {
    targets = new Map((await listPathRedirects(db)).map((row) => [row.fromPath, row.toPath]));
  };
  /** One read at a time; a refresh asked for during a read reads once more afterwards. */
  const refresh = (): Promise<void> => {
    if (pending) {
      again = true;
      return pending;
    }
    pending = (async () => {
      try {
        do {
          again = false;
          await load();
        } while (again);
      } finally {
        pending = null;
      }
    })();
    return pending;
  };
  const timer = setInterval(() => refresh().catch(onError), everyMs);
  timer.unref();
  return {
    targetOf: (pathname) => (targets.size === 0 || !pathname.endsWith('/') ? null : (targets.get(sitePath(pathname)) ?? null)),
    refresh,
    stop: () => clearInterval(timer),
  };
}
