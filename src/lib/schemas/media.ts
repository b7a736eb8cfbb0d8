/**
 * Pictures and videos as the backend's media calls answer them and as the notification hub announces
 * them (docs/decisions/013). Types and limits only: shared by the server, the backend screens and /create.
 */
import type { PublicPicture } from './public-advert.ts';

/** Limits checked before any heavy work (the server refuses more; the screens say so before sending). */
export const MEDIA_LIMITS = {
  pictureBytes: 25 * 1024 * 1024,
  picturePixels: 50_000_000,
  /** Files in one picture upload call. */
  picturesPerUpload: 10,
  /** Pictures one advert may keep (deleted ones do not count). */
  picturesPerAdvert: 30,
  videoBytes: 500 * 1024 * 1024,
  videoSeconds: 180,
  videosPerAdvert: 5,
} as const;

/** Accepted picture types, decided by content (never by name or header). */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'] as const;
/** Accepted video containers, decided by content (ffprobe). */
export const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'] as const;

/** The public widths made of every picture (AVIF and WebP each), for srcset. */
export const PICTURE_WIDTHS = [320, 640, 1024] as const;

/** Moderation of a picture or video: pending until support approves it. */
export type ModerationWord = 'pending' | 'approved' | 'declined';

/** One picture in the backend's list (profilepictures). Only approved, online pictures are public. */
export type BackendPicture = PublicPicture & {
  isPrimary: boolean;
  isOnline: boolean;
  sortOrder: number;
  moderation: ModerationWord;
  /** Support's reason when declined. */
  declineReason: string | null;
  /** dd-MM-yyyy in Europe/Copenhagen. */
  uploadedOn: string;
};

/** Processing of a video: converting until the transcode job is done. */
export type VideoProcessing = 'converting' | 'ready' | 'failed';

/** Why processing failed: i18n keys of the videos screen. */
export type VideoFailure = 'notAVideo' | 'tooLong' | 'tooLarge' | 'tooManyVideos' | 'transcodeFailed';

/** One video in the backend's list (profilevideos). */
export type BackendVideo = {
  id: number;
  processing: VideoProcessing;
  failure: VideoFailure | null;
  /** Public URLs once ready (the poster may come before the video). */
  posterUrl: string | null;
  videoUrl: string | null;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  isOnline: boolean;
  sortOrder: number;
  moderation: ModerationWord;
  declineReason: string | null;
  uploadedOn: string;
};

/**
 * Why a picture file was refused: i18n keys (the spec's 'Something went wrong...' is `uploadFailed`).
 * `typeMismatch`: the content is an accepted image but not the type its name or header claims (a PNG
 * named .jpg): refused, as the issue asks, with a message saying what the file really is.
 */
export type PictureRefusal =
  | 'notAnImage'
  | 'typeMismatch'
  | 'tooLarge'
  | 'tooManyPixels'
  | 'tooManyPictures'
  | 'uploadFailed';

/** The answer of profilepictureuploader and profilepictureuploadertemp: per file, in the order sent. */
export type PictureUploadAnswer = {
  results: ({ file: string; ok: true; picture: BackendPicture } | { file: string; ok: false; reason: PictureRefusal })[];
};

/** Payload of the hub events VideoUploaded and VideoThumbnailUploaded: the video as it is now. */
export type VideoHubPayload = { video: BackendVideo };
