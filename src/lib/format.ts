/** Formatting shared by the browser, the site build and the server: slugs, dates, money. */

const TIME_ZONE = 'Europe/Copenhagen';

/** Lower case with Danish letters folded as the slugs have them: æ→ae, ø→oe, å→aa, other accents dropped. */
export function foldDanish(text: string): string {
  return text
    .toLowerCase()
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'oe')
    .replace(/å/g, 'aa')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
}

/** Lower case; æ→ae, ø→oe, å→aa; spaces and slashes → '-'; anything else non-alphanumeric dropped. */
export function slugify(text: string): string {
  return foldDanish(text)
    .replace(/[\s/]+/g, '-')
    .replace(/[^a-z0-9-]/g, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Compares place names the way the spec's search route does: case, accents and æøå/ae-oe-aa folded. */
export function normalisePlaceName(text: string): string {
  return slugify(text).replace(/-/g, '');
}

/** Created once: building an Intl.DateTimeFormat costs far more than using one. */
let copenhagenFormat: Intl.DateTimeFormat | undefined;

function partsInCopenhagen(date: Date): Record<string, string> {
  copenhagenFormat ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const parts = copenhagenFormat.formatToParts(date);
  return Object.fromEntries(parts.map((p) => [p.type, p.value]));
}

/** The Copenhagen day of an instant as yyyy-MM-dd (a date field's value, a day's key). */
export function isoDayOf(value: Date | string | number): string {
  const p = partsInCopenhagen(new Date(value));
  return `${p['year']}-${p['month']}-${p['day']}`;
}

/** A day given as yyyy-MM-dd shown as dd-MM-yyyy, as dates are shown here; empty stays empty. */
export const formatIsoDay = (day: string): string => (day ? day.split('-').reverse().join('-') : '');

/**
 * A day as a person types it here, "dd-MM-yyyy" (also d-M-yyyy, with / or .), or as the calls and addresses
 * carry it, ISO "yyyy-MM-dd[T…]", as "yyyy-MM-dd" when it is a real date; anything else null.
 */
export function parseDay(text: string): string | null {
  const trimmed = text.trim();
  const danish = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(trimmed);
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(trimmed);
  const [year, month, day] = danish
    ? [Number(danish[3]), Number(danish[2]), Number(danish[1])]
    : iso
      ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
      : [NaN, NaN, NaN];
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** What a day field shows for a value: an ISO day as dd-MM-yyyy; anything else (what was typed) as it is. */
export const dayFieldText = (value: string): string => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? formatIsoDay(value) : value);

/** What an address or a call carries for a day field's text: the ISO day when it is one, else the text as typed. */
export const dayFieldValue = (text: string): string => parseDay(text) ?? text.trim();

/** The Copenhagen day now and the first day of its month, yyyy-MM-dd (a period's default: this month so far). */
export function thisMonthSoFar(now: Date | number = Date.now()): { from: string; to: string } {
  const to = isoDayOf(now);
  return { from: `${to.slice(0, 8)}01`, to };
}

/** dd-MM-yyyy in Europe/Copenhagen. */
export function formatDate(value: Date | string | number): string {
  const p = partsInCopenhagen(new Date(value));
  return `${p['day']}-${p['month']}-${p['year']}`;
}

/** dd-MM-yyyy HH:mm in Europe/Copenhagen. */
export function formatDateTime(value: Date | string | number): string {
  const p = partsInCopenhagen(new Date(value));
  return `${p['day']}-${p['month']}-${p['year']} ${p['hour']}:${p['minute']}`;
}

/** An amount in øre as kroner with Danish separators, as a form shows it to be edited: 123400 → "1.234,00". */
export function formatKroner(ore: number): string {
  const sign = ore < 0 ? '-' : '';
  const abs = Math.abs(Math.round(ore));
  const kroner = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const rest = (abs % 100).toString().padStart(2, '0');
  return `${sign}${kroner},${rest}`;
}

/** Money is stored in øre (integers, VAT included): 123400 → "1.234,00 DKK". */
export function formatDkk(ore: number): string {
  return `${formatKroner(ore)} DKK`;
}

/** Reading time at 200 words per minute, at least one minute. */
export function readingMinutes(text: string): number {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.ceil(words / 200));
}

/** Shows the first digits of a phone number and hides the last `hidden` of its 8 digits. */
export function maskPhone(phone: string, hidden = 4): string {
  const digits = phone.replace(/\D/g, '').slice(-8);
  return digits.slice(0, 8 - hidden) + 'x'.repeat(Math.min(hidden, digits.length));
}
