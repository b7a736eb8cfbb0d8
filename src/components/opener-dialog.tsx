/**
 * A modal dialog of a public page opened by one of the page's buttons (the island is loaded on the first
 * click: the report dialog, the review dialog). The first click opens it as the island mounts; later clicks
 * open it again (`onOpen` resets what a finished dialog showed). The button says whether the dialog is
 * open (`aria-expanded`) and gets the focus back when it closes; Escape closes it (the browser's dialog).
 */
import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

export function useOpenerDialog(opener: HTMLButtonElement, onOpen: () => void) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (open && dialog && !dialog.open) dialog.showModal();
  }, [open]);

  useEffect(() => {
    const openDialog = () => {
      onOpen();
      opener.setAttribute('aria-expanded', 'true');
      setOpen(true);
    };
    openDialog();
    opener.addEventListener('click', openDialog);
    return () => opener.removeEventListener('click', openDialog);
  }, [opener, onOpen]);

  const close = useCallback(() => dialogRef.current?.close(), []);
  const onClose = useCallback(() => {
    setOpen(false);
    opener.setAttribute('aria-expanded', 'false');
    opener.focus();
  }, [opener]);

  return { dialogRef, open, close, onClose };
}

type DialogFrameProps = {
  /** Prefix of the title's id (`{id}-title`). */
  id: string;
  dialogRef: RefObject<HTMLDialogElement | null>;
  open: boolean;
  onClose: () => void;
  title: string;
  closeLabel: string;
  children: ReactNode;
};

/** The dialog, its title and a close button; nothing while closed. */
export function DialogFrame({ id, dialogRef, open, onClose, title, closeLabel, children }: DialogFrameProps) {
  if (!open) return null;
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={`${id}-title`}
      onClose={onClose}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[min(40rem,calc(100vw-2rem))] overflow-y-auto rounded-2xl bg-white p-0 shadow-2xl backdrop:bg-slate-900/60"
    >
      <div className="p-5 md:p-7">
        <div className="flex items-start justify-between gap-4">
          <h2 id={`${id}-title`} className="text-2xl font-bold text-ink">
            {title}
          </h2>
          <button
            type="button"
            onClick={() => dialogRef.current?.close()}
            className="-mt-1 -mr-2 inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="m6 6 12 12M18 6 6 18" strokeLinecap="round" />
            </svg>
            <span className="sr-only">{closeLabel}</span>
          </button>
        </div>
        {children}
      </div>
    </dialog>
  );
}
