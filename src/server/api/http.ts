import type { SearchTermCounter } from '../domain/search/search-terms.ts';
import type { VerificationPolicy } from '../domain/verification/support-validation.ts';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AfterResponse } from './after-response.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { AppError, httpStatusOf, type FieldError } from '../domain/errors.ts';
import type { Actor, DomainContext, DomainEvents } from '../domain/context.ts';
import type { Db } from '../db/client.ts';
import type { MediaStorage, Messaging, NotificationHub, PaymentProviders } from '../adapters/types.ts';
import type { MediaWork } from '../domain/media/media-work.ts';
import type { PictureRenderer } from '../domain/media/picture-renderer.ts';
import { resolveAdvertiserSession, resolveSupportSession, type SessionIdle } from '../domain/accounts/sessions.ts';
import type { SecretKeys } from '../domain/secret-box.ts';

/** What every door needs from the running server. */
export type ApiDeps = {
  db: Db;
  /** Visitors' search terms, counted in memory on the search path (domain/search/search-terms.ts). */
  searchTerms: SearchTermCounter;
  events: DomainEvents;
  sessionDays: number;
  /** Idle timeouts of advertiser and support sessions (ADVERTISER_/SUPPORT_SESSION_IDLE_MINUTES). */
  sessionIdle: SessionIdle;
  /** Served over HTTPS (SITE_URL https): Secure cookies with the `__Host-` prefix (`sessionCookieName`). */
  cookieSecure: boolean;
  /** SECRETS_KEY (and previous keys): seals authenticator secrets at rest (domain/secret-box.ts). */
  secrets: SecretKeys;
  now: () => Date;
  /** Mail and SMS (the outbox, SMTP when configured), made once by the server. */
  messaging: Messaging;
  /** Multiplies the per-address rate limits of the account calls (RATE_LIMIT_SCALE, default 1). */
  rateLimitScale: number;
  /** Where media files live (local disk or S3), made once by the server (docs/decisions/013). */
  storage: MediaStorage;
  /** The bounded queue every heavy media task runs through (MEDIA_CONCURRENCY). */
  mediaWork: MediaWork;
  /** Decodes and encodes pictures in a worker thread, off the main thread. */
  pictureRenderer: PictureRenderer;
  /** Messages to an advertiser's notification-hub connections, on every instance. */
  hub: NotificationHub;
  /** Signs and checks the video encoder's postbacks (ENCODER_SECRET, else one per start). */
  encoderSecret: string;
  /** The site's public address (SITE_URL). */
  siteUrl: string;
  /**
   * Development only: links back to the visitor and the hub follow the address they opened when it is one
   * of this machine's (api/own-address.ts); SITE_URL stays the only origin otherwise.
   */
  followVisitorAddress?: boolean;
  /** Whether a built-in TEST provider's result may verify (never with NODE_ENV=production). */
  verificationPolicy: VerificationPolicy;
  /** The site build's credential for its bulk call, fullprofiles (SITE_BUILD_TOKEN, else one per start). */
  siteBuildToken: string;
  /** Work a door starts after its answer (the same answer time whatever the work finds: after-response.ts). */
  afterResponse: AfterResponse;
  /** The payment providers by method (PAYMENT_CARD, …; docs/decisions/025-commerce.md). */
  payments: PaymentProviders;
  /** NODE_ENV: development and test reveal what production never shows (the outbox's undelivered codes and links). */
  environment: 'development' | 'production' | 'test';
};

/** The advertiser's session (`sid`) or support's (`support_sid`). */
export type SessionKind = 'advertiser' | 'support';

/**
 * The one place a session cookie's name is made (doors, the hub, impersonation, tests): `sid` and
 * `support_sid`, and over HTTPS `__Host-sid` and `__Host-support_sid`, which browsers accept only with
 * Secure, Path=/ and no Domain, so no other host (a subdomain) can set or shadow them.
 */
export function sessionCookieName(kind: SessionKind, secure: boolean): string {
  const base = kind === 'advertiser' ? 'sid' : 'support_sid';
  return secure ? `__Host-${base}` : base;
}

/** The session token the request carries for this kind of session. */
export function sessionTokenOf(request: FastifyRequest, deps: Pick<ApiDeps, 'cookieSecure'>, kind: SessionKind): string | undefined {
  return request.cookies[sessionCookieName(kind, deps.cookieSecure)];
}

/** The advertiser behind the request's `sid` cookie (idle timeout applied), or a visitor. */
export function advertiserOfRequest(deps: Pick<ApiDeps, 'db' | 'cookieSecure' | 'sessionIdle' | 'now'>, request: FastifyRequest): Promise<Actor> {
  return resolveAdvertiserSession(deps.db, sessionTokenOf(request, deps, 'advertiser'), deps.now(), deps.sessionIdle);
}

/** The support user behind the request's `support_sid` cookie (idle timeout applied), or a visitor. */
export function supportOfRequest(deps: Pick<ApiDeps, 'db' | 'cookieSecure' | 'sessionIdle' | 'now'>, request: FastifyRequest): Promise<Actor> {
  return resolveSupportSession(deps.db, sessionTokenOf(request, deps, 'support'), deps.now(), deps.sessionIdle);
}

export function contextFor(deps: ApiDeps, request: FastifyRequest, actor: Actor): DomainContext {
  return {
    db: deps.db,
    actor,
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    events: deps.events,
    now: deps.now,
    storage: deps.storage,
  };
}

/**
 * Reads a call's input, matching the spec's parameter names case-insensitively (`Id`, `id` and `ID` are
 * the same), then validates it. GET (and HEAD) calls read the query string; every other call reads its
 * JSON body only, never the query string: a state change cannot be smuggled into a link or a form's
 * action URL (docs/security.md, ./cross-site.ts).
 */
export function readInput<TSchema extends v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>>(
  request: FastifyRequest,
  schema: TSchema,
): v.InferOutput<TSchema> {
  const raw: Record<string, unknown> = {};
  const source = request.method === 'GET' || request.method === 'HEAD' ? request.query : request.body;
  if (typeof source === 'object' && source !== null && !Array.isArray(source)) {
    for (const [key, value] of Object.entries(source as Record<string, unknown>)) raw[key.toLowerCase()] = value;
  }
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(schema.entries)) {
    const value = raw[key.toLowerCase()];
    if (value !== undefined) input[key] = value;
  }
  const result = v.safeParse(schema, input);
  if (!result.success) {
    const fields: FieldError[] = result.issues.map((issue) => ({
      field: issue.path?.map((p) => String(p.key)).join('.') ?? '',
      message: issue.message,
    }));
    throw new AppError('INVALID', 'Some required fields are missed', fields);
  }
  return result.output;
}

/**
 * PostgreSQL cannot store the NUL character in text (nor should any text we keep hold one): input with one
 * is refused as bad input, naming the field, before any call reads it. Checked for every request's query,
 * path parameters and parsed body by a hook of the app (src/server/app.ts).
 */
export function assertNoNulCharacters(request: FastifyRequest): void {
  const field = nulFieldOf(request.query, '') ?? nulFieldOf(request.params, '') ?? nulFieldOf(request.body, '');
  if (field !== null) throw new AppError('INVALID', 'Some required fields are missed', [{ field, message: 'invalid' }]);
}

/** The path of the first string (or key) holding a NUL character, or null. */
function nulFieldOf(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (typeof value !== 'object' || value === null || depth > 32 || Buffer.isBuffer(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return path || key;
    const found = nulFieldOf(item, itemPath, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Error codes of a full disk (or an exhausted quota), ours or the database's (PostgreSQL's 53100
 * disk_full): the server answers 503 and asks to try again later.
 */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', '53100']);

/** Whether an error, or one of its causes, is a full disk (or quota). */
export function isDiskFull(error: unknown): boolean {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 10; current = (current as { cause?: unknown }).cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
  }
  return false;
}

/** Seconds a client is asked to wait before trying again after a 503 (Retry-After). */
export const RETRY_AFTER_SECONDS = 120;

/**
 * Calls for the site build only (the bulk `fullprofiles`, with every advert's phone): the request carries
 * the build's credential as `Authorization: Bearer {SITE_BUILD_TOKEN}`; anyone else gets 401.
 */
export function requireSiteBuild(deps: ApiDeps, request: FastifyRequest): void {
  const given = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const digest = (value: string) => createHash('sha256').update(value).digest();
  if (!given || !timingSafeEqual(digest(given), digest(deps.siteBuildToken))) {
    throw new AppError('UNAUTHENTICATED', "This call is for the site build: send the build's credential (SITE_BUILD_TOKEN)");
  }
}

/** A query value that may come as a comma list ("1,2,3") or repeated. */
export const idList = v.pipe(
  v.union([v.string(), v.array(v.string())]),
  v.transform((value) => (Array.isArray(value) ? value.join(',') : value)),
  v.transform((value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  ),
  v.check((parts) => parts.every((part) => /^\d+$/.test(part)), 'ids'),
  v.transform((parts) => parts.map(Number)),
);

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  requestId?: string;
  errors?: FieldError[];
};

/** Answers an RFC 9457 problem document. */
export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  // A 503 is temporary (a full disk, a provider away): say when to try again.
  if (problem.status === 503 && !reply.hasHeader('Retry-After')) reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
  return reply.code(problem.status).type('application/problem+json; charset=utf-8').send(problem);
}

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function problemFromError(error: unknown, request: FastifyRequest): Problem {
  if (error instanceof AppError) {
    const status = httpStatusOf(error.code);
    return {
      type: `about:blank`,
      title: titles[status] ?? 'Error',
      status,
      detail: error.message,
      instance: request.url,
      requestId: request.id,
      ...(error.fields.length ? { errors: error.fields } : {}),
    };
  }
  const statusCode = (error as { statusCode?: number }).statusCode;
  if (statusCode && statusCode >= 400 && statusCode < 500) {
    return {
      type: 'about:blank',
      title: titles[statusCode] ?? 'Error',
      status: statusCode,
      detail: (error as Error).message,
      instance: request.url,
      requestId: request.id,
    };
  }
  if (isDiskFull(error)) {
    return {
      type: 'about:blank',
      title: titles[503]!,
      status: 503,
      detail: 'The server cannot store this now. Try again later.',
      instance: request.url,
      requestId: request.id,
    };
  }
  return {
    type: 'about:blank',
    title: titles[500]!,
    status: 500,
    detail: 'Something went wrong. The error was logged.',
    instance: request.url,
    requestId: request.id,
  };
}

export function setSessionCookie(
  reply: FastifyReply,
  deps: ApiDeps,
  kind: SessionKind,
  session: { token: string; expiresAt: Date },
): void {
  reply.setCookie(sessionCookieName(kind, deps.cookieSecure), session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.cookieSecure,
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, deps: ApiDeps, kind: SessionKind): void {
  reply.clearCookie(sessionCookieName(kind, deps.cookieSecure), { path: '/', httpOnly: true, sameSite: 'lax', secure: deps.cookieSecure });
}

/** Public answers may be cached briefly by browsers and CDNs (ETag comes from @fastify/etag-like hashing). */
export function cachePublic(reply: FastifyReply, seconds = 60): void {
  reply.header('Cache-Control', `public, max-age=${seconds}, stale-while-revalidate=${seconds * 5}`);
}

export function noStore(reply: FastifyReply): void {
  reply.header('Cache-Control', 'no-store');
}
