/**
 * ky clients per API area (`/api/frontend/`, `/api/backend/`, `/api/support/`) with the error behaviour of
 * spec section 8 (see ./errors.ts). Same-origin cookies carry the session; no auth header.
 * Only GET is retried (once, on a network error or 408/502/503/504); POST, PUT and DELETE never are.
 */
import ky, { HTTPError, type KyInstance } from 'ky';
import { isApiErrorStatus, ApiError, HttpError, REQUEST_ABORTED } from './errors.ts';

export type ApiArea = 'frontend' | 'backend' | 'support';

export type SearchParams = Record<string, string | number | boolean | undefined | null>;

export type RequestOptions = {
  searchParams?: SearchParams;
  /** A JSON body (POST/PUT). */
  json?: unknown;
  /** A multipart body (uploads). */
  body?: FormData;
  signal?: AbortSignal;
  /** Milliseconds, or false for none; default 30 s. */
  timeout?: number | false;
  /** The call outlives the page (a count sent just before the browser goes to another page). */
  keepalive?: boolean;
};

export type ApiClient = {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, options?: RequestOptions): Promise<T>;
  put<T>(path: string, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
};

export type ClientOptions = {
  /** Origin of the API, e.g. 'http://127.0.0.1:3000'; empty (the default) means the page's own origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Headers sent with every call (the site build's credential). */
  headers?: Record<string, string>;
};

function cleanSearchParams(params: SearchParams | undefined): Record<string, string> | undefined {
  if (!params) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) out[key] = String(value);
  }
  return out;
}

/** The answer's body, JSON parsed where it is JSON. Reading it may fail (a cancel, a broken connection). */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** Turns what ky throws into the spec's errors. */
async function toSpecError(error: unknown, signal: AbortSignal | undefined): Promise<unknown> {
  if (error instanceof HTTPError) {
    const { response } = error;
    const init = {
      url: response.url || error.request.url,
      status: response.status,
      statusText: response.statusText,
      // An error's body that cannot be read still leaves its status to go by.
      body: await readBody(response).catch(() => undefined),
    };
    return isApiErrorStatus(response.status) ? new ApiError(init) : new HttpError(init);
  }
  if (isAbort(error) || signal?.aborted) return new Error(REQUEST_ABORTED, { cause: error });
  return error;
}

export function createApiClient(area: ApiArea, options: ClientOptions = {}): ApiClient {
  const base = (options.baseUrl ?? '').replace(/\/+$/, '');
  const instance: KyInstance = ky.create({
    prefixUrl: `${base}/api/${area}/`,
    credentials: 'same-origin',
    timeout: 30_000,
    retry: { limit: 1, methods: ['get'], statusCodes: [408, 502, 503, 504] },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const searchParams = cleanSearchParams(opts.searchParams);
    try {
      const response = await instance(path.replace(/^\/+/, ''), {
        method,
        ...(searchParams ? { searchParams } : {}),
        ...(opts.json !== undefined ? { json: opts.json } : {}),
        ...(opts.body ? { body: opts.body } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.timeout !== undefined ? { timeout: opts.timeout } : {}),
        ...(opts.keepalive ? { keepalive: true } : {}),
      });
      if (response.status === 204) return undefined as T;
      return (await readBody(response)) as T;
    } catch (error) {
      throw await toSpecError(error, opts.signal);
    }
  }

  return {
    get: (path, opts) => request('get', path, opts),
    post: (path, opts) => request('post', path, opts),
    put: (path, opts) => request('put', path, opts),
    delete: (path, opts) => request('delete', path, opts),
  };
}
