import pinoPretty from 'pino-pretty';
import pino, { type Logger, type LoggerOptions } from 'pino';

/**
 * What the logs may hold (issue 15, item 6). Request URLs carry secrets (links' tokens, review and sign-in
 * codes, the QR hand-off, the age provider's session) and personal data (support's searches by email or
 * phone, the outbox's `To`), and database errors carry their parameters (names, emails, phones). So:
 *
 * - a request is logged as its path and only the query parameters named in `LOGGED_QUERY_PARAMETERS`
 *   (paging, language, ids, kinds): every other value is replaced by `[redacted]`, whatever its name, so a
 *   new parameter is safe before anyone thinks of it;
 * - path segments that are secrets (`TOKEN_PATH_SEGMENTS`) are replaced too;
 * - an error is logged without the parameters of its query (Drizzle's `params` in its message and stack,
 *   PGlite's `params`, PostgreSQL's `detail` "Key (email)=(…)") and without the value PostgreSQL quotes
 *   in "invalid input syntax" messages;
 * - cookies, authorization headers, Set-Cookie and password or token fields are censored wherever they
 *   appear in a record.
 */

export const REDACTED = '[redacted]';

/**
 * The query parameters (compared case-insensitively, like `readInput` reads them) whose values are logged:
 * paging, language, ids of records and fixed kinds. Never a token, a code, a free text, an email or a phone.
 */
export const LOGGED_QUERY_PARAMETERS: ReadonlySet<string> = new Set(
  [
    'Skip', 'Take', 'Page', 'PageSize', 'AfterId', 'Locale', 'Locales', 'Lang',
    'Id', 'Ids', 'ProfileId', 'AdvertId', 'PictureId', 'VideoId', 'ReviewId', 'RegionId', 'CityId', 'NationalityId', 'TypeId',
    'Kind', 'File', 'Status', 'Type', 'Gender', 'Sort', 'Pending', 'Validated', 'NotValidated', 'InProgress', 'Open',
  ].map((name) => name.toLowerCase()),
);

/**
 * Every query parameter of the product that carries a secret (a link's token, a code, a session): the unit
 * test checks each is redacted. None may ever be in `LOGGED_QUERY_PARAMETERS`.
 */
export const TOKEN_QUERY_PARAMETERS = [
  'url', // emailverification and /backend/basic/?url= (email link), impersonate and /impersonate/?url=
  'token', // changepassword and /login/change/?token= (reset link)
  'confirm', // /create/?confirm= and /en/create/?confirm= (the sign-up link; confirmsignup takes it in its body)
  'claim', // /create/?claim= (the invitation to take over an advert of the old site; claimmigratedadvert takes it in its body)
  'code', // codeverification, review codes, two-step sign-in codes
  'handoff', // the QR hand-off of /backend/verification/?handoff=
  'sessionid', // the age provider's session (/backend/callback-age-verification/?sessionId=, checksession)
  'password',
  'newpassword',
  'secret',
  'signature',
  'key',
  // The card provider's postback and return (cardbillingpostback, /backend/callback-payment/): its ids of a sale.
  'saleid',
  'referenceid',
  'transactionid',
  'truncatedpan',
] as const;

/**
 * Paths whose segment after the prefix is a secret or a visitor's own words: the age provider's hosted
 * page (its session), the TEST card provider's hosted page (its session), the TEST crypto provider's invoice page and invoice read-back (the invoice id) and the free-text search page `/search/{text}/` (which may be a name or a phone).
 */
export const TOKEN_PATH_SEGMENTS: readonly RegExp[] = [/^(\/test-age-provider\/)[^/?#]+/i, /^(\/test-payments\/card\/)[^/?#]+/i, /^(\/test-payments\/crypto\/(?:api\/v3\/invoices\/)?)[^/?#]+/i, /^(\/test-payments\/carrier\/)(?!start(?:[/?#]|$))[^/?#]+/i, /^((?:\/en)?\/search\/)[^/?#]+/i];

/** A request URL as it may be logged: the path (secret segments replaced) and only the harmless query values. */
export function loggableUrl(url: string): string {
  const queryAt = url.indexOf('?');
  let path = queryAt === -1 ? url : url.slice(0, queryAt);
  for (const pattern of TOKEN_PATH_SEGMENTS) path = path.replace(pattern, `$1${REDACTED}`);
  if (queryAt === -1) return path;
  const parts = url
    .slice(queryAt + 1)
    .split('&')
    .filter(Boolean)
    .map((part) => {
      const equals = part.indexOf('=');
      const rawName = equals === -1 ? part : part.slice(0, equals);
      let name: string;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        name = rawName;
      }
      // A name that is not plain (could itself be a value pasted as a name) is not logged either.
      if (!/^[\w.[\]-]{1,40}$/.test(name)) return REDACTED;
      if (equals === -1) return name;
      return LOGGED_QUERY_PARAMETERS.has(name.toLowerCase()) ? `${name}=${part.slice(equals + 1)}` : `${name}=${REDACTED}`;
    });
  return `${path}?${parts.join('&')}`;
}

/** Error properties that carry a query's values: dropped from logged errors. */
const ERROR_VALUE_KEYS = new Set(['params', 'parameters', 'queryOptions', 'detail', 'where', 'internalQuery', 'raw']);

/**
 * Error texts without the personal data they may quote: the value PostgreSQL quotes in some messages
 * ("invalid input syntax for type uuid: \"…\""), email addresses (a mail server's "recipient rejected
 * <…>") and Danish phone numbers.
 */
function withoutPersonalData(message: string): string {
  return message
    .replace(/((?:invalid input (?:syntax|value)|value too long|out of range)[^:\n]*: )"[^\n]*"/gi, `$1"${REDACTED}"`)
    .replace(/[^\s<>()"',;:@]+@[^\s<>()"',;:@]+\.[a-z]{2,}/gi, REDACTED)
    .replace(/(?:\+45[\s-]?)?\b(?:\d{8}|\d{2}(?:[ -]\d{2}){3})\b/g, REDACTED);
}

/** A field of an error, its texts made safe (arrays and plain objects a few levels deep). */
function safeField(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return withoutPersonalData(value);
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 3) return '[object]';
  if (Array.isArray(value)) return value.map((item) => safeField(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return String(value);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, ERROR_VALUE_KEYS.has(key) ? undefined : safeField(item, depth + 1)]));
}

type ErrorLike = Error & Record<string, unknown>;

function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
}

/** The message of one error without the parameters of its query (Drizzle: "Failed query: …\nparams: …"). */
function safeMessage(error: ErrorLike): string {
  const params = error.message.indexOf('\nparams: ');
  return withoutPersonalData(params === -1 ? error.message : error.message.slice(0, params));
}

/** The error chain (the error and its causes), at most 10 deep. */
function chainOf(error: ErrorLike): ErrorLike[] {
  const chain: ErrorLike[] = [];
  for (let current: unknown = error; isErrorLike(current) && chain.length < 10 && !chain.includes(current); current = current.cause) chain.push(current);
  return chain;
}

/** One error's stack, its first line ("Name: message", the message possibly over lines) made safe. */
function safeStack(error: ErrorLike): string | undefined {
  if (typeof error.stack !== 'string') return undefined;
  const head = error.stack.indexOf(error.message);
  const frames = error.stack.indexOf('\n    at ');
  const rest = head !== -1 ? error.stack.slice(head + error.message.length) : frames !== -1 ? error.stack.slice(frames) : '';
  return `${error.name}: ${safeMessage(error)}${rest}`;
}

/**
 * Logs an error like pino's standard serializer (type, message with its causes', stack, own properties
 * such as `code` and `constraint`, the cause as its own record) but without any value of a failed query.
 */
export function serializeError(value: unknown, depth = 0): unknown {
  if (!isErrorLike(value)) return value;
  const out: Record<string, unknown> = {
    type: value.constructor?.name && value.constructor.name !== 'Object' ? value.constructor.name : value.name,
    message: chainOf(value).map(safeMessage).join(': '),
    stack: safeStack(value),
  };
  for (const key of Object.keys(value)) {
    if (key === 'message' || key === 'stack' || key === 'cause' || ERROR_VALUE_KEYS.has(key)) continue;
    const field = value[key];
    if (isErrorLike(field)) out[key] = depth < 5 ? serializeError(field, depth + 1) : undefined;
    else out[key] = safeField(field, 0);
  }
  if (Array.isArray(value['errors']) && depth < 5) out['errors'] = (value['errors'] as unknown[]).map((error) => serializeError(error, depth + 1));
  if (isErrorLike(value.cause) && depth < 5) out['cause'] = serializeError(value.cause, depth + 1);
  return out;
}

type LoggedRequest = { method: string; url: string; id: string; ip?: string };

/** The serializers and censored paths of every log record, for the root logger and the app's child. */
export const logSerializers = {
  req: (req: LoggedRequest) => ({ id: req.id, method: req.method, url: loggableUrl(req.url ?? ''), ip: req.ip }),
  err: (error: unknown) => serializeError(error),
};

export const logRedaction: NonNullable<LoggerOptions['redact']> = {
  paths: [
    'req.headers.cookie',
    'req.headers.authorization',
    'req.headers["x-site-build-token"]',
    'headers.cookie',
    'headers.authorization',
    'res.headers["set-cookie"]',
    '*.password',
    '*.newPassword',
    '*.token',
  ],
  censor: REDACTED,
};

/**
 * Logs; cookies, auth headers, passwords, tokens, personal query values and query parameters never reach
 * them. JSON (one object a line) for log collectors; in a terminal (`auto` with a TTY, or `pretty`) one
 * readable line a record by pino-pretty, a request as `GET /path 200 3.1 ms`.
 */
export function createLogger(level: string, format: 'auto' | 'json' | 'pretty' = 'auto', destination?: NodeJS.WritableStream): Logger {
  const options = { level, redact: logRedaction, serializers: logSerializers };
  if (format === 'json' || (format === 'auto' && !process.stdout.isTTY)) return destination ? pino(options, destination as pino.DestinationStream) : pino(options);
  return pino(
    options,
    pinoPretty({
      ...(destination ? { destination } : {}),
      colorize: !destination && Boolean(process.stdout.isTTY),
      singleLine: true,
      sync: true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,reqId,req,res,responseTime',
      messageFormat: '{msg}{if req.method} {req.method}{end}{if req.url} {req.url}{end}{if res.statusCode} {res.statusCode}{end}{if responseTime} {responseTime} ms{end}',
    }),
  );
}

/**
 * The same rules on a logger made elsewhere (tests, embedders): the app logs through this child, so its
 * records are safe whatever root logger it was given.
 */
export function withLogRules(logger: Logger): Logger {
  return logger.child({}, { serializers: logSerializers, redact: logRedaction });
}
