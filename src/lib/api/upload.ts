/**
 * Multipart uploads with progress, for the picture and video uploads of the backend screens and /create.
 * ky (fetch) cannot report upload progress in browsers, so this one module uses XMLHttpRequest and its
 * `upload.onprogress`. Errors follow ./client.ts: an ApiError or HttpError for a non-ok answer, a
 * TypeError for a network failure, an Error with REQUEST_ABORTED when cancelled.
 */
import type { BackendPicture, PictureRefusal, PictureUploadAnswer } from '../schemas/media.ts';
import { isApiErrorStatus, ApiError, HttpError, REQUEST_ABORTED, isProblem } from './errors.ts';
import type { ApiArea } from './client.ts';

/** The multipart field every uploaded file is sent in. */
export const UPLOAD_FIELD = 'file';

export type UploadOptions = {
  /** 0..1 of the bytes sent. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** Form fields sent before the files (e.g. the verification's `Kind` and `Handoff`: the server reads them first). */
  fields?: Record<string, string>;
};

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** POSTs `files` (each in UPLOAD_FIELD) to /api/{area}/{path}; resolves with the parsed JSON answer. */
export function uploadFiles<T>(area: ApiArea, path: string, files: File[], options: UploadOptions = {}): Promise<T> {
  const url = `/api/${area}/${path}`;
  const body = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) body.append(name, value);
  for (const file of files) body.append(UPLOAD_FIELD, file, file.name);
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      options.signal?.removeEventListener('abort', abort);
      const answer = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(1);
        resolve(answer as T);
        return;
      }
      const init = { url, status: xhr.status, statusText: xhr.statusText, body: answer };
      reject(isApiErrorStatus(xhr.status) ? new ApiError(init) : new HttpError(init));
    };
    xhr.onerror = () => {
      options.signal?.removeEventListener('abort', abort);
      reject(new TypeError('Network error during upload'));
    };
    xhr.onabort = () => reject(new Error(REQUEST_ABORTED));
    if (options.signal?.aborted) {
      reject(new Error(REQUEST_ABORTED));
      return;
    }
    options.signal?.addEventListener('abort', abort, { once: true });
    xhr.send(body);
  });
}

const REFUSALS: readonly PictureRefusal[] = ['notAnImage', 'typeMismatch', 'tooLarge', 'tooManyPixels', 'tooManyPictures', 'uploadFailed'];

const isRefusal = (value: unknown): value is PictureRefusal => typeof value === 'string' && (REFUSALS as readonly string[]).includes(value);

export type PictureOutcome = { ok: true; picture: BackendPicture } | { ok: false; reason: PictureRefusal };

/**
 * Uploads ONE picture (so each file has its own progress and result) and says what became of it: the
 * stored picture, or the refusal key (from the answer's result, a problem+json field message, 413 as
 * tooLarge, anything else uploadFailed). A 401 is thrown, for the screen to send the user to sign in.
 */
export async function uploadPicture(area: ApiArea, path: string, file: File, options: UploadOptions = {}): Promise<PictureOutcome> {
  try {
    const answer = await uploadFiles<PictureUploadAnswer>(area, path, [file], options);
    const result = answer?.results?.[0];
    if (result?.ok) return { ok: true, picture: result.picture };
    return { ok: false, reason: result && isRefusal(result.reason) ? result.reason : 'uploadFailed' };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw error;
    if (error instanceof ApiError || error instanceof HttpError) {
      if (error.status === 413) return { ok: false, reason: 'tooLarge' };
      const body = error.body as Partial<PictureUploadAnswer> | undefined;
      const result = Array.isArray(body?.results) ? body.results[0] : undefined;
      if (result && !result.ok && isRefusal(result.reason)) return { ok: false, reason: result.reason };
      const message = isProblem(error.body) ? error.body.errors?.map((e) => e.message).find(isRefusal) : undefined;
      if (message) return { ok: false, reason: message };
    }
    if (error instanceof Error && error.message === REQUEST_ABORTED) throw error;
    return { ok: false, reason: 'uploadFailed' };
  }
}

/** The refusal the browser can decide before sending a picture (null: send it). */
export function pictureRefusedBeforeSending(file: File, maxBytes: number): PictureRefusal | null {
  return file.size > maxBytes ? 'tooLarge' : null;
}
