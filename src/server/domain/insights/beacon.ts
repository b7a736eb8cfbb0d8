/**
 * The insights beacon's body (issue 32, docs/decisions/040): text, one event per line, as the pages' script
 * sends it with `navigator.sendBeacon`:
 *
 *   i {advertId} {place} {rank}     an impression: the card was shown at that rank on that place
 *   v {advertId}                    a view of the advert page
 *   p {advertId}                    a phone reveal ("Vis nummer")
 *   c {advertId} {channel}          a contact tap: tel, sms, whatsapp or link
 *
 * A place is `front`, `search`, or `landing:{kind}[/{region}[/{city}]]` with the site's slugs. What cannot
 * be read is dropped line by line, never an error (a beacon is answered 204 whatever it holds), and at most
 * MAX_LINES lines of a body are read.
 */

export const MAX_LINES = 200;
/** The longest body read (200 lines of the longest event are well under it). */
export const MAX_BODY_BYTES = 16_384;

export const CONTACT_CHANNELS = ['tel', 'sms', 'whatsapp', 'link'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];

export type BeaconEvent =
  | { figure: 'impression'; advertId: number; place: string; rank: number }
  | { figure: 'view'; advertId: number; place: 'advert' }
  | { figure: 'phoneReveal'; advertId: number; place: 'advert' }
  | { figure: 'contactTap'; advertId: number; place: 'advert'; channel: ContactChannel };

const KINDS = new Set(['escort', 'trans-escort', 'thaimassage']);
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$/;
const ID = /^[1-9]\d{0,9}$/;
const MAX_ID = 2_147_483_647;
const MAX_RANK = 100_000;

/** A place as the beacon names it, or null. */
export function readPlace(text: string): string | null {
  if (text === 'front' || text === 'search') return text;
  if (!text.startsWith('landing:')) return null;
  const [kind, ...slugs] = text.slice('landing:'.length).split('/');
  if (!kind || !KINDS.has(kind) || slugs.length > 2 || !slugs.every((slug) => SLUG.test(slug))) return null;
  return text;
}

function readId(text: string | undefined): number | null {
  if (!text || !ID.test(text)) return null;
  const id = Number(text);
  return id <= MAX_ID ? id : null;
}

/** The events of a beacon's body, in order; unreadable lines left out. */
export function readBeacon(body: string): BeaconEvent[] {
  const events: BeaconEvent[] = [];
  const lines = body.slice(0, MAX_BODY_BYTES).split('\n', MAX_LINES);
  for (const line of lines) {
    const [code, idText, third, fourth, ...rest] = line.trim().split(' ');
    const advertId = readId(idText);
    if (advertId === null || rest.length > 0) continue;
    if (code === 'i' && third !== undefined && fourth !== undefined) {
      const place = readPlace(third);
      const rank = /^[1-9]\d{0,5}$/.test(fourth) ? Number(fourth) : 0;
      if (place !== null && rank >= 1 && rank <= MAX_RANK) events.push({ figure: 'impression', advertId, place, rank });
    } else if ((code === 'v' || code === 'p') && third === undefined) {
      events.push({ figure: code === 'v' ? 'view' : 'phoneReveal', advertId, place: 'advert' });
    } else if (code === 'c' && fourth === undefined && (CONTACT_CHANNELS as readonly string[]).includes(third ?? '')) {
      events.push({ figure: 'contactTap', advertId, place: 'advert', channel: third as ContactChannel });
    }
  }
  return events;
}
