import type { FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { AppError, httpStatusOf, type FieldError } from '../domain/errors.ts';
import type { Actor, DomainContext, DomainEvents } from '../domain/context.ts';
import type { Db } from '../db/client.ts';
import type { MediaStorage, Messaging, NotificationHub } from '../adapters/types.ts';
import type { MediaWork } from '../domain/media/media-work.ts';
import type { PictureRenderer } from '../domain/media/picture-renderer.ts';

/** What every door needs from the running server. */
export type ApiDeps = {
  db: Db;
  events: DomainEvents;
  sessionDays: number;
  cookieSecure: boolean;
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
};

export const ADVERTISER_COOKIE = 'sid';
export const SUPPORT_COOKIE = 'support_sid';

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
 * Reads a call's input from the query string and the JSON body together, matching the spec's
 * parameter names case-insensitively (`Id`, `id` and `ID` are the same), then validates it.
 */
export function readInput<TSchema extends v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>>(
  request: FastifyRequest,
  schema: TSchema,
): v.InferOutput<TSchema> {
  const raw: Record<string, unknown> = {};
  const sources = [request.query, request.body].filter(
    (source): source is Record<string, unknown> => typeof source === 'object' && source !== null && !Array.isArray(source),
  );
  for (const source of sources) {
    for (const [key, value] of Object.entries(source)) raw[key.toLowerCase()] = value;
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
  name: string,
  session: { token: string; expiresAt: Date },
): void {
  reply.setCookie(name, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.cookieSecure,
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, deps: ApiDeps, name: string): void {
  reply.clearCookie(name, { path: '/', httpOnly: true, sameSite: 'lax', secure: deps.cookieSecure });
}

/** Public answers may be cached briefly by browsers and CDNs (ETag comes from @fastify/etag-like hashing). */
export function cachePublic(reply: FastifyReply, seconds = 60): void {
  reply.header('Cache-Control', `public, max-age=${seconds}, stale-while-revalidate=${seconds * 5}`);
}

export function noStore(reply: FastifyReply): void {
  reply.header('Cache-Control', 'no-store');
}
