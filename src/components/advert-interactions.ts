/**
 * The interactive parts of an advert page, in plain DOM code (no React needed for them):
 * - "open now", computed at the visitor's moment in Europe/Copenhagen time, and today's row of the schedule;
 * - the phone number, masked in the HTML and fetched from the API only when the visitor taps "Show number"
 *   (then a tel: link, and a WhatsApp link when the advertiser has WhatsApp).
 * - the report button and the "Write a review" button, which load their forms on their first click;
 * - the pictures: the phone carousel's position, and the picture viewer (picture-viewer.ts), loaded on the
 *   first click of a picture or when the page is opened at a picture's address (`#billede-3`).
 * Used by the prebuilt advert pages and by the browser rendering of adverts not built yet.
 */
import { frontendApi } from '#lib/api/frontend.ts';
import { copenhagenClock, isOpenAt, type ScheduleEntry } from '#lib/schedule.ts';
import { localeFromPath, type Locale } from '#lib/i18n/locales.ts';
import type { Messages } from '#lib/i18n/messages.ts';
import { phoneDisplay, telHref, whatsappHref } from './advert-view.ts';
import type { Viewer } from './picture-viewer.ts';
import { positionText } from './gallery-position.ts';

function showOpenNow(root: ParentNode, now: Date): void {
  const badge = root.querySelector<HTMLElement>('[data-open-now]');
  const table = root.querySelector<HTMLElement>('[data-schedule]');
  if (!badge || !table) return;
  let schedule: ScheduleEntry[];
  try {
    schedule = JSON.parse(table.dataset['schedule'] ?? '[]') as ScheduleEntry[];
  } catch (error) {
    console.warn('Unreadable schedule', error);
    return;
  }
  const open = isOpenAt(schedule, now);
  badge.textContent = (open ? badge.dataset['openLabel'] : badge.dataset['closedLabel']) ?? '';
  badge.className = `rounded-full px-3 py-1 font-medium ${open ? 'bg-emerald-700 text-white' : 'bg-slate-100 text-slate-700'}`;
  badge.hidden = false;
  const today = table.querySelector<HTMLElement>(`tr[data-weekday="${copenhagenClock(now).weekday}"]`);
  if (today) {
    today.classList.add('bg-brand-50', 'font-semibold');
    today.setAttribute('aria-current', 'date');
  }
}

function wirePhone(root: ParentNode, locale: Locale): void {
  const box = root.querySelector<HTMLElement>('[data-phone-box]');
  const button = box?.querySelector<HTMLButtonElement>('[data-reveal-phone]');
  if (!box || !button) return;
  const id = Number(box.dataset['advertId']);
  button.addEventListener('click', () => {
    button.disabled = true;
    box.querySelector<HTMLElement>('[data-phone-error]')!.hidden = true;
    frontendApi.fullProfile(id, locale).then(
      (profile) => {
        if (!profile.phone) throw new Error('The advert has no phone number');
        const number = box.querySelector<HTMLElement>('[data-phone-number]')!;
        const links = box.querySelector<HTMLElement>('[data-phone-links]')!;
        number.hidden = true;
        const call = document.createElement('a');
        call.href = telHref(profile.phone);
        call.textContent = `${links.dataset['callLabel'] ?? ''} ${phoneDisplay(profile.phone)}`.trim();
        call.className = 'inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800';
        call.dataset['phoneLink'] = '';
        links.replaceChildren(call);
        if (profile.hasWhatsapp) {
          const whatsapp = document.createElement('a');
          whatsapp.href = whatsappHref(profile.phone);
          whatsapp.rel = 'noopener nofollow';
          whatsapp.target = '_blank';
          whatsapp.textContent = links.dataset['whatsappLabel'] ?? 'WhatsApp';
          whatsapp.className =
            'inline-flex min-h-11 items-center rounded-lg border border-emerald-700 px-5 font-semibold text-emerald-800 hover:bg-emerald-50';
          whatsapp.dataset['whatsappLink'] = '';
          links.append(whatsapp);
        }
        links.hidden = false;
        button.remove();
        call.focus();
      },
      (error: unknown) => {
        console.warn('Could not show the phone number', error);
        button.disabled = false;
        box.querySelector<HTMLElement>('[data-phone-error]')!.hidden = false;
      },
    );
  });
}

/**
 * A button that loads its dialog (React) on its first click; the dialog handles later clicks. While it
 * loads the button is busy; if it cannot be loaded, the page says so and the next click tries again.
 * `name` picks the elements: `[data-{name}-open]`, `[data-{name}-root]`, `[data-{name}-error]`.
 */
function wireLazyDialog(
  root: HTMLElement,
  name: 'report' | 'review',
  mount: (container: HTMLElement, button: HTMLButtonElement, messages: Messages) => Promise<unknown>,
): void {
  const button = root.querySelector<HTMLButtonElement>(`[data-${name}-open]`);
  const container = root.querySelector<HTMLElement>(`[data-${name}-root]`);
  const failure = root.querySelector<HTMLElement>(`[data-${name}-error]`);
  if (!button || !container) return;
  const first = () => {
    button.removeEventListener('click', first);
    button.setAttribute('aria-busy', 'true');
    // A failure said on an earlier try goes away while trying again (and stays away once it loads).
    if (failure) failure.hidden = true;
    const messagesElement = document.querySelector('[data-report-messages]') ?? document.querySelector('[data-advert-messages]');
    const messages = JSON.parse(messagesElement?.textContent ?? '{}') as Messages;
    mount(container, button, messages).then(
      () => button.removeAttribute('aria-busy'),
      (error: unknown) => {
        console.error(`The ${name} form could not be loaded`, error);
        button.removeAttribute('aria-busy');
        if (failure) failure.hidden = false;
        button.addEventListener('click', first);
      },
    );
  };
  button.addEventListener('click', first);
}

/** The report button: the report form, with the advert's canonical address in the page's language. */
function wireReport(root: HTMLElement): void {
  wireLazyDialog(root, 'report', async (container, opener, messages) => {
    const canonical = root.dataset['advertUrl'] ?? location.pathname;
    const { mountReportDialog } = await import('./report-dialog.tsx');
    mountReportDialog(container, {
      messages,
      advertId: Number(root.dataset['advert']),
      advertUrl: location.origin + (localeFromPath(location.pathname) === 'en' ? `/en${canonical}` : canonical),
      opener,
    });
  });
}

/** The "Write a review" button: the review form. */
function wireReview(root: HTMLElement, locale: Locale): void {
  wireLazyDialog(root, 'review', async (container, opener, messages) => {
    const { mountReviewDialog } = await import('./review-dialog.tsx');
    mountReviewDialog(container, {
      messages,
      locale,
      advertId: Number(root.dataset['advert']),
      advertName: opener.dataset['advertName'] ?? '',
      opener,
    });
  });
}

/** The picture index an address's hash names (`#billede-3` or `#picture-3` → 2), or null. */
export function pictureIndexOfHash(hash: string, count: number): number | null {
  const match = /^#(?:billede|picture)-(\d{1,3})$/.exec(hash);
  if (!match) return null;
  const number = Number(match[1]);
  return number >= 1 && number <= count ? number - 1 : null;
}

/**
 * The phone carousel: its position ("2 / 8") follows its scrolling, and a picture reached with the keyboard
 * is scrolled to the middle (focus alone would show only its edge).
 */
function followCarousel(gallery: HTMLElement, position: HTMLElement): void {
  gallery.addEventListener('focusin', (event) => {
    const item = (event.target as Element).closest('li');
    if (item && gallery.scrollWidth > gallery.clientWidth) item.scrollIntoView({ block: 'nearest', inline: 'center' });
  });
  const items = gallery.querySelectorAll<HTMLElement>(':scope > li');
  const format = gallery.dataset['viewerPosition'] ?? '{number} / {count}';
  let pending = false;
  gallery.addEventListener(
    'scroll',
    () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        const width = items.length > 1 ? items[1]!.offsetLeft - items[0]!.offsetLeft : 0;
        if (width <= 0) return;
        const index = Math.min(items.length - 1, Math.max(0, Math.round(gallery.scrollLeft / width)));
        position.textContent = positionText(format, index + 1, items.length);
      });
    },
    { passive: true },
  );
}

/** The gallery: a click on a picture opens the viewer (a plain link to the large copy until it has loaded, or if it cannot). */
function wireGallery(root: HTMLElement): void {
  const gallery = root.querySelector<HTMLElement>('[data-gallery]');
  if (!gallery) return;
  const position = root.querySelector<HTMLElement>('[data-gallery-position]');
  if (position) followCarousel(gallery, position);
  const count = gallery.querySelectorAll('a[data-picture-open]').length;
  let viewer: Promise<Viewer> | null = null;
  const load = () => (viewer ??= import('./picture-viewer.ts').then(({ createPictureViewer }) => createPictureViewer(gallery)));
  gallery.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-picture-open]');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    load().then(
      (loaded) => loaded.open(Number(link.dataset['pictureOpen'])),
      (error: unknown) => {
        console.error('The picture viewer could not be loaded', error);
        viewer = null;
        location.href = link.href;
      },
    );
  });
  window.addEventListener('popstate', () => {
    if (viewer) void viewer.then((loaded) => loaded.syncWithHistory());
  });
  // Opened at a picture's address (or the address changed to one): the page first, then the viewer as its
  // own history entry, so Back closes it.
  const openLinked = () => {
    const linked = pictureIndexOfHash(location.hash, count);
    if (linked === null || (history.state as Record<string, unknown> | null)?.['pictureViewer'] !== undefined) return;
    history.replaceState(history.state, '', location.pathname + location.search);
    void load().then((loaded) => loaded.open(linked));
  };
  window.addEventListener('hashchange', openLinked);
  openLinked();
}

/** Wires the advert under `root` once. */
export function initAdvert(root: HTMLElement, locale: Locale, now = new Date()): void {
  if (root.dataset['wired']) return;
  root.dataset['wired'] = 'true';
  showOpenNow(root, now);
  wirePhone(root, locale);
  wireReport(root);
  wireReview(root, locale);
  wireGallery(root);
}
