/**
 * One visitor counts once per advert, figure and place per window (issue 32, docs/decisions/040), and an
 * address gets a budget of counted events an hour; the address itself is never kept: both work on keys
 * made under the day's salt (`DayKeys`, ../visitors.ts).
 *
 * - `RepeatWindow` remembers keys for `windowMs` in this process (insertion-ordered Map: the oldest are
 *   dropped first, at most `maxKeys`).
 * - `AddressBudget` is a token bucket per address key: `perHour` events, refilled evenly.
 */

export class RepeatWindow {
  private readonly seenAt = new Map<string, number>();
  private readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(windowMs: number, maxKeys: number, now: () => number = Date.now) {
    this.windowMs = windowMs;
    this.maxKeys = maxKeys;
    this.now = now;
  }

  /** True when the key was seen within the window (a repeat: not counted); else remembers it and says false. */
  repeat(key: string): boolean {
    const now = this.now();
    const at = this.seenAt.get(key);
    if (at !== undefined && now - at < this.windowMs) return true;
    this.seenAt.delete(key);
    this.seenAt.set(key, now);
    this.trim(now);
    return false;
  }

  get size(): number {
    return this.seenAt.size;
  }

  /** Drops the keys older than the window, oldest first, and the oldest beyond maxKeys. */
  private trim(now: number): void {
    for (const [key, at] of this.seenAt) {
      if (this.seenAt.size > this.maxKeys || now - at >= this.windowMs) this.seenAt.delete(key);
      else break;
    }
  }
}

export class AddressBudget {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perHour: number;
  private readonly maxAddresses: number;
  private readonly now: () => number;

  constructor(perHour: number, maxAddresses: number, now: () => number = Date.now) {
    this.perHour = perHour;
    this.maxAddresses = maxAddresses;
    this.now = now;
  }

  /** Takes one event from the address's budget: false when it has none left this hour. */
  take(addressKey: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(addressKey);
    const tokens = bucket ? Math.min(this.perHour, bucket.tokens + ((now - bucket.at) / 3_600_000) * this.perHour) : this.perHour;
    if (tokens < 1) {
      this.buckets.set(addressKey, { tokens, at: now });
      return false;
    }
    this.buckets.delete(addressKey);
    this.buckets.set(addressKey, { tokens: tokens - 1, at: now });
    // An address not seen for longest is forgotten first (it would have its whole budget back by now or soon).
    if (this.buckets.size > this.maxAddresses) this.buckets.delete(this.buckets.keys().next().value!);
    return true;
  }
}
