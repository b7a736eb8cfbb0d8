/**
 * The verification screens' calls (spec §7 Verification, issue 6). The upload, look and delete calls take
 * the QR hand-off token (`Handoff`) instead of the session when the page was opened from the QR code on a
 * phone; every other call needs the session.
 */
import { backendApi } from '#lib/api/backend.ts';
import { ApiError, HttpError, REQUEST_ABORTED, fieldErrorsOf } from '#lib/api/errors.ts';
import { uploadFiles, type UploadOptions } from '#lib/api/upload.ts';
import type {
  AgeCheckResult,
  AgeCheckStart,
  HandoffLink,
  IdentificationAnswer,
  ValidationPictures,
  ValidationUploadAnswer,
  ValidationVideo,
  VerificationKind,
  VerificationStateWord,
} from '#lib/schemas/verification.ts';

const client = backendApi.client;
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});
const handoffParams = (handoff: string | null): Record<string, string> => (handoff ? { Handoff: handoff } : {});

/** What the screen shows: the state, support's reason, and when each file was uploaded. */
export type VerificationFiles = {
  state: VerificationStateWord;
  /** Whether the online age check is offered (a provider is configured). */
  onlineCheck: boolean;
  reason: string | null;
  uploaded: Record<VerificationKind, string | null>;
};

/** Why an upload was refused (i18n keys of `verification.refusal`). */
export const UPLOAD_REFUSALS = [
  'notAnImage',
  'typeMismatch',
  'tooLarge',
  'tooManyPixels',
  'notAVideo',
  'tooLong',
  'alreadyVerified',
  'verificationRejected',
  'alreadyDecided',
  'handoffExpired',
  'uploadFailed',
] as const;
export type UploadRefusal = (typeof UPLOAD_REFUSALS)[number];

const isRefusal = (value: string | undefined): value is UploadRefusal => (UPLOAD_REFUSALS as readonly string[]).includes(value ?? '');

export type UploadOutcome = { ok: true; answer: ValidationUploadAnswer } | { ok: false; reason: UploadRefusal };

/** The link that opens a verification file (in a new tab); with the hand-off token on a phone. */
export function fileHref(kind: VerificationKind, handoff: string | null): string {
  const query = new URLSearchParams(kind === 'video' ? { File: '1' } : { Kind: kind, File: '1' });
  if (handoff) query.set('Handoff', handoff);
  return `/api/backend/${kind === 'video' ? 'validationvideo' : 'validationpicture'}?${query.toString()}`;
}

export const verificationApi = {
  /** validationpicture and validationvideo together. */
  load: async (handoff: string | null, signal?: AbortSignal): Promise<VerificationFiles> => {
    const options = { searchParams: handoffParams(handoff), ...withSignal(signal) };
    const [pictures, video] = await Promise.all([
      client.get<ValidationPictures>('validationpicture', options),
      client.get<ValidationVideo>('validationvideo', options),
    ]);
    return {
      state: pictures.state,
      onlineCheck: pictures.onlineCheck,
      reason: pictures.reason ?? video.reason,
      uploaded: { document: pictures.document?.uploadedAt ?? null, selfie: pictures.selfie?.uploadedAt ?? null, video: video.video?.uploadedAt ?? null },
    };
  },

  /**
   * Sends one file of a kind and says what became of it (a refusal key from the problem's field message,
   * 413 as tooLarge). A 401 without `handoffExpired` (the session ended) is thrown.
   */
  upload: async (kind: VerificationKind, file: File, handoff: string | null, options: UploadOptions = {}): Promise<UploadOutcome> => {
    try {
      const fields: Record<string, string> = { Kind: kind, ...handoffParams(handoff) };
      return { ok: true, answer: await uploadFiles<ValidationUploadAnswer>('backend', 'validationpictureuploader', [file], { ...options, fields }) };
    } catch (error) {
      if (error instanceof Error && error.message === REQUEST_ABORTED) throw error;
      if (error instanceof ApiError || error instanceof HttpError) {
        if (error.status === 413) return { ok: false, reason: 'tooLarge' };
        const message = fieldErrorsOf(error).map((e) => e.message).find(isRefusal);
        if (message) return { ok: false, reason: message };
        if (error.status === 401) throw error;
      }
      return { ok: false, reason: 'uploadFailed' };
    }
  },

  remove: (kind: VerificationKind, handoff: string | null) =>
    kind === 'video'
      ? client.post<undefined>('deletevalidationvideo', { json: handoffParams(handoff) })
      : client.post<undefined>('deletevalidationpicture', { json: { Kind: kind, ...handoffParams(handoff) } }),

  /** ageverificationbyqrcode: a link (and its QR code) that opens this page on a phone for 30 minutes. */
  handoff: () => client.post<HandoffLink>('ageverificationbyqrcode', { json: {} }),
  /** ageestimation: a session with the age-verification provider and the page to send the browser to. */
  startAgeCheck: () => client.post<AgeCheckStart>('ageestimation', { json: {} }),
  checkSession: (sessionId: string, signal?: AbortSignal) =>
    client.get<AgeCheckResult>('checksession', { searchParams: { SessionId: sessionId }, ...withSignal(signal) }),
  updateIdentification: (profileId: number) => client.post<IdentificationAnswer>('updateidentification', { json: { ProfileId: profileId } }),
};
