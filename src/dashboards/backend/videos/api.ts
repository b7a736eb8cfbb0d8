/** The videos screen's calls (spec §7 media, docs/decisions/013) and their answers. */
import { backendApi } from '#lib/api/backend.ts';
import { ApiError, HttpError, REQUEST_ABORTED, fieldErrorsOf } from '#lib/api/errors.ts';
import { uploadFiles, type UploadOptions } from '#lib/api/upload.ts';
import type { BackendVideo, VideoFailure } from '#lib/schemas/media.ts';

const client = backendApi.client;

const load = (signal?: AbortSignal) => client.get<BackendVideo[]>('profilevideos', signal ? { signal } : {});

const isVideo = (value: unknown): value is BackendVideo => typeof value === 'object' && value !== null && 'processing' in value && 'id' in value;

/** A change answers the list; an answer without one (e.g. 204) is followed by loading it. */
async function listAfter(call: Promise<unknown>): Promise<BackendVideo[]> {
  const answer = await call;
  if (Array.isArray(answer)) return answer as BackendVideo[];
  if (answer && typeof answer === 'object' && Array.isArray((answer as { videos?: unknown }).videos)) return (answer as { videos: BackendVideo[] }).videos;
  return load();
}

const FAILURES: readonly VideoFailure[] = ['notAVideo', 'tooLong', 'tooLarge', 'transcodeFailed'];
const isFailure = (value: unknown): value is VideoFailure => typeof value === 'string' && (FAILURES as readonly string[]).includes(value);

/** What became of an upload: the new video (converting), or why it was refused (null: say 'Something went wrong'). */
export type VideoUploadOutcome = { ok: true; video: BackendVideo | null } | { ok: false; reason: VideoFailure | null };

async function upload(file: File, options: UploadOptions): Promise<VideoUploadOutcome> {
  try {
    const answer = await uploadFiles<unknown>('backend', 'profilevideouploader', [file], options);
    if (isVideo(answer)) return { ok: true, video: answer };
    const inner = (answer as { video?: unknown } | undefined)?.video;
    return { ok: true, video: isVideo(inner) ? inner : null };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw error;
    if (error instanceof Error && error.message === REQUEST_ABORTED) throw error;
    if (error instanceof ApiError || error instanceof HttpError) {
      if (error.status === 413) return { ok: false, reason: 'tooLarge' };
      const reason = fieldErrorsOf(error).map((e) => e.message).find(isFailure);
      if (reason) return { ok: false, reason };
    }
    return { ok: false, reason: null };
  }
}

export const videosApi = {
  load,
  upload,
  setOnline: (id: number, online: boolean) => listAfter(client.post('updatevideostatus', { json: { VideoId: id, Online: online } })),
  reorder: (ids: number[]) => listAfter(client.post('reordervideos', { json: { Ids: ids } })),
  remove: (id: number) => listAfter(client.post('removeimage', { json: { VideoId: id } })),
};

/**
 * The duration of a video file in seconds as the browser reads it from the file's metadata (a <video>
 * element), or null when it cannot (a format it does not play, or no answer within 5 s): then the
 * server's check decides.
 */
export function readDuration(file: File): Promise<number | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    video.preload = 'metadata';
    video.muted = true;
    let finished = false;
    const done = (seconds: number | null) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      resolve(seconds);
    };
    const timer = setTimeout(() => done(null), 5000);
    video.onloadedmetadata = () => done(Number.isFinite(video.duration) ? video.duration : null);
    video.onerror = () => done(null);
    video.src = url;
  });
}
