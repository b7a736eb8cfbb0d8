import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { MEDIA_LIMITS } from '#lib/schemas/media.ts';

/**
 * ffprobe and ffmpeg, run as child processes on local files only (docs/decisions/013): no network
 * (`-protocol_whitelist`), no stdin, a time limit, and a lower CPU priority (`nice -n 10`, one thread)
 * so a transcode does not slow the site's searches down on a small machine.
 */

/** Where `nice` lives, when it does (Linux, macOS); ffmpeg then runs at a lower priority. */
const NICE = ['/usr/bin/nice', '/bin/nice'].find((candidate) => existsSync(candidate)) ?? null;

export class ToolFailed extends Error {
  readonly timedOut: boolean;
  constructor(message: string, timedOut = false) {
    super(message);
    this.name = 'ToolFailed';
    this.timedOut = timedOut;
  }
}

type RunOptions = { timeoutMs: number; signal?: AbortSignal | undefined; lowPriority?: boolean };

/** Runs a tool, answers its stdout; throws ToolFailed with the end of stderr on a non-zero exit or timeout. */
function runTool(command: string, args: string[], options: RunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const [file, argv] = options.lowPriority && NICE ? [NICE, ['-n', '10', command, ...args]] : [command, args];
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => {
      // ffprobe's JSON is small; a file that makes it huge is not one we want.
      outBytes += chunk.length;
      if (outBytes <= 4 * 1024 * 1024) out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-4000);
    });
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', kill, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      reject(new ToolFailed(`${command} could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
      const why = timedOut
        ? `timed out after ${options.timeoutMs} ms`
        : options.signal?.aborted
          ? 'stopped'
          : `exit ${code ?? signal}`;
      reject(new ToolFailed(`${command} failed (${why}): ${err.trim().split('\n').slice(-5).join(' | ')}`, timedOut));
    });
  });
}

/** What the upload check and the job need to know about a video file. */
export type VideoProbe = {
  /** ffprobe's format_name ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm"). */
  container: string;
  videoCodec: string;
  hasAudio: boolean;
  width: number;
  height: number;
  durationSeconds: number;
};

type ProbeJson = {
  format?: { format_name?: string; duration?: string };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    duration?: string;
    disposition?: { attached_pic?: number };
  }[];
};

/** Reads a local file's container and streams; null when ffprobe finds no video stream in it. */
export async function probeVideo(filePath: string, options: { timeoutMs?: number } = {}): Promise<VideoProbe | null> {
  let json: ProbeJson;
  try {
    const out = await runTool(
      'ffprobe',
      ['-v', 'error', '-protocol_whitelist', 'file', '-print_format', 'json', '-show_format', '-show_streams', `file:${path.resolve(filePath)}`],
      { timeoutMs: options.timeoutMs ?? 30_000 },
    );
    json = JSON.parse(out) as ProbeJson;
  } catch (error) {
    if (error instanceof ToolFailed || error instanceof SyntaxError) return null;
    throw error;
  }
  const streams = json.streams ?? [];
  // A cover picture inside an audio file is a "video" stream too; it is not a video.
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!video || !video.codec_name || !video.width || !video.height) return null;
  const duration = Number(json.format?.duration ?? video.duration);
  return {
    container: json.format?.format_name ?? '',
    videoCodec: video.codec_name,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    width: video.width,
    height: video.height,
    durationSeconds: Number.isFinite(duration) ? duration : Number.NaN,
  };
}

/** Video codecs a WebM file may hold (ffprobe names Matroska and WebM alike). */
const WEBM_VIDEO_CODECS = new Set(['vp8', 'vp9', 'av1']);
/** Larger frames than 8K are refused (decoding them would only burn memory). */
const MAX_SIDE = 8192;

/**
 * Why an uploaded file is not accepted as a video, or null when it is: a video stream in an MP4, MOV
 * or WebM container (by content, never by name), a known duration of at most MEDIA_LIMITS.videoSeconds.
 */
export function refusalOf(probe: VideoProbe | null): 'notAVideo' | 'tooLong' | null {
  if (!probe) return 'notAVideo';
  const formats = probe.container.split(',');
  const isMp4OrMov = formats.includes('mov') || formats.includes('mp4');
  const isWebm = formats.includes('webm') && WEBM_VIDEO_CODECS.has(probe.videoCodec);
  if (!isMp4OrMov && !isWebm) return 'notAVideo';
  if (probe.width > MAX_SIDE || probe.height > MAX_SIDE) return 'notAVideo';
  if (!Number.isFinite(probe.durationSeconds) || probe.durationSeconds <= 0) return 'notAVideo';
  // A tenth of a second of slack: containers round their duration.
  if (probe.durationSeconds > MEDIA_LIMITS.videoSeconds + 0.1) return 'tooLong';
  return null;
}

/** How every ffmpeg run starts: no stdin, errors only, local files and pipes only (no network), one thread. */
const FFMPEG_START = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-protocol_whitelist', 'file,pipe', '-threads', '1'];

/**
 * Transcodes to H.264 (yuv420p, CRF 23, veryfast) and AAC in an MP4 with the index first (`+faststart`),
 * at most 1080p (the short side at most 1080, the long one at most 1920; never enlarged; even sizes),
 * without metadata, chapters, subtitles or data streams.
 */
export async function transcodeVideo(input: string, output: string, options: RunOptions): Promise<void> {
  const box = (long: number, short: number) => `if(gte(iw,ih),min(${long},iw),min(${short},iw))`;
  const boxH = (long: number, short: number) => `if(gte(iw,ih),min(${short},ih),min(${long},ih))`;
  const scale = `scale=w='${box(1920, 1080)}':h='${boxH(1920, 1080)}':force_original_aspect_ratio=decrease:force_divisible_by=2,setsar=1`;
  await runTool(
    'ffmpeg',
    [
      ...FFMPEG_START,
      '-i',
      `file:${path.resolve(input)}`,
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      '-map_metadata',
      '-1',
      '-map_chapters',
      '-1',
      '-sn',
      '-dn',
      '-filter_threads',
      '1',
      '-vf',
      scale,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-pix_fmt',
      'yuv420p',
      '-threads',
      '1',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-ac',
      '2',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      '-y',
      `file:${path.resolve(output)}`,
    ],
    { ...options, lowPriority: true },
  );
}

/** One frame at `atSeconds` of a (transcoded) video as a PNG file. */
export async function extractFrame(input: string, output: string, atSeconds: number, options: RunOptions): Promise<void> {
  await runTool(
    'ffmpeg',
    [
      ...FFMPEG_START,
      '-ss',
      String(atSeconds),
      '-i',
      `file:${path.resolve(input)}`,
      '-map',
      '0:v:0',
      '-frames:v',
      '1',
      '-map_metadata',
      '-1',
      '-c:v',
      'png',
      '-f',
      'image2',
      '-y',
      `file:${path.resolve(output)}`,
    ],
    { ...options, lowPriority: true },
  );
}
