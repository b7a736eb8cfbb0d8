/**
 * An open-loop load of evenly spaced requests, run as its own small process by the media benchmark
 * (scripts/bench-media.ts) so that the benchmark's own memory and work never delay a request or its
 * timing. Prints one JSON line: latencies' p50, p97.5 and p99 in ms, requests per second, errors.
 *
 * Two seconds of the same load go first, unrecorded.
 *
 * With `samples` as a sixth argument the line also holds every latency (ms, to 0.01), for a caller that
 * pools several windows (bench-load.ts `alternatingP99`).
 *
 * Usage: node scripts/bench-steady.ts <url> <method> <body|-> <rate per second> <seconds> [samples]
 */
const [url, method = 'GET', body = '-', rateText = '100', secondsText = '10', samplesFlag = ''] = process.argv.slice(2);
if (!url) throw new Error('usage: bench-steady.ts <url> <method> <body|-> <rate> <seconds>');
const rate = Number(rateText);
const seconds = Number(secondsText);

const latencies: number[] = [];
let errors = 0;
let recording = false;
const one = async () => {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method,
      headers: { 'accept-encoding': 'br, gzip', 'content-type': 'application/json' },
      ...(body !== '-' ? { body } : {}),
    });
    await response.arrayBuffer();
    if (!response.ok && recording) errors += 1;
  } catch {
    if (recording) errors += 1;
  }
  if (recording) latencies.push(performance.now() - started);
};

/** Evenly spaced requests for this many seconds. */
async function load(forSeconds: number): Promise<void> {
  const pending: Promise<void>[] = [];
  const interval = 1000 / rate;
  const begin = performance.now();
  for (let i = 0; i < rate * forSeconds; i += 1) {
    const wait = begin + i * interval - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(one());
  }
  await Promise.all(pending);
}

// Two seconds unrecorded first: connections opened, this process's code compiled.
await load(2);
recording = true;
await load(seconds);
latencies.sort((a, b) => a - b);
const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10;
const samples = samplesFlag === 'samples' ? { samples: latencies.map((ms) => Math.round(ms * 100) / 100) } : {};
process.stdout.write(`${JSON.stringify({ rps: Math.round(latencies.length / seconds), p50: at(0.5), p95: at(0.975), p99: at(0.99), errors, ...samples })}\n`);
