/**
 * The age gate (spec section 1): a modal dialog over the page on the first visit. The page's HTML stays in
 * the document (crawlable) but is `inert` behind the gate. Whether to show it is decided before paint by an
 * inline script in <head> (see SiteLayout.astro) that adds `age-ok` to <html> when the cookie exists.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { messagesT, type Messages } from '#lib/i18n/messages.ts';
import { ageConsentCookie, hasAgeConsent } from './age-consent.ts';

type Props = {
  messages: Messages;
  /** Where "Leave the site" goes. */
  leaveUrl: string;
  /** id of the element that holds the page behind the gate. */
  pageId?: string;
};

function setPageInert(pageId: string, inert: boolean) {
  const page = document.getElementById(pageId);
  if (page) page.inert = inert;
}

export default function AgeGate({ messages, leaveUrl, pageId = 'page' }: Props) {
  const t = messagesT(messages);
  const [open, setOpen] = useState(true);
  const enterRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (hasAgeConsent(document.cookie)) {
      document.documentElement.classList.add('age-ok');
      setPageInert(pageId, false);
      setOpen(false);
      return;
    }
    setPageInert(pageId, true);
    enterRef.current?.focus();
  }, [pageId]);

  function enter() {
    document.cookie = ageConsentCookie(location.protocol === 'https:');
    document.documentElement.classList.add('age-ok');
    setPageInert(pageId, false);
    setOpen(false);
    document.getElementById('main')?.focus({ preventScroll: true });
  }

  /** Keeps Tab inside the dialog (the page behind is inert as well). */
  function trapFocus(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  if (!open) return null;

  return (
    <div data-age-gate className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/70 p-4 backdrop-blur-sm">
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby="age-gate-title"
        aria-describedby="age-gate-text"
        onKeyDown={trapFocus}
        className="max-h-[calc(100dvh-2rem)] w-full max-w-lg overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl md:p-8"
      >
        <p aria-hidden="true" className="mb-4 inline-flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-lg font-bold text-brand-700">
          18+
        </p>
        <h2 id="age-gate-title" className="text-2xl font-bold text-ink">
          {t('ageGate.title')}
        </h2>
        <div id="age-gate-text" className="mt-4 space-y-3 text-base leading-relaxed text-slate-700">
          <p className="font-semibold text-ink">{t('ageGate.adultsOnly')}</p>
          <p>{t('ageGate.zeroTolerance')}</p>
          <p>{t('ageGate.consequences')}</p>
          <p>{t('ageGate.reportDuty')}</p>
        </div>
        <div className="mt-6 flex flex-col-reverse gap-3 md:flex-row md:justify-end">
          <a
            href={leaveUrl}
            rel="noreferrer"
            className="inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 px-5 py-2.5 font-semibold text-slate-800 hover:bg-slate-50"
          >
            {t('ageGate.leave')}
          </a>
          <button
            ref={enterRef}
            type="button"
            onClick={enter}
            className="inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
          >
            {t('ageGate.enter')}
          </button>
        </div>
      </div>
    </div>
  );
}
