/**
 * Two server instances behind nginx, on PostgreSQL, Redis and S3-compatible storage, for the cluster's
 * browser tests (playwright.cluster.config.ts, tests/cluster/): the deployment of docs/decisions/033 and
 * docs/deploy on one machine.
 *
 * `startCluster` (the config's globalSetup, in Playwright's runner process) makes a fresh PostgreSQL database
 * `annonce_cluster_<random>` on postgres://postgres@127.0.0.1:5432, takes Redis (REDIS_URL, else
 * 127.0.0.1:6379 when it answers, else a private redis-server), starts s3rver (tests/support/s3-stand-in.ts),
 * instance A (its first start seeds the demo and builds and publishes the site), then instance B (which
 * fetches the published build), then nginx (docs/deploy/nginx.conf with both upstreams, serving A's
 * `DATA_DIR/site/current`). The instances run `SERVER_COMMAND` (scripts/server-flags.ts) detached, each in a
 * process group of its own, so that a test can `kill -9` one (its Astro build and ffmpeg with it) and start it
 * again with the same environment, from any worker: what they need is in a state file (CLUSTER_STATE_FILE).
 * The teardown kills every process group, stops nginx, s3rver and a private Redis, drops the database and
 * removes the folder, also after a failed start. To look into a run: CLUSTER_LOG_LEVEL (the instances'
 * LOG_LEVEL, default warn) and CLUSTER_KEEP_LOGS=1 (the folder with `instance-a.log` and `instance-b.log` stays).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import net from 'node:net';
import path from 'node:path';
import { startNginx } from './nginx.ts';
import { POSTGRES_ADMIN_URL, createRunDatabase } from './postgres-database.ts';
import { freePort, startRedisServer } from './redis-server.ts';
import { startS3StandIn } from './s3-stand-in.ts';
import { logTail, startServerProcess, waitForReady } from './server-process.ts';

export { logTail, waitForReady };

export type InstanceName = 'a' | 'b';

export type InstanceState = {
  name: InstanceName;
  port: number;
  url: string;
  dataDir: string;
  /** The instance's stdout and stderr, appended across its starts. */
  logFile: string;
  env: Record<string, string>;
  /** The process group's id (the shell's pid), or null while stopped. */
  pid: number | null;
  /** When it was last started (ISO), and the site build it served once ready (the id in `.build-info.json`). */
  startedAt: string | null;
  servedAtStart: string | null;
};

export type ClusterState = {
  dir: string;
  nginx: { url: string; port: number; prefix: string };
  instances: Record<InstanceName, InstanceState>;
  database: { name: string; adminUrl: string };
  redisUrl: string;
  siteBuildToken: string;
};

/** The settings the instances share (docs/decisions/033), besides their ports and data folders. */
export type ClusterOptions = {
  /** Folder of the run (instances' data folders, logs, nginx, the state file). */
  dir: string;
  stateFile: string;
  nginxPort: number;
  ports: Record<InstanceName, number>;
  siteBuildToken: string;
  supportAdmin: { email: string; password: string };
  /** Server start-up can take minutes on a busy machine (migrations, seed, the first build). */
  readyTimeoutMs?: number;
};


/** The state file the globalSetup wrote (CLUSTER_STATE_FILE). */
export function clusterState(stateFile = process.env['CLUSTER_STATE_FILE']): ClusterState {
  if (!stateFile) throw new Error('CLUSTER_STATE_FILE is not set: run the cluster tests with playwright.cluster.config.ts');
  return JSON.parse(readFileSync(stateFile, 'utf8')) as ClusterState;
}

function writeState(stateFile: string, state: ClusterState): void {
  writeFileSync(`${stateFile}.tmp`, JSON.stringify(state, null, 2));
  renameSync(`${stateFile}.tmp`, stateFile);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the process group still has a live member (a zombie counts until its parent reaps it). */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether something accepts connections on the port. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/**
 * Starts the instance with the environment in the state file, detached in a process group of its own (so it
 * outlives the worker that started it, and `killInstance` reaches its children); its output goes to its log.
 * Resolves once it is ready.
 */
export async function startInstance(name: InstanceName, options: { stateFile?: string; readyTimeoutMs?: number } = {}): Promise<void> {
  const stateFile = options.stateFile ?? process.env['CLUSTER_STATE_FILE']!;
  const state = clusterState(stateFile);
  const instance = state.instances[name];
  if (instance.pid !== null && groupAlive(instance.pid)) throw new Error(`instance ${name} runs already (process group ${instance.pid})`);
  await startServerProcess({
    env: instance.env,
    baseEnv: process.env,
    logFile: instance.logFile,
    url: instance.url,
    readyTimeoutMs: options.readyTimeoutMs ?? 5 * 60_000,
    onSpawn: (child) => {
      child.unref();
      instance.pid = child.pid!;
      instance.startedAt = new Date().toISOString();
      instance.servedAtStart = null;
      writeState(stateFile, state);
    },
  });
  instance.servedAtStart = servedBuild(instance).id;
  writeState(stateFile, state);
}

/** The site build the instance serves now (its `DATA_DIR/site/current/.build-info.json`). */
export function servedBuild(instance: Pick<InstanceState, 'dataDir'>): { id: string; finishedAt: string } {
  return JSON.parse(readFileSync(path.join(instance.dataDir, 'site', 'current', '.build-info.json'), 'utf8')) as { id: string; finishedAt: string };
}

/** When a build started, from its id (`2026-11-27T06-20-00-123Z-<pid>`: the start time, then the builder's pid). */
export function buildStartedAt(id: string): Date {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z-\d+$/.exec(id);
  if (!match) throw new Error(`not a site build id: ${id}`);
  return new Date(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`);
}

/** `kill -9` of the instance's process group (the server, and its site build or ffmpeg if one runs); resolves once its port is closed. */
export async function killInstance(name: InstanceName, stateFile = process.env['CLUSTER_STATE_FILE']!): Promise<void> {
  const state = clusterState(stateFile);
  const instance = state.instances[name];
  if (instance.pid === null) throw new Error(`instance ${name} is not running`);
  try {
    process.kill(-instance.pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
  const until = Date.now() + 10_000;
  while (await portOpen(instance.port)) {
    if (Date.now() > until) throw new Error(`instance ${name} still listens on ${instance.port} after kill -9`);
    await sleep(50);
  }
  instance.pid = null;
  writeState(stateFile, state);
}

/** Every process group of the state file's instances, killed at once (synchronous: also usable on process exit). */
function killAllInstances(stateFile: string): void {
  if (!existsSync(stateFile)) return;
  const state = clusterState(stateFile);
  for (const instance of Object.values(state.instances)) {
    if (instance.pid === null) continue;
    try {
      process.kill(-instance.pid, 'SIGKILL');
    } catch {
      // The group is gone already (ESRCH): nothing to kill.
    }
  }
}

/**
 * Starts the whole cluster (see the top of this file) and writes the state file; answers the teardown, which
 * leaves no process, database or folder behind. A failed start tears down what it had started.
 */
export async function startCluster(options: ClusterOptions): Promise<() => Promise<void>> {
  const cleanups: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    killAllInstances(options.stateFile);
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) => console.error('cluster teardown:', error));
    }
    cleanups.length = 0;
    if (process.env['CLUSTER_KEEP_LOGS']) console.log(`cluster: the instances' logs are kept in ${options.dir}`);
    else rmSync(options.dir, { recursive: true, force: true });
  };
  // A runner that exits without its teardown (a crash) still takes the detached instances with it.
  const onExit = () => killAllInstances(options.stateFile);
  process.once('exit', onExit);
  cleanups.push(async () => {
    process.off('exit', onExit);
  });
  try {
    await mkdir(options.dir, { recursive: true });

    // PostgreSQL: a database of this run's own.
    const run = await createRunDatabase('annonce_cluster', 'the cluster tests');
    cleanups.push(run.drop);
    const database = run.name;
    const databaseUrl = run.url;

    // Redis: REDIS_URL, else the usual port when it answers, else one of our own.
    let redisUrl = process.env['REDIS_URL'];
    if (!redisUrl && (await portOpen(6379))) redisUrl = 'redis://127.0.0.1:6379';
    if (!redisUrl) {
      const redis = await startRedisServer(await freePort());
      cleanups.push(redis.stop);
      redisUrl = redis.url;
    }

    // S3: s3rver with one bucket, in this process.
    const s3 = await startS3StandIn(`cluster-${randomBytes(4).toString('hex')}`);
    cleanups.push(s3.stop);

    const nginxUrl = `http://127.0.0.1:${options.nginxPort}`;
    const url = (name: InstanceName) => `http://127.0.0.1:${options.ports[name]}`;
    const shared: Record<string, string> = {
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      // A deployment of its own in a Redis that other runs may share.
      RATE_LIMIT_KEY_PREFIX: `${database}:ratelimit:`,
      S3_BUCKET: s3.settings.bucket,
      S3_ENDPOINT: s3.settings.endpoint!,
      S3_REGION: s3.settings.region!,
      S3_ACCESS_KEY_ID: s3.settings.accessKeyId!,
      S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey!,
      S3_FORCE_PATH_STYLE: 'true',
      // Visitors use nginx's address; the tests also open each instance at its own.
      SITE_URL: nginxUrl,
      ALLOWED_ORIGINS: [nginxUrl, url('a'), url('b')].join(','),
      TRUST_PROXY: '127.0.0.1',
      SUPPORT_ADMIN_EMAIL: options.supportAdmin.email,
      SUPPORT_ADMIN_PASSWORD: options.supportAdmin.password,
      SEED_DEMO_ADVERTS: '20',
      SITE_REBUILD_MINUTES: '15',
      SITE_REBUILD_DEBOUNCE_SECONDS: '2',
      SITE_PRECOMPRESS: 'true',
      SITE_BUILD_TOKEN: options.siteBuildToken,
      LOG_LEVEL: process.env['CLUSTER_LOG_LEVEL'] ?? 'warn',
      ASTRO_TELEMETRY_DISABLED: '1',
      RATE_LIMIT_SCALE: '50',
      // The same on every instance (README, "Sessions and the secrets key"; each is generated per start otherwise).
      SECRETS_KEY: randomBytes(32).toString('base64'),
      ENCODER_SECRET: randomBytes(24).toString('base64url'),
      AGE_PROVIDER_SECRET: randomBytes(24).toString('base64url'),
      PAYMENT_TEST_SECRET: randomBytes(24).toString('base64url'),
    };
    const instance = (name: InstanceName): InstanceState => {
      const dataDir = path.join(options.dir, `instance-${name}`);
      return {
        name,
        port: options.ports[name],
        url: url(name),
        dataDir,
        logFile: path.join(options.dir, `instance-${name}.log`),
        env: { ...shared, PORT: String(options.ports[name]), DATA_DIR: dataDir },
        pid: null,
        startedAt: null,
        servedAtStart: null,
      };
    };
    const state: ClusterState = {
      dir: options.dir,
      nginx: { url: nginxUrl, port: options.nginxPort, prefix: '' },
      instances: { a: instance('a'), b: instance('b') },
      database: { name: database, adminUrl: POSTGRES_ADMIN_URL },
      redisUrl,
      siteBuildToken: options.siteBuildToken,
    };
    for (const port of [options.nginxPort, options.ports.a, options.ports.b]) {
      if (await portOpen(port)) throw new Error(`port ${port} is taken: the cluster tests need ${options.nginxPort}, ${options.ports.a} and ${options.ports.b}`);
    }
    writeState(options.stateFile, state);

    // A first: migrations, the demo seed, the first build, published to S3 (A is ready once it serves the
    // build, and publishes it after). Then B, which must fetch it rather than build.
    await startInstance('a', { stateFile: options.stateFile, readyTimeoutMs: options.readyTimeoutMs });
    const served = servedBuild(clusterState(options.stateFile).instances.a).id;
    const until = Date.now() + (options.readyTimeoutMs ?? 5 * 60_000);
    for (;;) {
      const pointer = await s3.storage.open('private', 'site/current.json');
      const published = pointer ? (JSON.parse((await buffer(pointer.body)).toString('utf8')) as { id: string }).id : null;
      if (published === served) break;
      if (Date.now() > until) throw new Error(`instance A did not publish its site build ${served} (published: ${published})`);
      await sleep(250);
    }
    await startInstance('b', { stateFile: options.stateFile, readyTimeoutMs: options.readyTimeoutMs });

    const nginx = await startNginx({ port: options.nginxPort, upstreams: [`127.0.0.1:${options.ports.a}`, `127.0.0.1:${options.ports.b}`], root: path.join(state.instances.a.dataDir, 'site', 'current') });
    cleanups.push(nginx.stop);
    writeState(options.stateFile, { ...clusterState(options.stateFile), nginx: { url: nginxUrl, port: options.nginxPort, prefix: nginx.prefix } });
    return stopAll;
  } catch (error) {
    await stopAll();
    throw error;
  }
}
