/**
 * The load generators and the reference of `npm run bench` (issue 19: a ratio counts only when the load
 * generator is not the bottleneck). Each runs in a process of its own, never in the bench's:
 *
 * - `wrk` (Debian's package, one thread): closed-loop load at full speed, a fixed URL or a file of paths,
 *   optionally paced; prints its figures as one JSON line from a Lua script.
 * - `startReference`: a plain node:http server in a process of its own that answers recorded answers
 *   (status, headers, bytes) by path, or `OK` to every path: what the machine does with no framework.
 * - `steadyLoad` (scripts/bench-steady.ts): an open loop of evenly spaced requests, each timed from its own
 *   start, for latencies at a fixed rate (closed-loop clients time only the answers they wait for).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type LoadRow = { name: string; rps: number; p50: number; p95: number; p99: number; errors: number; note?: string };

/**
 * wrk's script: the request from the environment (method, body, `Name: value` header lines), walking a paths file when
 * one is given (one thread), optionally paced (a random wait of `WRK_DELAY_MS` on average per connection
 * between a response and its next request), and its figures as one JSON line at the end. `wrapped` says the
 * paths file ran out and paths were sent again. wrk counts a status of 400 or more as an error.
 */
const WRK_SCRIPT = `
local paths = {}
local index = 0
local wrapped = 0
local pause = tonumber(os.getenv("WRK_DELAY_MS") or "0")
local file = os.getenv("WRK_PATHS") or ""
wrk.method = os.getenv("WRK_METHOD") or "GET"
local body = os.getenv("WRK_BODY") or ""
if body ~= "" then wrk.body = body end
for name, value in string.gmatch(os.getenv("WRK_HEADERS") or "", "([^\\n:]+): ([^\\n]*)") do wrk.headers[name] = value end
-- Without a paths file wrk makes the one request once (a request function per request costs the client).
if file ~= "" then
  for line in io.lines(file) do paths[#paths + 1] = line end
  request = function()
    index = index + 1
    if index > #paths then index = 1; wrapped = wrapped + 1 end
    return wrk.format(nil, paths[index])
  end
end
if pause > 0 then
  -- Exponential gaps around the mean (arrivals as from many independent visitors): equal gaps would keep
  -- the connections in step, so their requests would arrive together.
  math.randomseed(os.time())
  delay = function() return math.floor(-math.log(1 - math.random()) * pause) end
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK {"requests":%d,"duration_us":%d,"p50":%.3f,"p90":%.3f,"p975":%.3f,"p99":%.3f,"errors":%d,"wrapped":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(97.5) / 1000, latency:percentile(99) / 1000,
    e.connect + e.read + e.write + e.status + e.timeout, wrapped))
end
`;

export type WrkResult = { rps: number; p50: number; p90: number; p975: number; p99: number; errors: number; wrapped: number; requests: number };

export type WrkOptions = {
  url: string;
  seconds: number;
  connections: number;
  /** A file of paths (one a line) walked in turn; default the URL's own. */
  pathsFile?: string;
  /** Mean wait per connection between an answer and its next request (paced load). */
  delayMs?: number;
  method?: 'GET' | 'POST' | 'HEAD';
  body?: string;
  headers?: Record<string, string>;
};

/** Whether wrk is installed (the parts that need it say they were skipped). */
export async function wrkInstalled(): Promise<boolean> {
  try {
    await run('wrk', ['--version']);
    return true;
  } catch (error) {
    // wrk --version exits 1 after printing its version.
    return String((error as { stdout?: string }).stdout ?? '').startsWith('wrk');
  }
}

let scriptFile: string | null = null;

/** Runs wrk with one thread (the server under test has the other core) and answers its figures. */
export async function wrk(options: WrkOptions): Promise<WrkResult> {
  if (scriptFile === null) {
    scriptFile = path.join(process.env['TMPDIR'] ?? '/tmp', `bench-wrk-${process.pid}.lua`);
    await writeFile(scriptFile, WRK_SCRIPT);
  }
  const headers = Object.entries(options.headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  const { stdout } = await run(
    'wrk',
    ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '10s', '-s', scriptFile, options.url],
    {
      env: {
        ...process.env,
        WRK_PATHS: options.pathsFile ?? '',
        WRK_DELAY_MS: String(options.delayMs ?? 0),
        WRK_METHOD: options.method ?? 'GET',
        WRK_BODY: options.body ?? '',
        WRK_HEADERS: headers,
      },
      maxBuffer: 1 << 20,
    },
  );
  const line = stdout.split('\n').find((l) => l.startsWith('WRK '));
  if (!line) throw new Error(`wrk printed no figures:\n${stdout}`);
  const figures = JSON.parse(line.slice(4)) as { requests: number; duration_us: number; p50: number; p90: number; p975: number; p99: number; errors: number; wrapped: number };
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    requests: figures.requests,
    rps: figures.requests / (figures.duration_us / 1e6),
    p50: round(figures.p50),
    p90: round(figures.p90),
    p975: round(figures.p975),
    p99: round(figures.p99),
    errors: figures.errors,
    wrapped: figures.wrapped,
  };
}

/** A row of the bench's table from wrk's figures (p97.5 in the p97.5 column). */
export const wrkRow = (name: string, result: WrkResult, note?: string): LoadRow => ({
  name,
  rps: Math.round(result.rps),
  p50: result.p50,
  p95: result.p975,
  p99: result.p99,
  errors: result.errors,
  ...(note ? { note } : {}),
});

/**
 * One recorded answer the reference gives for a path (any query): with `encoding: 'br'` to requests that
 * accept Brotli, else to the others.
 */
export type RecordedAnswer = { path: string; status: number; headers: Record<string, string>; body: Buffer; encoding?: 'br' };

/**
 * A plain node:http server in a process of its own (the reference): each recorded answer by path, with
 * its headers and bytes as recorded, or `OK` to every path when none are given.
 */
export async function startReference(workDir: string, answers: RecordedAnswer[] = []): Promise<{ url: string; stop: () => void }> {
  const answersFile = path.join(workDir, `reference-${process.pid}-${Date.now()}.json`);
  await writeFile(answersFile, JSON.stringify(answers.map((a) => ({ ...a, body: a.body.toString('base64') }))));
  const source = `
    const http = require('node:http');
    const answers = new Map();
    for (const a of JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'))) {
      const body = Buffer.from(a.body, 'base64');
      answers.set((a.encoding || '') + ' ' + a.path, { status: a.status, headers: { ...a.headers, 'content-length': body.length }, body });
    }
    const ok = { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'content-length': 2 }, body: Buffer.from('OK') };
    const server = http.createServer((request, response) => {
      const url = request.url || '/';
      const query = url.indexOf('?');
      const encoding = /\\bbr\\b/.test(request.headers['accept-encoding'] || '') ? 'br' : '';
      const hit = answers.size === 0 ? ok : answers.get(encoding + ' ' + (query === -1 ? url : url.slice(0, query)));
      if (!hit) return void response.writeHead(404).end();
      response.writeHead(hit.status, hit.headers).end(request.method === 'HEAD' ? undefined : hit.body);
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
  `;
  const child: ChildProcess = spawn(process.execPath, ['-e', source, answersFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the reference server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => void child.kill('SIGTERM') };
}

export type SteadyTarget = { name: string; url: string; method?: 'GET' | 'POST'; body?: string };

/**
 * Requests at evenly spaced moments (an open loop, as independent visitors arrive), each timed from its
 * own start, from a separate small process (scripts/bench-steady.ts). A closed-loop client at a fixed rate
 * (autocannon's overallRate) sends each second's requests back to back and then waits, so its p99
 * measures that burst's queue.
 */
export async function steadyLoad(target: SteadyTarget, rate: number, seconds: number): Promise<LoadRow> {
  const { samples: _samples, ...row } = await steadySamples(target, rate, seconds);
  return row;
}

/** `steadyLoad` with every latency of the window (ms), for pooling windows. */
async function steadySamples(target: SteadyTarget, rate: number, seconds: number): Promise<LoadRow & { samples: number[] }> {
  const { stdout } = await run(
    process.execPath,
    [path.join(import.meta.dirname, 'bench-steady.ts'), target.url, target.method ?? 'GET', target.body ?? '-', String(rate), String(seconds), 'samples'],
    { maxBuffer: 16 << 20 },
  );
  const result = JSON.parse(stdout) as Omit<LoadRow, 'name'> & { samples: number[] };
  return { name: target.name, ...result };
}

/** The q-quantile of sorted latencies, rounded to 0.1 ms (as bench-steady.ts rounds its own). */
const quantile = (sorted: number[], q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 10) / 10;

export type AlternatingResult = {
  idle: LoadRow[];
  busy: (LoadRow & { background: string })[];
  /** p50 and p99 of all idle windows' latencies pooled, and of all busy windows' pooled. */
  pooled: { idle: { p50: number; p99: number; samples: number }; busy: { p50: number; p99: number; samples: number } };
  ratio: number;
};

/**
 * A steady load's latency idle against while a background load runs (issue 16's postbacks, issue 5's
 * uploads), measured in `windows` alternating pairs (idle, busy, idle, busy, …) and judged on the p99 of
 * each side's latencies pooled over its windows. On this VM one window's p99 moves by half between two
 * idle windows a minute apart (the machine's speed drifts, and a p99 of 2,000 requests rests on 20 of
 * them): alternation spreads the drift over both sides, and pooling judges each side on all its requests.
 * `before` runs before each idle window (e.g. waiting for the machine to fall quiet); `background` starts
 * the busy window's load and answers a note on what it did, once it has stopped.
 */
export async function alternatingP99(options: {
  target: SteadyTarget;
  rate: number;
  seconds: number;
  windows: number;
  before?: () => Promise<string>;
  background: (seconds: number) => { done: Promise<string> };
}): Promise<AlternatingResult> {
  const idle: (LoadRow & { samples: number[] })[] = [];
  const busy: (LoadRow & { samples: number[]; background: string })[] = [];
  for (let window = 0; window < options.windows; window += 1) {
    const note = options.before ? await options.before() : '';
    idle.push({ ...(await steadySamples(options.target, options.rate, options.seconds)), ...(note ? { note } : {}) });
    // The background runs through the steady load's own warm-up (2 s) and a little after its end.
    const background = options.background(options.seconds + 4);
    const measured = await steadySamples(options.target, options.rate, options.seconds);
    busy.push({ ...measured, background: await background.done });
  }
  const pool = (rows: { samples: number[] }[]) => {
    const all = rows.flatMap((row) => row.samples).sort((a, b) => a - b);
    return { p50: quantile(all, 0.5), p99: quantile(all, 0.99), samples: all.length };
  };
  const pooled = { idle: pool(idle), busy: pool(busy) };
  const strip = <T extends { samples: number[] }>({ samples: _samples, ...row }: T) => row;
  return { idle: idle.map(strip), busy: busy.map(strip), pooled, ratio: pooled.busy.p99 / Math.max(pooled.idle.p99, 0.01) };
}

/** The machine's busy share (0 to 1, all cores) over `ms`, from /proc/stat (Linux); null elsewhere. */
async function busyShare(ms: number): Promise<number | null> {
  const read = async () => {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!;
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return { idle, total: ticks.slice(0, 8).reduce((sum, n) => sum + n, 0) };
  };
  try {
    const before = await read();
    await new Promise((resolve) => setTimeout(resolve, ms));
    const after = await read();
    const total = after.total - before.total;
    return total > 0 ? 1 - (after.idle - before.idle) / total : 0;
  } catch {
    return null;
  }
}

/**
 * Waits until the machine is quiet (under `threshold` busy over a second, all cores) or `maxMs` passed:
 * before an "idle" measurement, the work a previous load left behind (the notices and emails of a thousand
 * payments, the database's autovacuum after them) must be done, or the idle figure measures it. Answers
 * how long it waited and whether it got quiet.
 */
export async function waitForQuiet(maxMs = 120_000, threshold = 0.1): Promise<{ waitedMs: number; quiet: boolean }> {
  const started = Date.now();
  for (;;) {
    const busy = await busyShare(1000);
    if (busy === null || busy < threshold) return { waitedMs: Date.now() - started, quiet: true };
    if (Date.now() - started > maxMs) return { waitedMs: Date.now() - started, quiet: false };
  }
}
