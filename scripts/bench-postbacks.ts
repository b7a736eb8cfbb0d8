/**
 * The payment part of `npm run bench` (issue 16): the card provider's postbacks (GET
 * /api/backend/cardbillingpostback, signed as FlexPay signs them) against the server in production mode with
 * the real card provider configured (PAYMENT_CARD=cardbilling, a shop id and key of the bench's own).
 *
 * 1. Before the server starts, `createBenchOrders` adds unpaid card orders for the seeded adverts, as
 *    buyproduct leaves them (PGlite has one process: the server must be stopped). Every postback sent is the
 *    first one of its own order, so each one takes the whole path: signature, raw postback stored, the order
 *    locked and moved to Paid, the package extended, the receipt numbered, audit, search and site publish.
 * 2. The load generator is wrk (Debian's package), in a process of its own, with a Lua script that walks a
 *    file of signed postback paths. It is first run against a plain node:http server in another process of
 *    its own that answers `OK` to every path (the reference), to show that it can drive far more than the
 *    server's rate, then against the server at full speed (postbacks/s), then paced at half that rate (p99;
 *    target under 50 ms).
 * 3. searchpageprofiles p99 at a fixed rate (autocannon, in the bench's process; twice BENCH_SECONDS) with
 *    nothing else running, then while postbacks arrive at half their maximum rate (target: at most 1.1x).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { publicAdvertCondition } from '#server/domain/adverts/visibility.ts';
import { openDatabase, type OpenDatabaseOptions } from '#server/db/client.ts';
import { adverts, orders, products } from '#server/db/schema.ts';
import { newReference, recordOrderCreated } from '#server/domain/commerce/orders.ts';
import { newOrderValues } from '#server/domain/commerce/buy-product.ts';
import { decimalAmount, signedPostbackQuery } from '#server/adapters/payments/flexpay.ts';

const run = promisify(execFile);

/** The card provider's name and method, as the server's real card provider (cardbilling) records them. */
const CARD = { method: 'card', name: 'cardbilling' } as const;

/** The card provider the bench's server is started with (its postbacks are signed with this key). */
export const BENCH_CARD = { shopId: '424242', signatureKey: process.env['BENCH_CARD_KEY'] ?? randomBytes(24).toString('base64url') } as const;

export type PostbackRow = { name: string; rps: number; p50: number; p95: number; p99: number; errors: number; note?: string };
type SearchTarget = { name: string; url: string; method?: 'GET' | 'POST'; body?: string; rate?: number };

type Options = {
  url: string;
  workDir: string;
  /** Signed postback paths, one per unpaid order, from `createBenchOrders`. */
  paths: string[];
  /** The search whose p99 is compared idle and while postbacks arrive. */
  search: SearchTarget;
  /** Measures a search target (autocannon, the bench's own warm-up and settings). */
  measureSearch: (target: SearchTarget, seconds: number) => Promise<PostbackRow>;
  record: { row: (row: PostbackRow) => void; fact: (fact: string) => void };
  seconds: number;
  connections: number;
};

/**
 * Unpaid card orders (status Created, payable for a day) of the membership-30 product for public seeded
 * adverts (a package bought before the running one ends: the common case, which changes no prebuilt page;
 * one that makes an advert public again also sets off a site rebuild), with their "created" history row,
 * as buyproduct writes them; answers each order's signed
 * postback path (the first sale: type purchase, event initial), in random order.
 */
export async function createBenchOrders(database: OpenDatabaseOptions, count: number): Promise<string[]> {
  const handle = await openDatabase(database);
  try {
    const db = handle.db;
    const [product] = await db.select().from(products).where(eq(products.code, 'membership-30'));
    if (!product) throw new Error('no membership-30 product: seed the reference data first');
    const owners = await db
      .select({ id: adverts.id, accountId: adverts.accountId })
      .from(adverts)
      .where(publicAdvertCondition(new Date()))
      .limit(5000);
    if (owners.length === 0) throw new Error('no public adverts to buy for');
    const now = new Date();
    const paths: string[] = [];
    for (let start = 0; start < count; start += 1000) {
      const values = Array.from({ length: Math.min(1000, count - start) }, (_, i) =>
        newOrderValues({ advert: owners[(start + i) % owners.length]!, product, provider: CARD, reference: newReference(false), locale: 'da', now }),
      );
      // Payable for a day rather than two hours: a long run must not see its orders expire.
      for (const value of values) value.expiresAt = new Date(now.getTime() + 86_400_000);
      const rows = await db.insert(orders).values(values).returning({ id: orders.id, status: orders.status, referenceId: orders.referenceId });
      await recordOrderCreated(db, rows, { actorType: 'advertiser', now });
      for (const row of rows) {
        const sale = String(row.id + 5_000_000);
        const query = signedPostbackQuery(BENCH_CARD.signatureKey, {
          shopID: BENCH_CARD.shopId,
          saleID: sale,
          referenceID: row.referenceId!,
          transactionID: `9${sale}`,
          priceAmount: decimalAmount(product.priceOre),
          priceCurrency: 'DKK',
          type: 'purchase',
          event: 'initial',
          truncatedPAN: 'XXXXXXXXXXXX4242',
        });
        paths.push(`/api/backend/cardbillingpostback?${query}`);
      }
    }
    // Spread each run over many adverts and accounts, as real buyers are.
    for (let i = paths.length - 1; i > 0; i -= 1) {
      const j = Math.floor(Math.random() * (i + 1));
      [paths[i], paths[j]] = [paths[j]!, paths[i]!];
    }
    return paths;
  } finally {
    await handle.close();
  }
}

/**
 * wrk's script: walks the paths file (one thread), optionally paced (a random wait of `WRK_DELAY_MS` on
 * average per connection between a response and its next request), and prints its figures as one JSON line at the end. `wrapped` says the
 * file ran out and paths were sent again (then some postbacks were copies, a cheaper path).
 */
const WRK_SCRIPT = `
local paths = {}
local index = 0
local wrapped = 0
local pause = tonumber(os.getenv("WRK_DELAY_MS") or "0")
for line in io.lines(os.getenv("WRK_PATHS")) do paths[#paths + 1] = line end
request = function()
  index = index + 1
  if index > #paths then index = 1; wrapped = wrapped + 1 end
  return wrk.format("GET", paths[index])
end
if pause > 0 then
  -- Exponential gaps around the mean (arrivals as from many independent buyers): equal gaps would keep
  -- the connections in step, so their requests would arrive together, ten at a time.
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

type WrkResult = { rps: number; p50: number; p90: number; p975: number; p99: number; errors: number; wrapped: number; requests: number };

async function wrk(options: { url: string; pathsFile: string; scriptFile: string; seconds: number; connections: number; delayMs?: number }): Promise<WrkResult> {
  const { stdout } = await run(
    'wrk',
    ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '10s', '-s', options.scriptFile, options.url],
    { env: { ...process.env, WRK_PATHS: options.pathsFile, WRK_DELAY_MS: String(options.delayMs ?? 0) }, maxBuffer: 1 << 20 },
  );
  const line = stdout.split('\n').find((l) => l.startsWith('WRK '));
  if (!line) throw new Error(`wrk printed no figures:\n${stdout}`);
  const figures = JSON.parse(line.slice(4)) as { requests: number; duration_us: number; p50: number; p90: number; p975: number; p99: number; errors: number; wrapped: number };
  return {
    requests: figures.requests,
    rps: figures.requests / (figures.duration_us / 1e6),
    p50: Math.round(figures.p50 * 100) / 100,
    p90: Math.round(figures.p90 * 100) / 100,
    p975: Math.round(figures.p975 * 100) / 100,
    p99: Math.round(figures.p99 * 100) / 100,
    errors: figures.errors,
    wrapped: figures.wrapped,
  };
}

/** A plain node:http server answering `OK` to every path, in a process of its own (the reference). */
async function startReference(): Promise<{ url: string; child: ChildProcess }> {
  const source = `
    const http = require('node:http');
    const server = http.createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'content-length': 2 }).end('OK');
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
  `;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the reference server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

const row = (name: string, result: WrkResult, note?: string): PostbackRow => ({
  name,
  rps: Math.round(result.rps),
  p50: result.p50,
  p95: result.p975,
  p99: result.p99,
  errors: result.errors,
  ...(note ? { note } : {}),
});

export async function benchPostbacks(options: Options): Promise<void> {
  try {
    await run('wrk', ['--version']).catch((error: { stdout?: string }) => {
      // wrk --version exits 1 after printing its version.
      if (!String(error.stdout ?? '').startsWith('wrk')) throw error;
    });
  } catch {
    options.record.fact('postbacks: skipped, wrk is not installed (apt-get install wrk)');
    return;
  }
  const { record, connections } = options;
  const scriptFile = path.join(options.workDir, 'postbacks.lua');
  await writeFile(scriptFile, WRK_SCRIPT);
  // Each run gets paths of its own, so every postback is the first for its order.
  let next = 0;
  const slice = async (name: string, share: number) => {
    const count = Math.floor(options.paths.length * share);
    const file = path.join(options.workDir, `postbacks-${name}.txt`);
    await writeFile(file, `${options.paths.slice(next, next + count).join('\n')}\n`);
    next += count;
    return file;
  };
  const wrapNote = (result: WrkResult) => (result.wrapped > 0 ? `; the orders ran out (${result.wrapped}x), raise BENCH_POSTBACK_ORDERS` : '');

  // The generator against the reference (any paths will do: it reads none).
  const reference = await startReference();
  let referenceRps: number;
  try {
    const referencePaths = path.join(options.workDir, 'postbacks-reference.txt');
    await writeFile(referencePaths, `${options.paths.slice(0, 1000).join('\n')}\n`);
    await wrk({ url: reference.url, pathsFile: referencePaths, scriptFile, seconds: 2, connections });
    const result = await wrk({ url: reference.url, pathsFile: referencePaths, scriptFile, seconds: Math.max(5, Math.round(options.seconds / 2)), connections });
    referenceRps = result.rps;
    record.row(row('postbacks: reference (node:http OK, own process; wrk)', result));
  } finally {
    reference.child.kill('SIGTERM');
  }

  // Full speed: warm-up, then the measured run, each on orders of its own.
  const warmFile = await slice('warm', 0.1);
  await wrk({ url: options.url, pathsFile: warmFile, scriptFile, seconds: 2, connections });
  const maxFile = await slice('max', 0.35);
  const max = await wrk({ url: options.url, pathsFile: maxFile, scriptFile, seconds: Math.max(5, Math.round(options.seconds / 2)), connections });
  record.row(row('postbacks: max (each the first for its order; wrk)', max, `generator drives the reference at ${(referenceRps / Math.max(max.rps, 1)).toFixed(0)}x this rate${wrapNote(max)}`));

  // Half that rate, paced: each connection waits between a response and its next request.
  const rate = Math.max(1, Math.floor(max.rps / 2));
  const delayMs = Math.max(1, Math.round((connections * 1000) / rate));
  const halfFile = await slice('half', 0.25);
  const half = await wrk({ url: options.url, pathsFile: halfFile, scriptFile, seconds: options.seconds, connections, delayMs });
  record.row(row(`postbacks: @ half max (${rate}/s asked)`, half, `${Math.round(half.rps)}/s sent; target p99 < 50 ms: ${half.p99 < 50 ? 'met' : 'NOT met'}${wrapNote(half)}`));

  // searchpageprofiles at a fixed rate: idle, then while postbacks arrive at half their maximum rate. Twice
  // the usual length: a p99 of 200 requests a second over 10 s rests on its 20 slowest answers, and moved
  // by a fifth between two idle runs of the same code.
  const searchSeconds = options.seconds * 2;
  const idle = await options.measureSearch(options.search, searchSeconds);
  record.row({ ...idle, name: `${options.search.name} @ ${options.search.rate}/s, idle` });
  const duringFile = await slice('during', 0.25);
  const background = wrk({ url: options.url, pathsFile: duringFile, scriptFile, seconds: searchSeconds + 4, connections, delayMs });
  const during = await options.measureSearch(options.search, searchSeconds);
  const postbacks = await background;
  const ratio = during.p99 / Math.max(idle.p99, 0.01);
  record.row({
    ...during,
    name: `${options.search.name} @ ${options.search.rate}/s, with postbacks`,
    note: `${ratio.toFixed(2)}x idle p99 (target at most 1.1x: ${ratio <= 1.1 ? 'met' : 'NOT met'}); postbacks meanwhile ${Math.round(postbacks.rps)}/s, p99 ${postbacks.p99} ms, errors ${postbacks.errors}`,
  });
}
