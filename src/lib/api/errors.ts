/** The errors of spec section 8, raised by the ky clients in ./client.ts. */

/** RFC 9457 problem details, as our API answers errors. */
export type ProblemDetails = {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: { field: string; message: string }[];
};

/** Statuses that raise an ApiError; any other non-ok status raises an HttpError. */
export const API_ERROR_STATUSES = [400, 401, 403, 404, 500, 502, 503] as const;
export type ApiErrorStatus = (typeof API_ERROR_STATUSES)[number];

/** Whether a status raises an ApiError (else an HttpError). */
export function isApiErrorStatus(status: number): status is ApiErrorStatus {
  return (API_ERROR_STATUSES as readonly number[]).includes(status);
}

type HttpErrorInit = { url: string; status: number; statusText: string; body: unknown };

/** Any non-ok answer: carries url, status, statusText and body (parsed JSON when possible). */
abstract class HttpFailure extends Error {
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly body: unknown;

  constructor(init: HttpErrorInit) {
    super(`${init.status} ${init.statusText}`.trim() + ` (${init.url})`);
    this.url = init.url;
    this.status = init.status;
    this.statusText = init.statusText;
    this.body = init.body;
  }
}

/** 400, 401, 403, 404, 500, 502 or 503 (spec section 8). */
export class ApiError extends HttpFailure {
  override readonly name = 'ApiError';

  /** The body as problem details, when it is one. */
  get problem(): ProblemDetails | undefined {
    return isProblem(this.body) ? this.body : undefined;
  }

  /** The per-field errors of a 400 answer ([] when none). */
  get fieldErrors(): { field: string; message: string }[] {
    return this.problem?.errors ?? [];
  }
}

/** Any other non-ok status (the spec's generic error). */
export class HttpError extends HttpFailure {
  override readonly name = 'HttpError';
}

/** The message of the error raised when a request is cancelled. */
export const REQUEST_ABORTED = 'Request aborted';

export function isProblem(value: unknown): value is ProblemDetails {
  return typeof value === 'object' && value !== null && ('title' in value || 'status' in value || 'errors' in value);
}

/** True for an ApiError with the given status. */
/**
 * Whether the error is an ApiError (of this status). Only the statuses that raise one can be asked for:
 * a 409, 410 or 429 is an HttpError, and asking for it here would never match (a type error instead).
 */
export function isApiError(error: unknown, status?: ApiErrorStatus): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/**
 * The problem+json field errors of a failed call, whatever its status: a 400 (ApiError) and also the
 * refusals the client raises as HttpError (409 duplicate or emailTaken, 410 restoreExpired, 429 tooSoon),
 * whose bodies carry field errors too; [] for anything else.
 */
export function fieldErrorsOf(error: unknown): { field: string; message: string }[] {
  if ((error instanceof ApiError || error instanceof HttpError) && isProblem(error.body)) return error.body.errors ?? [];
  return [];
}

/** The HTTP status of a failed call, or undefined (network error, abort). */
export function statusOf(error: unknown): number | undefined {
  return error instanceof ApiError || error instanceof HttpError ? error.status : undefined;
}
