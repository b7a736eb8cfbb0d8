/**
 * The search-terms part of `npm run bench` (issue 17): what counting a visitor's search term costs on the
 * search path (target under 0.1 ms a search). `SearchTermCounter.record` is called in this process with a
 * day's mix of searches (common terms from many visitors, rare terms, phone numbers and email addresses
 * that are dropped, bots), in batches of 1,000; the report gives the mean per search and the slowest
 * batch's mean. No database: counting never touches it (the minute's flush does).
 */
import { SearchTermCounter } from '#server/domain/search/search-terms.ts';

const BROWSER = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const COMMON = ['thaimassage', 'escort københavn', 'Aarhus', 'massage odense', 'trans escort', 'ålborg', 'kbh', 'thai massage vejle'];

export function benchSearchTerms(record: { fact: (fact: string) => void }, searches = 200_000): void {
  const counter = new SearchTermCounter();
  const now = new Date();
  const sightings = Array.from({ length: 10_000 }, (_, i) => {
    const kind = i % 20;
    const text =
      kind < 12 ? COMMON[i % COMMON.length]! : kind < 17 ? `sjældent ord ${i}` : kind === 17 ? `20 ${String(i).padStart(6, '0')}` : kind === 18 ? `navn${i}@example.dk` : 'thaimassage';
    return { text, results: i % 7 === 0 ? 0 : 12, ip: `10.${(i >> 8) & 255}.${i & 255}.${i % 3}`, userAgent: kind === 19 ? 'Googlebot/2.1' : BROWSER };
  });
  // Warm-up (compiled code), then the measured batches.
  for (const sighting of sightings) counter.record(sighting, now);
  let slowest = 0;
  const started = performance.now();
  for (let done = 0; done < searches; done += 1000) {
    const batch = performance.now();
    for (let i = 0; i < 1000; i += 1) counter.record(sightings[(done + i) % sightings.length]!, now);
    slowest = Math.max(slowest, (performance.now() - batch) / 1000);
  }
  const mean = (performance.now() - started) / searches;
  record.fact(
    `search terms: counting costs ${(mean * 1000).toFixed(1)} µs a search on average, ${(slowest * 1000).toFixed(1)} µs in the slowest batch of 1,000 ` +
      `(${searches.toLocaleString('en')} searches; target under 100 µs: ${slowest < 0.1 ? 'met' : 'NOT met'})`,
  );
}
