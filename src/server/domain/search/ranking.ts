/**
 * How adverts are ordered (docs/decisions/026-ranking.md; the public page /ranking/ says the same in
 * words). One rule for the front page and for search results:
 *
 * 1. Boosted adverts first where the boost was bought: a front-page boost on the front page, a search
 *    boost in the search results of the advert's own kind and place. A boost counts only while the
 *    advert is public: the search index holds public adverts only (the visibility rule), and decides
 *    whether a boost runs when it refreshes a row (refresh-advert-search.ts; a boost's end is a recheck).
 * 2. The boosted adverts among themselves: `rotateBoosted`, the same for every instance within a minute,
 *    and fair: over k minutes each of k boosted adverts is first exactly once.
 * 3. Then the rest as before: the front page in an order reshuffled every minute (`shufflePosition`),
 *    search results most recently updated first (the index's `rank`).
 */

import { mulberry32 } from '../../seeded-random.ts';

/** Search-boosted adverts rank above every other in the index: 2^41 ms is past the year 2039 as a timestamp. */
export const BOOST_RANK = 2 ** 41;

/** The minute that seeds every order: the same for every instance and cache within it. */
export function shuffleMinute(now: Date): number {
  return Math.floor(now.getTime() / 60_000);
}

/** Seconds until the next minute's order (at least 1): how long an answer may be cached. */
export function secondsOfThisOrder(now: Date): number {
  return Math.max(1, 60 - now.getUTCSeconds());
}

/** The finaliser of MurmurHash3: a well-spread 32-bit number from a small integer (one to one). */
function mix32(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Where an unboosted advert falls in a minute's front-page order: a hash of (id, minute), different
 * adverts never equal within a minute. (The hash used before, id·a + minute·b mod p, moved every advert
 * by the same step each minute, so the order hardly ever changed.)
 */
export function shufflePosition(advertId: number, minute: number): number {
  return mix32(Math.imul(advertId, 0x9e3779b1) ^ mix32(minute));
}

/**
 * The boosted adverts of one list (the front page, or one search's results) in this minute's order.
 * Minutes are taken k at a time (k boosted adverts): each such round shuffles the adverts (Fisher–Yates,
 * seeded by the round), and each minute of the round turns that order one step further. So within every
 * round each advert is first exactly once, and in each other position exactly once, while which advert
 * follows which changes from round to round. The answer depends only on the set of ids and the minute.
 */
export function rotateBoosted(advertIds: readonly number[], minute: number): readonly number[] {
  if (advertIds.length < 2) return advertIds;
  // A search may match thousands of boosted adverts, and the same lists are asked for again and again
  // within a minute: their orders are kept for the minute, by a fingerprint of the set (any order).
  if (memoMinute !== minute) {
    memo.clear();
    memoMinute = minute;
  }
  let sum = 0;
  let xor = 0;
  for (const id of advertIds) {
    sum = (sum + mix32(id)) | 0;
    xor ^= mix32(id ^ 0x5bd1e995);
  }
  const key = `${advertIds.length}:${sum}:${xor}`;
  let order = memo.get(key);
  if (!order) {
    order = turnedOrder(advertIds, minute);
    if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
    memo.set(key, order);
  }
  return order;
}

const MEMO_SIZE = 256;
const memo = new Map<string, number[]>();
let memoMinute = -1;

function turnedOrder(advertIds: readonly number[], minute: number): number[] {
  const sorted = Int32Array.from(advertIds).sort();
  let k = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[k++] = sorted[i]!;
  const order = sorted.subarray(0, k);
  const round = Math.floor(minute / Math.max(k, 1));
  const turn = minute - round * k;
  const random = mulberry32(mix32(round ^ Math.imul(k, 0x9e3779b1)));
  for (let i = k - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const swap = order[i]!;
    order[i] = order[j]!;
    order[j] = swap;
  }
  const turned = new Array<number>(k);
  for (let p = 0; p < k; p++) turned[p] = order[(p + turn) % k]!;
  return turned;
}

/** A list in this minute's order: the boosted ones rotated (`rotateBoosted`), then the rest as given. */
export function boostedFirst(boostedIds: readonly number[], restIds: readonly number[], minute: number): number[] {
  return [...rotateBoosted(boostedIds, minute), ...restIds];
}
