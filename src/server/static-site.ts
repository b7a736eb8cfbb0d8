import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createSiteFiles } from './site-files.ts';
import { currentSiteDir } from './jobs/site-build.ts';
import type { Db } from './db/client.ts';
import { advertIdFromPath, findAdvertRoute } from './domain/search/advert-route.ts';
import { canonicalLandingPath } from './domain/search/landing-path.ts';

/** Client-only apps and shells: any path below the prefix is answered by the prefix's index.html. */
const REWRITES: { prefix: string; file: string }[] = [
  { prefix: '/backend/', file: 'backend/index.html' },
  { prefix: '/support/', file: 'support/index.html' },
  { prefix: '/search/', file: 'search/index.html' },
  { prefix: '/en/search/', file: 'en/search/index.html' },
];

const PASSTHROUGH = /^\/(api|media|_astro|notificationhub|healthz|readyz|metrics)(\/|$)/;
/** Legacy advert URLs (`/P/{slug}--{id}.html`) are redirected, never given a slash first. */
const LEGACY_ADVERT = /^\/(en\/)?P\//;

function builtFileExists(root: string, pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  if (decoded.includes('..')) return false;
  const file = decoded.endsWith('/') ? path.join(root, decoded, 'index.html') : path.join(root, decoded);
  return existsSync(file);
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
 * Serves the last good build from DATA_DIR/site/current (a link swapped atomically by each build),
 * with the rewrites the client-only apps need and the 404 page for everything else.
 */
export async function registerStaticSite(
  app: FastifyInstance,
  siteDir: string,
  deps: { db: Db; now: () => Date },
): Promise<void> {
  const root = currentSiteDir(siteDir);
  const files = createSiteFiles(root);

  /**
   * Landing paths written another way (case, æøå, ae/oe/aa): a permanent redirect to the canonical,
   * built path, the query kept. Unknown places stay 404.
   */
  const answerLandingPath = async (url: string, reply: FastifyReply): Promise<FastifyReply | null> => {
    const [pathname, query] = url.split('?') as [string, string | undefined];
    const target = await canonicalLandingPath(deps.db, pathname);
    if (!target || target === pathname || !builtFileExists(root, target)) return null;
    return reply.redirect(`${target}${query ? `?${query}` : ''}`, 301);
  };

  /**
   * Advert URLs that are not a built file: another slug, a bare id or the legacy form redirect
   * permanently to the canonical page; a public advert whose page is not built yet gets the 404 page's
   * shell with status 200 (it renders the advert from the API, noindex); a locked one the blocked page.
   */
  const answerAdvertPath = async (pathname: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | null> => {
    const id = advertIdFromPath(pathname);
    if (id === null) return null;
    const route = await findAdvertRoute(deps.db, id, deps.now());
    if (!route) return null;
    const english = pathname.startsWith('/en/');
    const canonical = `${english ? '/en' : ''}${route.canonicalPath}`;
    if (route.state === 'blocked') {
      const blocked = `${english ? 'en/' : ''}advert-blocked/index.html`;
      if (!existsSync(path.join(root, blocked))) return null;
      reply.header('X-Robots-Tag', 'noindex');
      return files.send(request, reply, blocked, 404);
    }
    if (route.state !== 'public') return null;
    if (pathname !== canonical) return reply.redirect(canonical, 301);
    reply.header('X-Robots-Tag', 'noindex');
    const sent = await files.send(request, reply, english && existsSync(path.join(root, 'en/404.html')) ? 'en/404.html' : '404.html');
    reply.header('Cache-Control', 'no-cache');
    return sent;
  };

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const target = trailingSlashTarget(request.url);
    if (target) return reply.redirect(target, 301);
    // Paths with no built file that still have an answer: advert URLs and unnormalised landing paths.
    const pathname = request.url.split('?')[0]!;
    if (PASSTHROUGH.test(pathname) || builtFileExists(root, pathname)) return;
    const answered = (await answerAdvertPath(pathname, request, reply)) ?? (await answerLandingPath(request.url, reply));
    if (answered) return answered;
  });

  /** Every other GET: a file of the build (`/x/` is `/x/index.html`), else the not-found handler. */
  const servePath = async (request: FastifyRequest, reply: FastifyReply) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(request.url.split('?')[0]!);
    } catch {
      return reply.callNotFound();
    }
    if (pathname.split('/').some((segment) => segment.startsWith('.'))) return reply.callNotFound();
    const relative = (pathname.endsWith('/') ? `${pathname}index.html` : pathname).replace(/^\/+/, '');
    const sent = await files.send(request, reply, relative);
    return sent ?? reply.callNotFound();
  };
  app.route({ method: ['GET', 'HEAD'], url: '/*', handler: servePath });

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0]!;
    if (pathname.startsWith('/api/')) {
      return reply
        .code(404)
        .type('application/problem+json; charset=utf-8')
        .send({ type: 'about:blank', title: 'Not Found', status: 404, detail: `No API call at ${pathname}`, requestId: request.id });
    }
    if (!existsSync(path.join(root, 'index.html'))) {
      return reply
        .code(503)
        .header('Retry-After', '10')
        .type('text/html; charset=utf-8')
        .send('<!doctype html><html lang="da"><meta charset="utf-8"><title>Siden bygges</title><p>Siden bygges – prøv igen om lidt. / The site is being built – try again shortly.</p></html>');
    }
    if (request.method === 'GET' || request.method === 'HEAD') {
      // The spec's sitemap address; @astrojs/sitemap writes an index beside its chunks.
      if (pathname === '/googlesitemap.xml' && existsSync(path.join(root, 'googlesitemap-index.xml'))) {
        return files.send(request, reply, 'googlesitemap-index.xml');
      }
      const rewrite = REWRITES.find((r) => pathname.startsWith(r.prefix));
      if (rewrite && existsSync(path.join(root, rewrite.file))) {
        const sent = await files.send(request, reply, rewrite.file);
        if (sent) return sent;
      }
    }
    const notFoundPage = pathname.startsWith('/en/') && existsSync(path.join(root, 'en/404.html')) ? 'en/404.html' : '404.html';
    return (await files.send(request, reply, notFoundPage, 404)) ?? reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });
}
