import { realpath, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Serves files of the built site from memory: each file is read once, compressed once per encoding
 * (Brotli, gzip) and kept in a least-recently-used cache bounded in bytes. Builds live in folders of
 * their own, so a file's real path never changes content: a new build simply brings new keys and the
 * old ones age out.
 */
type Entry = { raw: Buffer; etag: string; type: string; encoded: Map<string, Buffer>; bytes: number };

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

export type SiteFiles = {
  /** Sends a file of the served build (path relative to it); null when there is no such file. */
  send: (request: FastifyRequest, reply: FastifyReply, relativePath: string, status?: number) => Promise<FastifyReply | null>;
};

export function createSiteFiles(root: string, options: { maxBytes?: number } = {}): SiteFiles {
  const maxBytes = options.maxBytes ?? 128 * 1024 * 1024;
  const cache = new Map<string, Entry>();
  let total = 0;

  const remember = (key: string, entry: Entry) => {
    cache.set(key, entry);
    total += entry.bytes;
    for (const [oldKey, old] of cache) {
      if (total <= maxBytes) break;
      cache.delete(oldKey);
      total -= old.bytes;
    }
  };

  const load = async (file: string): Promise<Entry | null> => {
    const cached = cache.get(file);
    if (cached) {
      cache.delete(file);
      cache.set(file, cached);
      return cached;
    }
    let info;
    try {
      info = await stat(file);
    } catch {
      return null;
    }
    if (!info.isFile() || info.size > MAX_FILE) return null;
    const raw = await readFile(file);
    const entry: Entry = {
      raw,
      etag: `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
      type: TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      encoded: new Map(),
      bytes: raw.length,
    };
    remember(file, entry);
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
      total += body.length;
    }
    return body;
  };

  return {
    send: async (request, reply, relativePath, status = 200) => {
      let base: string;
      try {
        base = await realpath(root);
      } catch {
        return null;
      }
      const file = path.join(base, relativePath);
      if (!file.startsWith(base + path.sep)) return null;
      const entry = await load(file);
      if (!entry) return null;

      reply.header(
        'Cache-Control',
        relativePath.startsWith('_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
      );
      reply.header('ETag', entry.etag);
      reply.header('Vary', 'Accept-Encoding');
      reply.type(entry.type);
      if (status === 200 && request.headers['if-none-match'] === entry.etag) return reply.code(304).send();

      const accepted = String(request.headers['accept-encoding'] ?? '');
      const compressible = COMPRESSIBLE.test(entry.type) && entry.raw.length > 1024;
      const encoding = !compressible ? null : /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
      const body = encoding ? encode(entry, encoding) : entry.raw;
      if (encoding) reply.header('Content-Encoding', encoding);
      reply.header('Content-Length', body.length);
      return reply.code(status).send(request.method === 'HEAD' ? undefined : body);
    },
  };
}
