/**
 * /backend/videos/ (spec §2, §7 media, §9 hub): upload one video at a time (type, 500 MB and, when the
 * browser can read it, 3 minutes checked before sending; progress while sending). A new video is
 * "converting" until the notification hub says the poster or the video is ready (VideoThumbnailUploaded,
 * VideoUploaded): the item changes in place, without a reload. The hub's connection state is shown in
 * words. Then: the poster and the player, or a clear failure; online/offline, reorder (drag or buttons,
 * announced), delete after a confirmation, the moderation badge.
 */
import { useEffect, useRef, useState } from 'react';
import { atom } from 'nanostores';
import { isApiError } from '#lib/api/errors.ts';
import { createHub, type HubState } from '#lib/hub.ts';
import { MEDIA_LIMITS, VIDEO_TYPES, type BackendVideo, type VideoFailure, type VideoHubPayload } from '#lib/schemas/media.ts';
import { useAppT } from '../../shared/use-t.ts';
import { backendI18n } from '../i18n.ts';
import { MediaList } from '../media/MediaList.tsx';
import { ScreenShell, useScreenData } from '../screen-data.tsx';
import { goToLogin } from '../../shared/session-ended.ts';
import { readDuration, videosApi } from './api.ts';

export default function VideosScreen() {
  const t = useAppT(backendI18n);
  const { state, reload } = useScreenData(videosApi.load);
  return (
    <ScreenShell id="videos-title" title={t('screens.videos')} intro={t('videos.intro')} state={state} loadError={t('videos.loadError')} onRetry={reload}>
      {(videos) => <VideosManager initial={videos} />}
    </ScreenShell>
  );
}

/** A video from the hub replaces the one in the list (or joins it, when the upload's answer is still on its way). */
function merge(list: BackendVideo[], video: BackendVideo): BackendVideo[] {
  return list.some((v) => v.id === video.id) ? list.map((v) => (v.id === video.id ? video : v)) : [...list, video];
}

function videoOf(payload: unknown): BackendVideo | null {
  const video = (payload as Partial<VideoHubPayload> | undefined)?.video;
  return video && typeof video === 'object' && typeof video.id === 'number' ? video : null;
}

/**
 * Connects to the notification hub while the screen is open (a hub of its own per mount, with its own
 * state store, so a quick unmount and mount never mixes two connections' states) and loads the list
 * again after a reconnect (events sent while away are not replayed).
 */
function useVideoHub(onVideo: (video: BackendVideo) => void, onReconnected: () => void): HubState {
  const handlers = useRef({ onVideo, onReconnected });
  handlers.current = { onVideo, onReconnected };
  const [state, setState] = useState<HubState>('connecting');
  useEffect(() => {
    const store = atom<HubState>('disconnected');
    const receive = (payload: unknown) => {
      const video = videoOf(payload);
      if (video) handlers.current.onVideo(video);
    };
    const hub = createHub(location.origin, { state: store, onVideoUploaded: receive, onVideoThumbnailUploaded: receive });
    const unlisten = store.subscribe(setState);
    hub.connection.onreconnected(() => handlers.current.onReconnected());
    let stopped = false;
    const starting = hub.start().catch((error: unknown) => {
      if (!stopped) console.warn('Notification hub could not connect', error);
    });
    return () => {
      stopped = true;
      unlisten();
      void starting.then(() => hub.stop()).catch(() => undefined);
    };
  }, []);
  return state;
}

type Sending = { name: string; progress: number } | null;
type Result = { kind: 'added' } | { kind: 'refused'; reason: VideoFailure | null } | null;

function VideosManager({ initial }: { initial: BackendVideo[] }) {
  const t = useAppT(backendI18n);
  const [videos, setVideos] = useState(initial);
  const [sending, setSending] = useState<Sending>(null);
  const [result, setResult] = useState<Result>(null);
  const input = useRef<HTMLInputElement>(null);
  const hubState = useVideoHub(
    (video) => setVideos((list) => merge(list, video)),
    () => void videosApi.load().then(setVideos, () => undefined),
  );

  async function send(file: File) {
    setResult(null);
    if (file.size > MEDIA_LIMITS.videoBytes) return setResult({ kind: 'refused', reason: 'tooLarge' });
    if (file.type && !(VIDEO_TYPES as readonly string[]).includes(file.type)) return setResult({ kind: 'refused', reason: 'notAVideo' });
    setSending({ name: file.name, progress: 0 });
    const seconds = await readDuration(file);
    if (seconds !== null && seconds > MEDIA_LIMITS.videoSeconds) {
      setSending(null);
      return setResult({ kind: 'refused', reason: 'tooLong' });
    }
    try {
      const outcome = await videosApi.upload(file, { onProgress: (progress) => setSending({ name: file.name, progress }) });
      if (outcome.ok) {
        setResult({ kind: 'added' });
        const video = outcome.video;
        if (video) setVideos((list) => (list.some((v) => v.id === video.id) ? list : [...list, video]));
        else setVideos(await videosApi.load());
      } else {
        setResult({ kind: 'refused', reason: outcome.reason });
      }
    } catch (error) {
      if (isApiError(error, 401)) return goToLogin();
      setResult({ kind: 'refused', reason: null });
    } finally {
      setSending(null);
    }
  }

  return (
    <div className="mt-6 space-y-8">
      <p data-testid="hub-state" data-state={hubState} className="flex items-center gap-2 text-sm text-slate-800">
        <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-full ${hubState === 'connected' ? 'bg-green-600' : hubState === 'disconnected' ? 'bg-red-600' : 'bg-amber-500'}`} />
        {t(`videos.hub.${hubState === 'disconnecting' ? 'disconnected' : hubState}`)}
      </p>

      <section aria-labelledby="videos-add-title">
        <h2 id="videos-add-title" className="text-xl font-semibold text-ink">
          {t('videos.addTitle')}
        </h2>
        <div className="mt-3 rounded-xl border-2 border-dashed border-slate-300 bg-slate-50 p-4">
          <label htmlFor="video-file" className="block font-semibold text-ink">
            {t('videos.choose')}
          </label>
          <p id="video-file-hint" className="mt-0.5 text-sm text-slate-700">
            {t('videos.rules')}
          </p>
          <input
            ref={input}
            id="video-file"
            type="file"
            accept={VIDEO_TYPES.join(',')}
            aria-describedby="video-file-hint"
            disabled={sending !== null}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              if (input.current) input.current.value = '';
              if (file) void send(file);
            }}
            className="mt-3 block w-full text-sm text-slate-800 file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-700 file:px-4 file:font-semibold file:text-white hover:file:bg-brand-800"
          />
          {sending ? (
            <div className="mt-3 flex items-center gap-2 text-sm">
              <progress className="h-2 w-full max-w-64" max={100} value={Math.round(sending.progress * 100)} aria-label={t('videos.progress', { file: sending.name })} />
              <span className="text-slate-700">{Math.round(sending.progress * 100)} %</span>
            </div>
          ) : null}
          <p role="status" data-testid="video-upload-result" className={`mt-2 text-sm ${result?.kind === 'refused' ? 'text-red-800' : 'text-green-800'}`}>
            {result?.kind === 'added' ? t('videos.added') : null}
            {result?.kind === 'refused' ? (result.reason ? t(`videos.failure.${result.reason}`) : t('common:errors.generic')) : null}
          </p>
        </div>
      </section>

      <MediaList
        kind="videos"
        items={videos}
        onChange={setVideos}
        api={videosApi}
        dataOf={(video) => ({ 'data-video-id': video.id, 'data-processing': video.processing })}
        align="start"
        media={(video, label) => (
          <div className="w-full max-w-xs shrink-0">
            <VideoView video={video} label={label} />
          </div>
        )}
        dateExtra={(video) => (video.durationSeconds !== null ? ` · ${t('videos.duration', { seconds: Math.round(video.durationSeconds) })}` : null)}
      />
    </div>
  );
}

function VideoView({ video, label }: { video: BackendVideo; label: string }) {
  const t = useAppT(backendI18n);
  if (video.processing === 'failed') {
    return (
      <p data-testid="video-failed" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900">
        {t(`videos.failure.${video.failure ?? 'transcodeFailed'}`)}
      </p>
    );
  }
  if (video.processing === 'ready' && video.videoUrl) {
    return (
      <video
        controls
        preload="none"
        poster={video.posterUrl ?? undefined}
        src={video.videoUrl}
        width={video.width ?? undefined}
        height={video.height ?? undefined}
        aria-label={label}
        className="h-auto w-full rounded-lg bg-black"
      />
    );
  }
  return (
    <div className="relative overflow-hidden rounded-lg bg-slate-100">
      {video.posterUrl ? <img src={video.posterUrl} alt={t('videos.posterOf', { item: label })} className="h-auto w-full opacity-70" /> : <div className="aspect-video" />}
      <p data-testid="video-converting" className="absolute inset-x-0 bottom-0 bg-white/90 p-2 text-sm font-medium text-ink">
        <span aria-hidden="true" className="mr-2 inline-block h-3 w-3 animate-spin rounded-full border-2 border-brand-700 border-t-transparent motion-reduce:animate-none" />
        {t('videos.converting')}
      </p>
    </div>
  );
}
