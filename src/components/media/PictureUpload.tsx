/**
 * Adding pictures (the backend's pictures screen and /create): a file input taking several files (phone or desktop) and, on desktop, a drop zone. Each
 * file is sent on its own (one call each, one after another), so each has its own progress bar and its own
 * result: added, or the reason it was refused in the user's language. Files over 25 MB are refused here,
 * before sending. The texts come from the caller (the dashboards use i18next, the /create island its messages).
 */
import { useRef, useState, type DragEvent } from 'react';
import { isApiError } from '#lib/api/errors.ts';
import { pictureRefusedBeforeSending, type PictureOutcome } from '#lib/api/upload.ts';
import { MEDIA_LIMITS, PICTURE_TYPES, type BackendPicture, type PictureRefusal } from '#lib/schemas/media.ts';

type Upload = { key: number; name: string; progress: number; state: 'waiting' | 'sending' | 'added' | 'refused'; reason?: PictureRefusal };

export type PictureUploadTexts = {
  choose: string;
  chooseHint: string;
  /** The list of files being sent. */
  uploads: string;
  progress: (file: string) => string;
  waiting: string;
  added: string;
  refusal: (reason: PictureRefusal) => string;
};

type Props = {
  /** Prefix of the ids (unique on the page). */
  id: string;
  texts: PictureUploadTexts;
  /** The session ended (a 401). */
  onUnauthorized: () => void;
  /** Sends one file (the backend's or /create's call). */
  send: (file: File, onProgress: (fraction: number) => void) => Promise<PictureOutcome>;
  onAdded: (picture: BackendPicture) => void;
  /** All files of a selection are done. */
  onDone?: () => void;
};

/** The `accept` of every picture input. */
export const PICTURE_ACCEPT = PICTURE_TYPES.join(',');

let nextKey = 1;

export function PictureUpload({ id, texts, onUnauthorized, send, onAdded, onDone }: Props) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const queue = useRef<Promise<void>>(Promise.resolve());

  const update = (key: number, change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

  function add(files: File[]) {
    if (files.length === 0) return;
    const batch = files.map((file) => ({ file, upload: { key: nextKey++, name: file.name, progress: 0, state: 'waiting' as const } }));
    setUploads((list) => [...list.filter((u) => u.state === 'waiting' || u.state === 'sending'), ...batch.map((b) => b.upload)]);
    queue.current = queue.current.then(async () => {
      for (const { file, upload } of batch) {
        const early = pictureRefusedBeforeSending(file, MEDIA_LIMITS.pictureBytes);
        if (early) {
          update(upload.key, { state: 'refused', reason: early });
          continue;
        }
        update(upload.key, { state: 'sending' });
        try {
          const outcome = await send(file, (progress) => update(upload.key, { progress }));
          if (outcome.ok) {
            update(upload.key, { state: 'added', progress: 1 });
            onAdded(outcome.picture);
          } else {
            update(upload.key, { state: 'refused', reason: outcome.reason });
          }
        } catch (error) {
          if (isApiError(error, 401)) return onUnauthorized();
          update(upload.key, { state: 'refused', reason: 'uploadFailed' });
        }
      }
      onDone?.();
    });
  }

  const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

  return (
    <div>
      <div
        data-testid={`${id}-drop-zone`}
        onDragOver={(event) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          setOver(false);
          add([...event.dataTransfer.files]);
        }}
        className={`rounded-xl border-2 border-dashed p-4 ${over ? 'border-brand-700 bg-brand-50' : 'border-slate-300 bg-slate-50'}`}
      >
        {/* The browser's own file input says "Choose Files" in its own language: it is kept for the keyboard
            and screen readers (visually hidden), and its label is the button people see (issue 31, item 7). */}
        <input
          ref={input}
          id={`${id}-files`}
          type="file"
          multiple
          accept={PICTURE_ACCEPT}
          aria-describedby={`${id}-files-hint`}
          onChange={(event) => {
            add([...(event.currentTarget.files ?? [])]);
            if (input.current) input.current.value = '';
          }}
          className="peer sr-only"
        />
        <label
          htmlFor={`${id}-files`}
          className="inline-flex min-h-11 cursor-pointer items-center justify-center rounded-lg bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800 peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700"
        >
          {texts.choose}
        </label>
        <p id={`${id}-files-hint`} className="mt-2 text-sm text-slate-700">
          {texts.chooseHint}
        </p>
      </div>
      {uploads.length > 0 ? (
        <ul className="mt-3 space-y-2" aria-label={texts.uploads} data-testid={`${id}-uploads`}>
          {uploads.map((upload) => (
            <li key={upload.key} data-upload-state={upload.state} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
              <p className="font-medium break-all text-ink">{upload.name}</p>
              {upload.state === 'waiting' || upload.state === 'sending' ? (
                <div className="mt-1 flex items-center gap-2">
                  <progress
                    className="h-2 w-full max-w-64"
                    max={100}
                    value={Math.round(upload.progress * 100)}
                    aria-label={texts.progress(upload.name)}
                  />
                  <span className="text-slate-700">{upload.state === 'waiting' ? texts.waiting : `${Math.round(upload.progress * 100)} %`}</span>
                </div>
              ) : null}
              <p role="status" className={upload.state === 'refused' ? 'mt-1 text-red-800' : 'mt-1 text-green-800'}>
                {upload.state === 'added' ? texts.added : null}
                {upload.state === 'refused' ? texts.refusal(upload.reason ?? 'uploadFailed') : null}
              </p>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
