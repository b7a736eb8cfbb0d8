import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendProblem } from './http.ts';

/**
 * The one guard against cross-site requests for every state-changing API call (POST, PUT, PATCH, DELETE
 * under /api/), run before the body is read. Session cookies are SameSite=Lax, which lets a page on
 * another port of the same host (the same *site*) post with them; this guard does not rest on that.
 *
 * - Origin: a browser names the page's origin on every cross-origin request and every POST. The call is
 *   let through when it is one of the site's own origins (SITE_URL and ALLOWED_ORIGINS), or when the browser
 *   says Sec-Fetch-Site: same-origin (the page came from this server, at whatever address it was reached);
 *   any other (another port or host, `null` from a sandboxed page or a file) is 403.
 * - Neither Origin nor Sec-Fetch-Site: not a browser (browsers send at least one of them on every
 *   cross-origin POST since 2020-2023), so no cross-site forgery: let through. curl, the site build
 *   and the scripts are such clients; they hold their own credentials.
 * - Body: only application/json and multipart/form-data (415 otherwise, also for a body without a type).
 *   The types an HTML form can send cross-site without a preflight (text/plain,
 *   application/x-www-form-urlencoded) are never accepted.
 * - Server-to-server callbacks authenticated by a signature of their body (`config: { signedCallback:
 *   true }`: the video encoder's postbacks, the age provider's callback) skip the Origin check; their
 *   own parsers accept JSON only. The carrier provider's callback (dimocopostback) is a form post as the
 *   provider sends it: `formCallback: true` (only with `signedCallback`) admits its urlencoded body; its
 *   digest over the body is its authority.
 *
 * A POST's input is read from its body only, never from the query string (`readInput`, ./http.ts).
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A server-to-server call authenticated by a signature of its body: no Origin check (./cross-site.ts). */
    signedCallback?: boolean;
    /** With signedCallback: the provider posts application/x-www-form-urlencoded (./cross-site.ts). */
    formCallback?: boolean;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const BODY_TYPES = new Set(['application/json', 'multipart/form-data']);

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether the browser (if any) sent this request from one of the site's own pages (not merely the same site: another port is refused). */
export function comesFromOwnPages(request: FastifyRequest, allowedOrigins: ReadonlySet<string>): boolean {
  const origin = header(request, 'origin');
  const fetchSite = header(request, 'sec-fetch-site');
  if (origin !== undefined && allowedOrigins.has(origin.toLowerCase())) return true;
  if (fetchSite !== undefined) return fetchSite === 'same-origin' || fetchSite === 'none';
  return origin === undefined;
}

/** Whether the body (if any) is JSON or multipart. */
function hasAcceptedBody(request: FastifyRequest): boolean {
  const type = header(request, 'content-type');
  if (type === undefined) {
    const length = header(request, 'content-length');
    return header(request, 'transfer-encoding') === undefined && (length === undefined || length === '0');
  }
  return BODY_TYPES.has(type.split(';')[0]!.trim().toLowerCase());
}

export function registerCrossSiteGuard(app: FastifyInstance, options: { allowedOrigins: string[] }): void {
  const allowed = new Set(options.allowedOrigins.map((origin) => new URL(origin).origin.toLowerCase()));
  app.addHook('onRequest', async (request, reply) => {
    if (!STATE_CHANGING.has(request.method)) return;
    // The matched route as well as the raw path: an encoded path (/%61pi/…) that the router decodes is checked too.
    if (!request.url.startsWith('/api/') && !request.routeOptions.url?.startsWith('/api/')) return;
    const problem = { type: 'about:blank', instance: request.url, requestId: request.id };
    if (!request.routeOptions.config?.signedCallback && !comesFromOwnPages(request, allowed)) {
      request.log.info({ origin: header(request, 'origin'), fetchSite: header(request, 'sec-fetch-site') }, 'cross-site request refused');
      return sendProblem(reply, {
        ...problem,
        title: 'Forbidden',
        status: 403,
        detail: 'Cross-site requests are refused: call the API from the site itself',
        errors: [{ field: 'Origin', message: 'crossSite' }],
      });
    }
    const config = request.routeOptions.config;
    const signedForm = config?.signedCallback === true && config.formCallback === true && header(request, 'content-type')?.split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
    if (!signedForm && !hasAcceptedBody(request)) {
      return sendProblem(reply, {
        ...problem,
        title: 'Unsupported Media Type',
        status: 415,
        detail: 'Send the body as application/json or multipart/form-data',
        errors: [{ field: 'Content-Type', message: 'unsupported' }],
      });
    }
  });
}
