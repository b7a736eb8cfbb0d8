/**
 * The verification's state and files, shared by /backend/verification/ (signed in) and the same page opened
 * from the QR code on a phone (`?handoff=`, no session: the token stands in for it on these calls only).
 * The state in words (with support's reason after a decline), then one slot per file: a photo of the ID
 * document, a selfie holding it, or a short video instead of both. Each slot sends one file with its
 * progress and its result (a refusal in the user's language), links to the uploaded file (a new tab) and
 * deletes it after a confirmation while the verification is not decided.
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { isApiError } from '#lib/api/errors.ts';
import { formatDateTime } from '#lib/format.ts';
import { MEDIA_LIMITS, PICTURE_TYPES, VIDEO_TYPES } from '#lib/schemas/media.ts';
import { VERIFICATION_LIMITS, type VerificationKind } from '#lib/schemas/verification.ts';
import { toast } from '#lib/stores/toasts.ts';
import { failureKey, reportFailure, smallButton } from '../../shared/form-text.ts';
import { goToLogin } from '../../shared/session-ended.ts';
import { useConfirmation } from '../../shared/use-confirmation.tsx';
import { fileHref, verificationApi, type UploadRefusal, type VerificationFiles as Files } from './api.ts';

const PICTURE_REFUSALS = ['notAnImage', 'typeMismatch', 'tooLarge', 'tooManyPixels', 'uploadFailed'];

/** A refusal in words: the pictures screen's words for pictures where they fit, else this screen's. */
export function refusalText(t: TFunction, kind: VerificationKind, reason: string): string {
  if (kind !== 'video' && PICTURE_REFUSALS.includes(reason)) return t(`common:pictureRefusal.${reason}`);
  return t([`verification.refusal.${reason}`, 'verification.refusal.uploadFailed']);
}

/** May files still be added or deleted in this state? */
export const isOpenState = (state: Files['state']) => state === 'none' || state === 'collecting' || state === 'pending' || state === 'declined';

export function StateNotice({ t, files }: { t: TFunction; files: Files }) {
  const tone =
    files.state === 'validated'
      ? 'border-emerald-300 bg-emerald-50'
      : files.state === 'declined' || files.state === 'rejected'
        ? 'border-red-300 bg-red-50'
        : 'border-slate-200 bg-white';
  return (
    <section aria-labelledby="verification-state-title" className={`rounded-xl border p-5 ${tone}`} data-verification-state={files.state}>
      <h2 id="verification-state-title" className="text-lg font-semibold text-ink">
        {t('verification.stateTitle')}
      </h2>
      <p className="mt-1 font-medium text-ink">{t(`verification.state.${files.state}`)}</p>
      {files.reason && (files.state === 'declined' || files.state === 'rejected') ? (
        <p className="mt-2 text-slate-800">
          <span className="font-semibold">{t('verification.reasonLabel')}</span> <span data-verification-reason>{files.reason}</span>
        </p>
      ) : null}
      {files.state === 'declined' ? <p className="mt-2 text-slate-800">{t('verification.tryAgain')}</p> : null}
    </section>
  );
}

type Props = {
  t: TFunction;
  files: Files;
  handoff: string | null;
  /** Loads the state again (after an upload or a delete). */
  onChanged: () => void;
  /** The hand-off link is no longer good. */
  onExpired: () => void;
  /** The upload that completed the verification (it went to support); else onChanged. */
  onSubmitted?: () => void;
};

export function FileSlots({ t, files, handoff, onChanged, onExpired, onSubmitted }: Props) {
  const open = isOpenState(files.state);
  // The files shown after a decline are the decided ones: they can be looked at, not deleted.
  const deletable = files.state === 'collecting' || files.state === 'pending';
  const confirmation = useConfirmation<VerificationKind>();
  const [busy, setBusy] = useState(false);

  async function remove(kind: VerificationKind) {
    setBusy(true);
    try {
      await verificationApi.remove(kind, handoff);
      toast({ title: t('verification.deleted'), variant: 'success' });
      onChanged();
    } catch (error) {
      const key = failureKey(error);
      if (key === 'handoffExpired') onExpired();
      else if (key === 'alreadyDecided') {
        toast({ title: t('verification.refusal.alreadyDecided'), variant: 'error' });
        onChanged();
      } else reportFailure(t, error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="verification-upload-title" className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id="verification-upload-title" className="text-lg font-semibold text-ink">
        {t('verification.upload.title')}
      </h2>
      <p className="mt-1 max-w-prose text-slate-700">{t('verification.upload.intro')}</p>
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        {(['document', 'selfie'] as const).map((kind) => (
          <Slot key={kind} t={t} kind={kind} uploadedAt={files.uploaded[kind]} open={open} deletable={deletable} busy={busy} handoff={handoff} onChanged={onChanged} onSubmitted={onSubmitted ?? onChanged} onExpired={onExpired} onDelete={confirmation.ask} />
        ))}
      </div>
      <h3 className="mt-6 font-semibold text-ink">{t('verification.upload.orVideo')}</h3>
      <div className="mt-2 grid gap-4 md:grid-cols-2">
        <Slot t={t} kind="video" uploadedAt={files.uploaded.video} open={open} deletable={deletable} busy={busy} handoff={handoff} onChanged={onChanged} onSubmitted={onSubmitted ?? onChanged} onExpired={onExpired} onDelete={confirmation.ask} />
      </div>
      {confirmation.dialog({
        title: t('verification.confirmTitle'),
        body: (kind) => t('verification.confirmBody', { file: t(`verification.kind.${kind}`) }),
        confirmLabel: t('verification.confirmDelete'),
        cancelLabel: t('form.cancel'),
        onConfirm: (kind) => void remove(kind),
      })}
    </section>
  );
}

type SlotProps = {
  t: TFunction;
  kind: VerificationKind;
  uploadedAt: string | null;
  open: boolean;
  deletable: boolean;
  busy: boolean;
  handoff: string | null;
  onChanged: () => void;
  onSubmitted: () => void;
  onExpired: () => void;
  onDelete: (kind: VerificationKind) => void;
};

type Sending = { state: 'idle' } | { state: 'sending'; name: string; progress: number } | { state: 'sent'; name: string } | { state: 'refused'; name: string; reason: UploadRefusal };

function Slot({ t, kind, uploadedAt, open, deletable, busy, handoff, onChanged, onSubmitted, onExpired, onDelete }: SlotProps) {
  const [sending, setSending] = useState<Sending>({ state: 'idle' });
  const id = `verification-${kind}`;
  const label = t(`verification.kind.${kind}`);

  async function send(file: File) {
    const limit = kind === 'video' ? VERIFICATION_LIMITS.videoBytes : MEDIA_LIMITS.pictureBytes;
    if (file.size > limit) {
      setSending({ state: 'refused', name: file.name, reason: 'tooLarge' });
      return;
    }
    setSending({ state: 'sending', name: file.name, progress: 0 });
    try {
      const outcome = await verificationApi.upload(kind, file, handoff, {
        onProgress: (progress) => setSending({ state: 'sending', name: file.name, progress }),
      });
      if (outcome.ok) {
        setSending({ state: 'sent', name: file.name });
        if (outcome.answer.submitted) onSubmitted();
        else onChanged();
      } else if (outcome.reason === 'handoffExpired') {
        onExpired();
      } else {
        setSending({ state: 'refused', name: file.name, reason: outcome.reason });
        if (outcome.reason === 'alreadyDecided' || outcome.reason === 'alreadyVerified' || outcome.reason === 'verificationRejected') onChanged();
      }
    } catch (error) {
      if (isApiError(error, 401)) {
        if (handoff) onExpired();
        else goToLogin();
        return;
      }
      setSending({ state: 'refused', name: file.name, reason: 'uploadFailed' });
    }
  }

  return (
    <div className="rounded-lg border border-slate-200 p-4" data-verification-slot={kind} data-uploaded={uploadedAt ? 'true' : 'false'}>
      <h3 className="font-semibold text-ink">{label}</h3>
      <p id={`${id}-hint`} className="mt-0.5 text-sm text-slate-700">
        {t(`verification.hint.${kind}`)}
      </p>
      {uploadedAt ? (
        <div className="mt-3 space-y-2 text-sm">
          <p className="text-green-800" data-uploaded-at>
            {t('verification.uploadedAt', { date: formatDateTime(uploadedAt) })}
          </p>
          <div className="flex flex-wrap gap-2">
            <a href={fileHref(kind, handoff)} target="_blank" rel="noopener" className={smallButton}>
              {t('verification.view', { file: label })}
              <span className="sr-only"> ({t('verification.newTab')})</span>
            </a>
            {deletable ? (
              <button type="button" className={smallButton} disabled={busy} onClick={() => onDelete(kind)}>
                {t('verification.delete', { file: label })}
              </button>
            ) : null}
          </div>
        </div>
      ) : null}
      {open ? (
        <div className="mt-3">
          <label htmlFor={`${id}-file`} className="block text-sm font-semibold text-ink">
            {uploadedAt && deletable ? t(`verification.replace.${kind}`) : t(`verification.choose.${kind}`)}
          </label>
          <input
            id={`${id}-file`}
            type="file"
            accept={(kind === 'video' ? VIDEO_TYPES : PICTURE_TYPES).join(',')}
            aria-describedby={`${id}-hint`}
            disabled={sending.state === 'sending'}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              event.currentTarget.value = '';
              if (file) void send(file);
            }}
            className="mt-2 block w-full text-sm text-slate-800 file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-700 file:px-4 file:font-semibold file:text-white hover:file:bg-brand-800"
          />
        </div>
      ) : null}
      {sending.state === 'sending' ? (
        <div className="mt-2 flex items-center gap-2 text-sm">
          <progress className="h-2 w-full max-w-64" max={100} value={Math.round(sending.progress * 100)} aria-label={t('verification.progress', { file: sending.name })} />
          <span className="text-slate-700">{Math.round(sending.progress * 100)} %</span>
        </div>
      ) : null}
      <p role="status" className={`mt-2 text-sm ${sending.state === 'refused' ? 'text-red-800' : 'text-green-800'}`} data-upload-result={sending.state}>
        {sending.state === 'sent' ? t('verification.sent', { file: sending.name }) : null}
        {sending.state === 'refused' ? refusalText(t, kind, sending.reason) : null}
      </p>
    </div>
  );
}
