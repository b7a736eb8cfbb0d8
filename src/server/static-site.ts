import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientAddressReader, type TrustProxySetting } from './client-address.ts';
import { createSiteFiles, type Answer, type SiteFiles } from './site-files.ts';
import { currentSiteDir } from './jobs/site-build.ts';
import type { Db } from './db/client.ts';
import { advertIdFromPath, findAdvertRoute, findLegacyRoute, oldAdvertIdFromPath } from './domain/search/advert-route.ts';
import { canonicalLandingPath } from './domain/search/landing-path.ts';
import type { MovedPaths } from './moved-paths.ts';

/** Client-only apps and shells: any path below the prefix is answered by the prefix's index.html. */
const REWRITES: { prefix: string; file: string }[] = [
  { prefix: '/backend/', file: 'backend/index.html' },
  { prefix: '/support/', file: 'support/index.html' },
  { prefix: '/search/', file: 'search/index.html' },
  { prefix: '/en/search/', file: 'en/search/index.html' },
];

/** Served by routes of their own (the built-in TEST providers' pages: src/server/api/test-age-provider.ts, test-card-provider.ts). */
const PASSTHROUGH = /^\/(api|media|_astro|notificationhub|healthz|readyz|metrics|test-age-provider|test-payments)(\/|$)/;
/** Legacy advert URLs (`/P/{slug}--{id}.html`) are redirected, never given a slash first. */
const LEGACY_ADVERT = /^\/(en\/)?P\//;

/**
 * The file of the build a URL path names, relative to the build (`/x/` is `x/index.html`); null for a
 * path that cannot name one (bad percent-encoding, a segment starting with a dot: `..`, `.build-info.json`;
 * a precompressed copy).
 */
export function builtFilePath(pathname: string): string | null {
  let decoded = pathname;
  if (pathname.includes('%')) {
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
  }
  if (decoded.includes('/.')) return null;
  // The build's precompressed copies (`x.br`, `x.gz`, for nginx: docs/deploy) are never answers of their own.
  if (/\.(br|gz)$/.test(decoded)) return null;
  let start = 0;
  while (decoded.charCodeAt(start) === 47 /* / */) start += 1;
  const relative = start === 0 ? decoded : decoded.slice(start);
  return relative === '' || relative.endsWith('/') ? `${relative}index.html` : relative;
}

/** The path part of a request URL (no query). */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** Paths without a query get a trailing slash (spec §2), except files (a dot in the last segment). */
export function trailingSlashTarget(url: string): string | null {
  if (url.includes('?')) return null;
  if (url.endsWith('/') || PASSTHROUGH.test(url) || LEGACY_ADVERT.test(url)) return null;
  const last = url.slice(url.lastIndexOf('/') + 1);
  if (last.includes('.')) return null;
  return `${url}/`;
}

/**
 * Answers a request before Fastify sees it when it can: true when answered. Set as the HTTP server's
 * first handler (app.ts `serverFactory`).
 */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

/** Headers of a Fastify answer that are the answer's own, not the ones every answer carries. */
const OWN_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'cache-control', 'etag', 'vary', 'x-request-id', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The request id of every request, Fastify's (app.ts `genReqId`) and the fast path's: the caller's X-Request-Id when it is sane, else a new one. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
}

/**
 * The fast path for the built site (issue 19): a GET or HEAD of a file of the served build that is in
 * memory is answered at once, before Fastify's routing and hooks, with the same headers as Fastify's
 * answer (the security headers every answer gets are taken from Fastify's own answer to /healthz when
 * the server listens) and one log line like every other request's. Anything else (a redirect to come, a
 * rewrite, an advert or legacy address, the API, a file not in memory or not looked at within a second)
 * goes on to Fastify, which also fills the memory.
 */
function createFastPath(
  app: FastifyInstance,
  files: SiteFiles,
  trustProxy: TrustProxySetting,
): FastPath {
  /** Names and values of the headers every answer gets, in one flat list (as `writeHead` takes raw headers). */
  let common: string[] | null = null;
  // Once listening (inject waits for the app to be ready, so not in onReady); until then Fastify answers all.
  app.addHook('onListen', async () => {
    const probe = await app.inject({ method: 'GET', url: '/healthz' });
    common = Object.entries(probe.headers)
      .filter(([name, value]) => !OWN_HEADERS.has(name) && typeof value === 'string')
      .flatMap(([name, value]) => [name, value as string]);
  });
  const clientAddress = clientAddressReader(trustProxy);
  /** Each answer's headers as writeHead takes them (SiteFiles keeps a file's plain answers: made once). */
  const rawHeaders = new WeakMap<Answer, string[]>();
  // The app's logger is pino's (app.ts `loggerInstance`).
  const log = app.log as unknown as Logger;
  return (request, response) => {
    if (common === null || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
    const url = request.url ?? '/';
    const pathname = pathOf(url);
    if (PASSTHROUGH.test(pathname) || trailingSlashTarget(url) !== null) return false;
    const file = builtFilePath(pathname);
    const answer = file === null ? null : files.answer(request, file);
    if (answer === null) return false;
    const started = performance.now();
    const id = requestIdOf(request);
    let headers = rawHeaders.get(answer);
    if (!headers) {
      headers = [...common];
      for (const name in answer.headers) headers.push(name, String(answer.headers[name]));
      rawHeaders.set(answer, headers);
    }
    response.writeHead(answer.status, [...headers, 'x-request-id', id]);
    response.end(answer.body);
    // Requests are logged at debug unless they fail or are slow (app.ts OneLinePerRequest); these do neither.
    if (log.isLevelEnabled('debug')) {
      const ip = clientAddress(request);
      log.debug(
        { reqId: id, req: { id, method: request.method, url, ip }, res: { statusCode: answer.status }, fastPath: true, responseTime: Math.round((performance.now() - started) * 10) / 10 },
        'request',
      );
    }
    return true;
  };
}

/**
 * Serves the last good build from DATA_DIR/site/current (a link swapped atomically by each build),
 * with the rewrites the client-only apps need and the 404 page for everything else. Answers the fast
 * path the server calls first (see `createFastPath`).
 */
export async function registerStaticSite(
  app: FastifyInstance,
  siteDir: string,
  deps: { db: Db; now: () => Date; movedPaths?: MovedPaths; trustProxy: TrustProxySetting },
): Promise<FastPath> {
  const files = createSiteFiles(currentSiteDir(siteDir));
  const fastPath = createFastPath(app, files, deps.trustProxy);
  /** Whether the served build has the page a URL path names. */
  const built = async (pathname: string): Promise<boolean> => {
    const file = builtFilePath(pathname);
    return file !== null && (await files.exists(file));
  };
  /** The 404 page in the path's language. */
  const notFoundPageFor = async (pathname: string): Promise<string> =>
    pathname.startsWith('/en/') && (await files.exists('en/404.html')) ? 'en/404.html' : '404.html';

  /**
   * Landing paths written another way (case, æøå, ae/oe/aa): a permanent redirect to the canonical,
   * built path, the query kept. Unknown places stay 404. True when answered.
   * (The helpers answer true/false, never the reply: awaiting a reply waits for the answer to finish.)
   */
  const answerLandingPath = async (url: string, reply: FastifyReply): Promise<boolean> => {
    const [pathname, query] = url.split('?') as [string, string | undefined];
    const target = await canonicalLandingPath(deps.db, pathname);
    if (!target || target === pathname || !(await built(target))) return false;
    reply.redirect(`${target}${query ? `?${query}` : ''}`, 301);
    return true;
  };

  /**
   * Advert URLs that are not a built file: another slug, a bare id or the legacy form redirect
   * permanently to the canonical page; a public advert whose page is not built yet gets the 404 page's
   * shell with status 200 (it renders the advert from the API, noindex); a locked one the blocked page.
   * True when answered.
   */
  const answerAdvertPath = async (pathname: string, request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const id = advertIdFromPath(pathname);
    if (id === null) return false;
    const route = await findAdvertRoute(deps.db, id, deps.now());
    if (!route) return false;
    const english = pathname.startsWith('/en/');
    const canonical = `${english ? '/en' : ''}${route.canonicalPath}`;
    if (route.state === 'blocked') {
      const blocked = `${english ? 'en/' : ''}advert-blocked/index.html`;
      if (!(await files.exists(blocked))) return false;
      reply.header('X-Robots-Tag', 'noindex');
      return files.send(request, reply, blocked, { status: 404 });
    }
    if (route.state !== 'public') return false;
    if (pathname !== canonical) {
      reply.redirect(canonical, 301);
      return true;
    }
    reply.header('X-Robots-Tag', 'noindex');
    return files.send(request, reply, await notFoundPageFor(pathname), { cacheControl: 'no-cache' });
  };

  /**
   * The old site's advert addresses (`/P/{slug}--{old id}.html/`, issue 18): 301 to the imported advert's
   * page once it is public, 410 with the not-found page when it will never be (refused, deleted, never
   * claimed); anything else is not found. True when answered.
   */
  const answerLegacyPath = async (pathname: string, request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const oldId = oldAdvertIdFromPath(pathname);
    if (oldId === null) return false;
    const route = await findLegacyRoute(deps.db, oldId, deps.now());
    if (route?.state === 'public') {
      reply.redirect(`${pathname.startsWith('/en/') ? '/en' : ''}${route.canonicalPath}`, 301);
      return true;
    }
    if (route?.state !== 'gone') return false;
    reply.header('X-Robots-Tag', 'noindex');
    return files.send(request, reply, await notFoundPageFor(pathname), { status: 410 });
  };

  /**
   * Every GET and HEAD outside the API and assets: the trailing-slash redirect; a file of the build,
   * answered here from the in-memory cache (most requests: no database, no file system); else the
   * answers for paths with no built file (advert URLs, unnormalised landing paths, moved addresses).
   */
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const pathname = pathOf(request.url);
    if (PASSTHROUGH.test(pathname)) return;
    const target = trailingSlashTarget(request.url);
    if (target) return reply.redirect(target, 301);
    const file = builtFilePath(pathname);
    if (file !== null && (await files.send(request, reply, file))) return reply;
    if (
      (await answerAdvertPath(pathname, request, reply)) ||
      (await answerLegacyPath(pathname, request, reply)) ||
      (await answerLandingPath(request.url, reply))
    )
      return reply;
    // An address that moved (an SEO page's new address, a renamed city) and has no page of its own now: 301.
    const moved = deps.movedPaths?.targetOf(pathname);
    if (moved) {
      const query = request.url.indexOf('?');
      return reply.redirect(`${moved}${query === -1 ? '' : request.url.slice(query)}`, 301);
    }
  });

  /** Every other GET (assets; pages the hook found no file for): a file of the build, else the not-found handler. */
  const servePath = async (request: FastifyRequest, reply: FastifyReply) => {
    const file = builtFilePath(pathOf(request.url));
    return file !== null && (await files.send(request, reply, file)) ? reply : reply.callNotFound();
  };
  app.route({ method: ['GET', 'HEAD'], url: '/*', handler: servePath });

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = pathOf(request.url);
    if (pathname.startsWith('/api/')) {
      return reply
        .code(404)
        .type('application/problem+json; charset=utf-8')
        .send({ type: 'about:blank', title: 'Not Found', status: 404, detail: `No API call at ${pathname}`, requestId: request.id });
    }
    if (!(await files.exists('index.html'))) {
      return reply
        .code(503)
        .header('Retry-After', '10')
        .type('text/html; charset=utf-8')
        .send('<!doctype html><html lang="da"><meta charset="utf-8"><title>Siden bygges</title><p>Siden bygges – prøv igen om lidt. / The site is being built – try again shortly.</p></html>');
    }
    if (request.method === 'GET' || request.method === 'HEAD') {
      // The spec's sitemap address; @astrojs/sitemap writes an index beside its chunks.
      if (pathname === '/googlesitemap.xml' && (await files.send(request, reply, 'googlesitemap-index.xml'))) return reply;
      const rewrite = REWRITES.find((r) => pathname.startsWith(r.prefix));
      if (rewrite && (await files.send(request, reply, rewrite.file))) return reply;
    }
    if (await files.send(request, reply, await notFoundPageFor(pathname), { status: 404 })) return reply;
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });
  return fastPath;
}
