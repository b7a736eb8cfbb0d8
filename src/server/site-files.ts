import { realpath, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Serves files of the built site from memory: each file is read once, compressed once per encoding
 * (Brotli, gzip) and kept in a least-recently-used cache bounded in bytes. Builds live in folders of
 * their own, so a new build simply brings new keys and the old ones age out.
 *
 * Nothing on the way of a cached answer touches the file system: the served build (the real folder
 * behind the `current` link) is looked up again only after TRUST_MS, and so is a cached file (a stat:
 * same size and time, or it is read again / dropped) or a file found missing. A swap, or a file changed
 * in place, is served within that time. (A `realpath` per request was a third of the server's time on
 * a cached page.)
 */
type Entry = {
  /** Its key in the cache: the file's path. */
  file: string;
  raw: Buffer;
  etag: string;
  type: string;
  compressible: boolean;
  encoded: Map<string, Buffer>;
  bytes: number;
  /** When the file was last seen as it is (Date.now()). */
  checkedAt: number;
  /** The fast path's answers (GET or HEAD, and encoding): made once per file, as its bytes are. */
  answers: Map<string, Answer>;
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = /^(text\/|application\/(json|xml|manifest)|image\/svg)/;
const MAX_FILE = 8 * 1024 * 1024;
/** How long the served build's folder, a cached file or a missing one is trusted before it is looked at again. */
export const TRUST_MS = 1000;
/** Files known missing: at most this many remembered. */
const MAX_MISSING = 10_000;

export type SendOptions = {
  /** Default 200. */
  status?: number;
  /** Default: a year for hashed assets (`_astro/`), else revalidate every time. */
  cacheControl?: string;
};

export type SiteFiles = {
  /**
   * Sends a file of the served build (path relative to it): true when sent, false when there is no such
   * file. (Not the reply: a reply is a thenable, and awaiting one waits for the answer to be finished.)
   */
  send: (request: FastifyRequest, reply: FastifyReply, relativePath: string, options?: SendOptions) => Promise<boolean>;
  /** Whether the served build has this file (path relative to it); it is read into the cache if so. */
  exists: (relativePath: string) => Promise<boolean>;
  /**
   * The answer to a plain GET or HEAD of a file, at once and only from memory (the fast path,
   * `static-fast-path.ts`): null unless the file is cached and was seen as it is within TRUST_MS (then the
   * request goes the slow way, which looks at the disk and fills the cache).
   */
  answer: (request: IncomingMessage, relativePath: string) => Answer | null;
};

/** An answer as `SiteFiles` makes it: status, the file's own headers, the body (none for HEAD and 304). */
export type Answer = { status: number; headers: Record<string, string | number>; body: Buffer | undefined };

/** Plain answers kept per file (one per method and Accept-Encoding value seen; a few in practice). */
const MAX_ANSWERS = 8;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';

export function createSiteFiles(root: string, options: { maxBytes?: number } = {}): SiteFiles {
  const maxBytes = options.maxBytes ?? 128 * 1024 * 1024;
  const cache = new Map<string, Entry>();
  /** Files found missing, with when. */
  const missing = new Map<string, number>();
  let total = 0;
  let served: { dir: string; checkedAt: number } | null = null;
  let resolving: Promise<string | null> | null = null;

  /** Reads where `current` points now (one lookup for all requests waiting); null before the first build. */
  const resolveRoot = (): Promise<string | null> => {
    resolving ??= realpath(root)
      .then(
        (dir) => {
          served = { dir, checkedAt: Date.now() };
          return dir;
        },
        () => {
          served = null;
          return null;
        },
      )
      .finally(() => {
        resolving = null;
      });
    return resolving;
  };

  /** The served build's real folder, looked up again after TRUST_MS. */
  const servedRoot = (): string | Promise<string | null> =>
    served !== null && Date.now() - served.checkedAt < TRUST_MS ? served.dir : resolveRoot();

  const forget = (key: string) => {
    const entry = cache.get(key);
    if (!entry) return;
    cache.delete(key);
    total -= entry.bytes;
  };

  const remember = (key: string, entry: Entry) => {
    forget(key); // two requests may have read the same file at once
    cache.set(key, entry);
    total += entry.bytes;
    for (const [oldKey, old] of cache) {
      if (total <= maxBytes) break;
      cache.delete(oldKey);
      total -= old.bytes;
    }
  };

  const rememberMissing = (file: string, now: number) => {
    missing.delete(file);
    if (missing.size >= MAX_MISSING) missing.delete(missing.keys().next().value!);
    missing.set(file, now);
  };

  /** The file's ETag from its size and time; 'missing' when there is no such file (or only a folder). */
  const look = async (file: string): Promise<{ etag: string; size: number } | 'missing' | null> => {
    let info;
    try {
      info = await stat(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : null;
    }
    if (!info.isFile()) return 'missing';
    return { etag: `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`, size: info.size };
  };

  /** A new entry for a file (null when it is too big to keep in memory). */
  const read = async (file: string, etag: string, size: number, now: number): Promise<Entry | null> => {
    if (size > MAX_FILE) return null;
    const raw = await readFile(file);
    const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    const compressible = COMPRESSIBLE.test(type) && raw.length > 1024;
    return { file, raw, etag, type, compressible, encoded: new Map(), bytes: raw.length, checkedAt: now, answers: new Map() };
  };

  /** A file of the served build, from the cache or read into it; null when the build has no such file. */
  const load = async (relativePath: string): Promise<Entry | null> => {
    const base = await servedRoot();
    if (base === null) return null;
    const file = path.join(base, relativePath);
    if (!file.startsWith(base + path.sep)) return null;
    const now = Date.now();
    const cached = cache.get(file);
    if (cached && now - cached.checkedAt < TRUST_MS) {
      cache.delete(file);
      cache.set(file, cached);
      return cached;
    }
    if (!cached && now - (missing.get(file) ?? -Infinity) < TRUST_MS) return null;

    const seen = await look(file);
    if (seen === 'missing') {
      forget(file);
      rememberMissing(file, now);
      return null;
    }
    if (seen === null) return null;
    missing.delete(file);
    if (cached && cached.etag === seen.etag) {
      cached.checkedAt = now;
      cache.delete(file);
      cache.set(file, cached);
      return cached;
    }
    forget(file);
    const entry = await read(file, seen.etag, seen.size, now);
    if (entry) remember(file, entry);
    return entry;
  };

  const encode = (entry: Entry, encoding: 'br' | 'gzip'): Buffer => {
    let body = entry.encoded.get(encoding);
    if (!body) {
      body =
        encoding === 'br'
          ? brotliCompressSync(entry.raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 6, [zlib.BROTLI_PARAM_SIZE_HINT]: entry.raw.length } })
          : gzipSync(entry.raw, { level: 6 });
      entry.encoded.set(encoding, body);
      entry.bytes += body.length;
      if (cache.get(entry.file) === entry) total += body.length;
    }
    return body;
  };

  /**
   * The answer to a request for a cached file: status, the file's own headers and the body (the
   * encoding the client accepts, none for HEAD or 304). One rule for both ways of sending (`send`, `answer`).
   */
  const answerOf = (entry: Entry, relativePath: string, method: string | undefined, headers: IncomingHttpHeaders, { status = 200, cacheControl }: SendOptions): Answer => {
    const fileHeaders: Record<string, string | number> = {
      'cache-control': cacheControl ?? (relativePath.startsWith('_astro/') ? IMMUTABLE : REVALIDATE),
      etag: entry.etag,
      vary: 'Accept-Encoding',
      'content-type': entry.type,
    };
    // A 304 with Content-Length 0, as Fastify sends it.
    if (status === 200 && headers['if-none-match'] === entry.etag) return { status: 304, headers: { ...fileHeaders, 'content-length': 0 }, body: undefined };
    const accepted = entry.compressible ? (headers['accept-encoding'] ?? '') : '';
    const encoding = !entry.compressible ? null : /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
    const body = encoding ? encode(entry, encoding) : entry.raw;
    if (encoding) fileHeaders['content-encoding'] = encoding;
    fileHeaders['content-length'] = body.length;
    return { status, headers: fileHeaders, body: method === 'HEAD' ? undefined : body };
  };

  /**
   * A cached file that may be answered now without looking at the disk, else undefined. The key is joined
   * without normalising (the cache's keys are normal paths): an odd path can only miss, and go the slow way.
   */
  const fresh = (relativePath: string): Entry | undefined => {
    if (served === null) return undefined;
    const now = Date.now();
    if (now - served.checkedAt >= TRUST_MS) return undefined;
    const entry = cache.get(served.dir + path.sep + relativePath);
    if (!entry || now - entry.checkedAt >= TRUST_MS) return undefined;
    return entry;
  };

  return {
    exists: async (relativePath) => (await load(relativePath)) !== null,
    send: async (request, reply, relativePath, options = {}) => {
      const entry = await load(relativePath);
      if (!entry) return false;
      const answer = answerOf(entry, relativePath, request.method, request.headers, options);
      reply.headers(answer.headers);
      reply.code(answer.status).send(answer.body);
      return true;
    },
    answer: (request, relativePath) => {
      const entry = fresh(relativePath);
      if (!entry) return null;
      // A plain answer (no If-None-Match) is the same object for every request of its method and encoding.
      if (request.headers['if-none-match'] !== undefined) return answerOf(entry, relativePath, request.method, request.headers, {});
      const accepted = entry.compressible ? (request.headers['accept-encoding'] ?? '') : '';
      const key = `${request.method === 'HEAD' ? 'HEAD' : 'GET'} ${accepted}`;
      let answer = entry.answers.get(key);
      if (!answer) {
        answer = answerOf(entry, relativePath, request.method, request.headers, {});
        if (entry.answers.size < MAX_ANSWERS) entry.answers.set(key, answer);
      }
      return answer;
    },
  };
}
