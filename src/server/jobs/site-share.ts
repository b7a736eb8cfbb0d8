/**
 * One site for several instances (issue 19, docs/decisions/033): the instance whose rebuild job built
 * the site publishes the build to the shared media storage, and every instance fetches it from there
 * and swaps it in, told through Redis (and by looking every minute, for a missed message or a restart).
 *
 * In the storage's private area:
 * - `site/files/<ab>/<sha256>`: every file of every published build, named by its content, stored once;
 * - `site/builds/<id>.json`: a build's manifest (its build info and `{ path: sha256 }` of every served file);
 * - `site/current.json`: the published build, `{ id, recent }` (the last few ids, whose files are kept).
 *
 * Every build folder also holds its manifest as `.manifest.json` (never served: the server refuses paths
 * with a segment starting with a dot), with the inode of every file, so that the next publish hashes only
 * files that are not hard links of the build before, and a fetch links the files it already has.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, readFile, readdir, readlink, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { buffer } from 'node:stream/consumers';
import type { Logger } from 'pino';
import type { MediaStorage } from '../adapters/types.ts';
import { openRedisChannel } from '../redis-channel.ts';
import { currentSiteDir, pruneBuilds, readBuildInfo, swapCurrent, type BuildInfo } from './site-build.ts';

/** The Redis channel that tells every instance a build was published (the message is its id). */
export const SITE_PUBLISHED_CHANNEL = 'annoncekatalog:site:published';
export const MANIFEST_FILE = '.manifest.json';
const POINTER_KEY = 'site/current.json';
/** Published builds whose files are kept in the storage (the current one and those before it). */
const KEEP_PUBLISHED = 3;
/** Files hashed, uploaded or fetched at a time. */
const CONCURRENCY = 16;
const POLL_MS = 60_000;
/** Build ids are folder names and storage keys: `2026-11-27T02-45-57-123Z-4242` for the site build's. */
const SAFE_ID = /^[a-z0-9][a-z0-9._-]{0,100}$/i;

export type SiteManifest = {
  id: string;
  publishedAt: string;
  /** The build's `.build-info.json`, written again into a fetched build. */
  info: BuildInfo | null;
  /** Every file the server may serve, by its path in the build (`/`-separated): its sha256. */
  files: Record<string, string>;
};

/** The local copy: also `"inode:size:mtime"` of every file, to know the next build's hard links without hashing them. */
type LocalManifest = SiteManifest & { stats: Record<string, string> };

type Pointer = { id: string; recent: string[] };

const fileKey = (hash: string) => `site/files/${hash.slice(0, 2)}/${hash}`;
const manifestKey = (id: string) => `site/builds/${id}.json`;

function requireSafeId(id: string): string {
  if (!SAFE_ID.test(id)) throw new Error(`not a build id: ${JSON.stringify(id)}`);
  return id;
}

/** A path of a manifest that stays inside the build folder and that the server would serve. */
function isSafeFilePath(file: string): boolean {
  const parts = file.split('/');
  return parts.every((part) => part !== '' && !part.startsWith('.') && !part.includes('\\') && !part.includes('\0'));
}

/** Ids sort by when their build started (the site build's ids begin with the start time). */
export function isNewerBuild(id: string, than: string | null): boolean {
  return than === null || id > than;
}

/**
 * Runs `task` for every item, at most `limit` at a time. After a failure no new task starts, and it
 * rejects once the running ones have ended (so that nothing writes into a folder being removed).
 */
async function forEachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      try {
        await task(items[next++]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}

const statKey = (info: { ino: number; size: number; mtimeMs: number }) => `${info.ino}:${info.size}:${Math.round(info.mtimeMs)}`;

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The files of a build folder the server may serve (no segment starting with a dot), `/`-separated. */
async function listServedFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter(isSafeFilePath)
    .sort();
}

async function readLocalManifest(folder: string): Promise<LocalManifest | null> {
  try {
    return JSON.parse(await readFile(path.join(folder, MANIFEST_FILE), 'utf8')) as LocalManifest;
  } catch {
    return null;
  }
}

/** The other build folders of this instance that have a manifest (at most a few: old builds are pruned). */
async function localManifests(siteDir: string, except: string): Promise<{ folder: string; manifest: LocalManifest }[]> {
  const buildsDir = path.join(siteDir, 'builds');
  const names = await readdir(buildsDir).catch(() => [] as string[]);
  const found = await Promise.all(
    names
      .filter((name) => name !== except && SAFE_ID.test(name))
      .map(async (name) => ({ folder: path.join(buildsDir, name), manifest: await readLocalManifest(path.join(buildsDir, name)) })),
  );
  return found.filter((entry): entry is { folder: string; manifest: LocalManifest } => entry.manifest !== null);
}

/** The id of the served build (its folder's name), or null before the first one. */
async function servedBuildId(siteDir: string): Promise<string | null> {
  const target = await readlink(currentSiteDir(siteDir)).catch(() => null);
  return target ? path.basename(target) : null;
}

async function readJson<T>(storage: MediaStorage, key: string): Promise<T | null> {
  const stored = await storage.open('private', key);
  if (!stored) return null;
  return JSON.parse((await buffer(stored.body)).toString('utf8')) as T;
}

async function writeJson(storage: MediaStorage, key: string, value: unknown): Promise<void> {
  await storage.putBytes('private', key, Buffer.from(JSON.stringify(value)), 'application/json');
}

/** Writes the local manifest of a complete build folder, with the `stats` of its files (taken now unless given). */
async function writeLocalManifest(folder: string, manifest: SiteManifest, given?: Record<string, string>): Promise<void> {
  const stats: Record<string, string> = given ?? {};
  if (!given) {
    await forEachLimited(Object.keys(manifest.files), CONCURRENCY, async (file) => {
      stats[statKey(await stat(path.join(folder, file)))] = manifest.files[file]!;
    });
  }
  const local: LocalManifest = { ...manifest, stats };
  const tmp = path.join(folder, `${MANIFEST_FILE}.tmp`);
  await writeFile(tmp, JSON.stringify(local));
  await rename(tmp, path.join(folder, MANIFEST_FILE));
}

export type PublishResult = { id: string; files: number; uploaded: number; hashed: number; pointerMoved: boolean; durationMs: number };

/**
 * Publishes a build this instance made and serves (after buildSite swapped it in): its files the storage
 * does not have yet, its manifest, then the pointer (only forward: a build that started before the
 * published one leaves it), then the message. Files of builds no longer among the last few published
 * are deleted from the storage unless a kept build has them too.
 */
export async function publishSiteBuild(options: {
  storage: MediaStorage;
  siteDir: string;
  /** The build folder, `siteDir/builds/<id>`. */
  folder: string;
  log: Logger;
  /** Tells the other instances (Redis); without it they see the build at their next look. */
  announce?: (id: string) => Promise<void>;
  /**
   * This instance's follower (`SiteFollower.sync`): when a later build is published already, it is served at
   * once rather than this older one until the next look (up to a minute behind the others).
   */
  follow?: () => Promise<unknown>;
}): Promise<PublishResult> {
  const started = Date.now();
  const { storage, folder, log } = options;
  const id = requireSafeId(path.basename(folder));

  // Hashes of files that are hard links of an earlier build's (an incremental build links the unchanged pages).
  const known = new Map<string, string>();
  for (const { manifest } of await localManifests(options.siteDir, id)) {
    for (const [key, hash] of Object.entries(manifest.stats ?? {})) known.set(key, hash);
  }
  const files: Record<string, string> = {};
  const stats: Record<string, string> = {};
  let hashed = 0;
  await forEachLimited(await listServedFiles(folder), CONCURRENCY, async (file) => {
    const full = path.join(folder, file);
    const key = statKey(await stat(full));
    let hash = known.get(key);
    if (!hash) {
      hash = await sha256OfFile(full);
      hashed += 1;
    }
    files[file] = hash;
    stats[key] = hash;
  });

  // What the storage has: the files of the published build (kept while it is among the last few).
  const pointer = await readJson<Pointer>(storage, POINTER_KEY);
  const published = pointer ? await readJson<SiteManifest>(storage, manifestKey(requireSafeId(pointer.id))) : null;
  const stored = new Set(Object.values(published?.files ?? {}));
  const pathOfHash = new Map<string, string>();
  for (const [file, hash] of Object.entries(files)) if (!stored.has(hash) && !pathOfHash.has(hash)) pathOfHash.set(hash, file);
  await forEachLimited([...pathOfHash], CONCURRENCY, async ([hash, file]) => {
    await storage.putFile('private', fileKey(hash), path.join(folder, file), 'application/octet-stream');
  });

  const manifest: SiteManifest = { id, publishedAt: new Date().toISOString(), info: await readBuildInfo(folder), files };
  await writeJson(storage, manifestKey(id), manifest);
  await writeLocalManifest(folder, manifest, stats);

  // Read again just before moving it: another instance may have published meanwhile.
  const latest = await readJson<Pointer>(storage, POINTER_KEY);
  const pointerMoved = isNewerBuild(id, latest?.id ?? null);
  if (pointerMoved) {
    const recent = [id, ...(latest?.recent ?? (latest ? [latest.id] : []))].filter((value, index, all) => all.indexOf(value) === index);
    await writeJson(storage, POINTER_KEY, { id, recent: recent.slice(0, KEEP_PUBLISHED) } satisfies Pointer);
    await options.announce?.(id).catch((error: unknown) => log.warn({ err: error, id }, 'could not announce the published site build; the others see it within a minute'));
    await deleteDroppedBuilds(storage, recent.slice(0, KEEP_PUBLISHED), recent.slice(KEEP_PUBLISHED), log);
  } else {
    // Nobody will fetch it: its files no published build has go again.
    log.warn({ id, published: latest?.id }, 'a later site build is published already: this instance serves that one');
    if (latest) await deleteDroppedBuilds(storage, latest.recent ?? [latest.id], [id], log);
    await options.follow?.();
  }
  const result = { id, files: Object.keys(files).length, uploaded: pathOfHash.size, hashed, pointerMoved, durationMs: Date.now() - started };
  log.info(result, 'site build published');
  return result;
}

/** Deletes the manifests of builds no longer kept, and their files that no kept build has. */
async function deleteDroppedBuilds(storage: MediaStorage, kept: string[], dropped: string[], log: Logger): Promise<void> {
  if (dropped.length === 0 || kept.length === 0) return;
  try {
    const keptHashes = new Set<string>();
    for (const id of kept) {
      const manifest = await readJson<SiteManifest>(storage, manifestKey(requireSafeId(id)));
      if (!manifest) return; // Not sure what is still needed: delete nothing.
      for (const hash of Object.values(manifest.files)) keptHashes.add(hash);
    }
    for (const id of dropped) {
      const manifest = await readJson<SiteManifest>(storage, manifestKey(requireSafeId(id)));
      const unused = [...new Set(Object.values(manifest?.files ?? {}))].filter((hash) => !keptHashes.has(hash));
      await forEachLimited(unused, CONCURRENCY, (hash) => storage.delete('private', fileKey(hash)));
      await storage.delete('private', manifestKey(id));
    }
  } catch (error) {
    log.warn({ err: error, dropped }, 'could not delete old published site builds from the storage (tried again at the next publish)');
  }
}

/** Downloads a stored file to `file`, checking its content against its name. */
async function fetchFile(storage: MediaStorage, hash: string, file: string): Promise<void> {
  const stored = await storage.open('private', fileKey(hash));
  if (!stored) throw new Error(`the published site file ${hash} (${path.basename(file)}) is missing from the storage`);
  const digest = createHash('sha256');
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      digest.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(stored.body, check, createWriteStream(file));
  if (digest.digest('hex') !== hash) throw new Error(`the published site file ${hash} does not match its name`);
}

export type FetchOutcome = 'none' | 'current' | 'fetched' | 'failed';

export type SiteFollower = {
  /** Looks at the published build and fetches it when it is newer than the served one (one fetch at a time). */
  sync: () => Promise<FetchOutcome>;
  /** The first look, started at once. */
  firstSync: Promise<FetchOutcome>;
  /** Tells every instance (this one too) that a build was published. */
  announce: (id: string) => Promise<void>;
  /** Resolves once the Redis subscription is in place (at once without Redis). */
  ready: () => Promise<void>;
  close: () => Promise<void>;
};

/**
 * Follows the published site on this instance: at start, at every message on the channel and every
 * minute, a published build newer than the served one is fetched into `builds/<id>/` (files the served
 * build has are hard-linked, the rest downloaded and checked), then swapped in and old builds pruned.
 * A fetch that fails (a file missing, the storage unreachable) removes its folder, is logged, and is
 * tried again at the next message or look: the served build stays as it was.
 */
export function startSiteFollower(options: {
  storage: MediaStorage;
  siteDir: string;
  log: Logger;
  redisUrl?: string | undefined;
  channel?: string;
  pollMs?: number;
}): SiteFollower {
  const { storage, siteDir, log } = options;
  const channel = options.channel ?? SITE_PUBLISHED_CHANNEL;
  let closed = false;

  const fetchBuild = async (id: string): Promise<FetchOutcome> => {
    const manifest = await readJson<SiteManifest>(storage, manifestKey(id));
    if (!manifest) throw new Error(`the manifest of the published site build ${id} is missing`);
    const entries = Object.entries(manifest.files);
    const unsafe = entries.find(([file, hash]) => !isSafeFilePath(file) || !/^[0-9a-f]{64}$/.test(hash));
    if (unsafe) throw new Error(`the manifest of ${id} names a file it may not: ${JSON.stringify(unsafe[0])}`);
    const folder = path.join(siteDir, 'builds', id);
    await rm(folder, { recursive: true, force: true });
    // Files this instance has already, by content: from the served build and the one kept before it.
    const have = new Map<string, string>();
    for (const local of await localManifests(siteDir, id)) {
      for (const [file, hash] of Object.entries(local.manifest.files)) if (!have.has(hash)) have.set(hash, path.join(local.folder, file));
    }
    const started = Date.now();
    let linked = 0;
    let downloaded = 0;
    try {
      const dirs = new Set(entries.map(([file]) => path.dirname(path.join(folder, file))));
      for (const dir of [...dirs].sort()) await mkdir(dir, { recursive: true });
      await forEachLimited(entries, CONCURRENCY, async ([file, hash]) => {
        const target = path.join(folder, file);
        const source = have.get(hash);
        if (source) {
          try {
            await link(source, target);
            linked += 1;
            return;
          } catch {
            // Gone meanwhile (pruned): downloaded instead.
          }
        }
        await fetchFile(storage, hash, target);
        downloaded += 1;
      });
      if (manifest.info) await writeFile(path.join(folder, '.build-info.json'), JSON.stringify(manifest.info));
      await writeLocalManifest(folder, manifest);
      // A newer build of this instance's own may have been swapped in meanwhile: it stays.
      if (!isNewerBuild(id, await servedBuildId(siteDir))) {
        await rm(folder, { recursive: true, force: true });
        return 'current';
      }
      await swapCurrent(siteDir, folder);
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
    log.info({ id, files: entries.length, linked, downloaded, durationMs: Date.now() - started }, 'published site build fetched and served');
    await pruneBuilds(siteDir, 2).catch((error: unknown) => log.warn({ err: error }, 'could not prune old site builds'));
    return 'fetched';
  };

  const syncOnce = async (): Promise<FetchOutcome> => {
    try {
      const pointer = await readJson<Pointer>(storage, POINTER_KEY);
      if (!pointer) return 'none';
      const id = requireSafeId(pointer.id);
      const served = await servedBuildId(siteDir);
      if (!isNewerBuild(id, served)) return 'current';
      log.info({ id, served }, 'fetching the published site build');
      return await fetchBuild(id);
    } catch (error) {
      log.error({ err: error }, 'could not fetch the published site build; the served site stays, tried again at the next message or within a minute');
      return 'failed';
    }
  };

  let running: Promise<FetchOutcome> | null = null;
  let again = false;
  const sync = (): Promise<FetchOutcome> => {
    if (closed) return Promise.resolve('current');
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let outcome: FetchOutcome = 'current';
      do {
        again = false;
        const next = await syncOnce();
        // A look again after a fetch finds that build served: the answer stays 'fetched'.
        if (!(next === 'current' && outcome === 'fetched')) outcome = next;
      } while (again && !closed);
      return outcome;
    })().finally(() => {
      running = null;
    });
    return running;
  };

  // Redis: a message says a build was published (src/server/redis-channel.ts).
  const redis = options.redisUrl
    ? openRedisChannel({
        url: options.redisUrl,
        channel,
        name: 'site',
        // A publish waits up to 10 s for Redis (it runs in the rebuild job, not in a request); then the others see the build at their next look.
        publisher: { commandTimeout: 10_000, maxRetriesPerRequest: 1 },
        logger: log,
        says: {
          unreachable: 'Redis is unreachable: published site builds are seen within a minute until it is back',
          reachable: 'Redis is reachable again (site builds)',
          notSubscribed: 'the site follower did not subscribe to Redis',
        },
        onMessage: () => void sync(),
        // Messages sent while it was away are lost: look now.
        onReconnect: () => void sync(),
      })
    : null;

  const timer = setInterval(() => void sync(), options.pollMs ?? POLL_MS);
  timer.unref();
  const firstSync = sync();

  return {
    sync,
    firstSync,
    announce: async (id) => {
      await redis?.publish(id);
    },
    ready: () => redis?.ready() ?? Promise.resolve(),
    close: async () => {
      closed = true;
      clearInterval(timer);
      await running?.catch(() => {});
      redis?.close();
    },
  };
}
