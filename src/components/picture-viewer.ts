/**
 * The advert page's picture viewer (issue 31, item 1), in plain DOM code, loaded on the first click of a
 * picture (advert-interactions.ts). Each picture of the gallery is a link to its largest copy, so without
 * JavaScript a click still shows it; with it, a modal `<dialog>` shows the picture as large as the window
 * allows (the gallery's own `<picture>` with `sizes="100vw"`, so the browser takes the large copies), with
 * its position ("3 / 8", announced), previous and next (buttons, arrow keys, a swipe on a touch screen,
 * going round at the ends), and close (the button, Escape, a click beside the picture). Opening adds a
 * history entry (`#billede-3` / `#picture-3`), so Back closes the viewer; a page opened at such an address
 * opens with it. The dialog keeps the focus while open (showModal) and gives it back to the picture it
 * ends on. The labels are the gallery's `data-viewer-*` attributes, rendered in the page's language.
 */

import { positionText } from './gallery-position.ts';

type Labels = { label: string; previous: string; next: string; close: string; position: string; hash: string };

export type Viewer = { open: (index: number, options?: { push?: boolean }) => void; syncWithHistory: () => void };

const STATE_KEY = 'pictureViewer';
const SWIPE_PX = 40;

function labelsOf(gallery: HTMLElement): Labels {
  const data = gallery.dataset;
  return {
    label: data['viewerLabel'] ?? '',
    previous: data['viewerPrevious'] ?? 'Previous',
    next: data['viewerNext'] ?? 'Next',
    close: data['viewerClose'] ?? 'Close',
    position: data['viewerPosition'] ?? '{number} / {count}',
    hash: data['viewerHash'] ?? 'picture',
  };
}

function button(label: string, text: string, className: string): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.setAttribute('aria-label', label);
  element.textContent = text;
  element.className = className;
  return element;
}

export function createPictureViewer(gallery: HTMLElement): Viewer {
  const links = [...gallery.querySelectorAll<HTMLAnchorElement>('a[data-picture-open]')];
  const labels = labelsOf(gallery);
  const count = links.length;
  let current = 0;

  const dialog = document.createElement('dialog');
  dialog.dataset['pictureViewer'] = '';
  dialog.setAttribute('aria-label', labels.label);
  dialog.className =
    'm-0 h-dvh max-h-none w-screen max-w-none border-0 bg-slate-950 p-0 text-white backdrop:bg-slate-950/80 open:flex open:flex-col';
  const bar = document.createElement('div');
  bar.className = 'flex items-center justify-between gap-3 px-4 py-3';
  const position = document.createElement('p');
  position.setAttribute('aria-live', 'polite');
  position.dataset['viewerPosition'] = '';
  position.className = 'text-base font-semibold tabular-nums';
  const close = button(labels.close, '✕', 'inline-flex size-11 items-center justify-center rounded-full text-2xl hover:bg-white/15 focus-visible:outline focus-visible:outline-2 focus-visible:outline-white');
  close.dataset['viewerClose'] = '';
  bar.append(position, close);
  const stage = document.createElement('div');
  stage.className = 'relative flex min-h-0 flex-1 touch-pan-y touch-pinch-zoom items-center justify-center px-2 pb-4';
  const frame = document.createElement('div');
  frame.className = 'flex h-full w-full items-center justify-center';
  const navClass =
    'absolute top-1/2 inline-flex size-12 -translate-y-1/2 items-center justify-center rounded-full bg-slate-900/70 text-3xl hover:bg-slate-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-white';
  const previous = button(labels.previous, '‹', `${navClass} left-2`);
  previous.dataset['viewerPrevious'] = '';
  const next = button(labels.next, '›', `${navClass} right-2`);
  next.dataset['viewerNext'] = '';
  stage.append(frame);
  if (count > 1) stage.append(previous, next);
  dialog.append(bar, stage);
  document.body.append(dialog);

  const hashOf = (index: number) => `#${labels.hash}-${index + 1}`;
  const inHistory = () => (history.state as Record<string, unknown> | null)?.[STATE_KEY] !== undefined;

  const show = (index: number) => {
    current = ((index % count) + count) % count;
    const picture = links[current]!.querySelector('picture')?.cloneNode(true) as HTMLElement | undefined;
    if (picture) {
      for (const source of picture.querySelectorAll('source, img')) source.setAttribute('sizes', '100vw');
      const img = picture.querySelector('img');
      if (img) {
        img.loading = 'eager';
        img.className = 'max-h-full max-w-full object-contain';
        img.dataset['viewerImage'] = '';
      }
      picture.className = 'flex h-full w-full items-center justify-center';
      frame.replaceChildren(picture);
    }
    position.textContent = positionText(labels.position, current + 1, count);
  };

  const step = (by: number) => {
    show(current + by);
    if (inHistory()) history.replaceState({ ...(history.state as object), [STATE_KEY]: current }, '', hashOf(current));
  };

  /** Closes through history when the viewer added an entry (so Back and the close button agree). */
  const requestClose = () => {
    if (inHistory()) history.back();
    else dialog.close();
  };

  previous.addEventListener('click', () => step(-1));
  next.addEventListener('click', () => step(1));
  close.addEventListener('click', requestClose);
  dialog.addEventListener('cancel', (event) => {
    // Escape: the same way as the close button.
    event.preventDefault();
    requestClose();
  });
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowLeft') step(-1);
    else if (event.key === 'ArrowRight') step(1);
    else return;
    event.preventDefault();
  });
  // A click beside the picture (on the dark stage, not the picture or a button) closes.
  stage.addEventListener('click', (event) => {
    if (event.target === stage || event.target === frame || (event.target as HTMLElement).tagName === 'PICTURE') requestClose();
  });
  let swipeFrom: { x: number; y: number } | null = null;
  stage.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'mouse') swipeFrom = { x: event.clientX, y: event.clientY };
  });
  stage.addEventListener('pointerup', (event) => {
    if (!swipeFrom) return;
    const dx = event.clientX - swipeFrom.x;
    const dy = event.clientY - swipeFrom.y;
    swipeFrom = null;
    if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(dy)) step(dx < 0 ? 1 : -1);
  });
  stage.addEventListener('pointercancel', () => (swipeFrom = null));
  dialog.addEventListener('close', () => {
    // The focus goes back to the picture the visitor ended on, brought into view in the phone's carousel.
    links[current]?.focus({ preventScroll: true });
    links[current]?.scrollIntoView({ block: 'nearest', inline: 'center' });
  });

  return {
    open: (index, options = {}) => {
      show(index);
      if (options.push !== false) history.pushState({ ...(history.state as object), [STATE_KEY]: current }, '', hashOf(current));
      else history.replaceState({ ...(history.state as object), [STATE_KEY]: current }, '', hashOf(current));
      if (!dialog.open) dialog.showModal();
      close.focus();
    },
    syncWithHistory: () => {
      const state = (history.state as Record<string, unknown> | null)?.[STATE_KEY];
      if (typeof state === 'number') {
        show(state);
        if (!dialog.open) dialog.showModal();
      } else if (dialog.open) {
        dialog.close();
      }
    },
  };
}
