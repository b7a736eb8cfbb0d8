/**
 * nginx from Debian's package in front of a test server, with the operators' configuration
 * (docs/deploy/nginx.conf and nginx-headers.conf) and only its paths, addresses and ports replaced, so the
 * tests run the very file operators install. nginx runs as the current user in a folder of its own (pid,
 * logs, temporary files), in the foreground.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
export const NGINX = '/usr/sbin/nginx';
export const BROTLI_STATIC_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';
export const DEPLOY_CONF = path.join(projectRoot, 'docs/deploy/nginx.conf');
export const DEPLOY_HEADERS = path.join(projectRoot, 'docs/deploy/nginx-headers.conf');

/** Stops with what to install when nginx or its Brotli module is missing (CI installs both: .ci/run). */
export function requireNginx(): void {
  const missing = [NGINX, BROTLI_STATIC_MODULE].filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(`nginx is needed for this test and ${missing.join(' and ')} is missing: apt-get install nginx libnginx-mod-http-brotli-static`);
  }
}

export type NginxOptions = {
  /** Where nginx listens (127.0.0.1). */
  port: number;
  /** The instances, host:port each. */
  upstreams: string[];
  /** The folder nginx serves (DATA_DIR/site/current). */
  root: string;
  /** nginx's own folder: config, pid, logs, temporary files. */
  prefix: string;
};

/** Replaces `from` by `to` in `text`, and fails when `from` is not there (the deploy file changed under the test). */
function replaceOnce(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`docs/deploy/nginx.conf no longer contains ${JSON.stringify(from)}: update tests/support/nginx.ts`);
  return text.split(from).join(to);
}

/** Writes the main config (with the deploy file's server block, adjusted) into the prefix; answers its path. */
export async function writeNginxConfig(options: NginxOptions): Promise<string> {
  await mkdir(path.join(options.prefix, 'temp'), { recursive: true });
  const headersFile = path.join(options.prefix, 'annoncekatalog-headers.conf');
  await writeFile(headersFile, await readFile(DEPLOY_HEADERS, 'utf8'));
  let site = await readFile(DEPLOY_CONF, 'utf8');
  site = replaceOnce(site, '    server 127.0.0.1:3000;\n', options.upstreams.map((address) => `    server ${address};\n`).join(''));
  site = replaceOnce(site, '    listen 80;\n    listen [::]:80;\n', `    listen 127.0.0.1:${options.port};\n`);
  site = replaceOnce(site, 'root /srv/annoncekatalog/data/site/current;', `root ${options.root};`);
  site = replaceOnce(site, '/etc/nginx/snippets/annoncekatalog-headers.conf', headersFile);
  const siteFile = path.join(options.prefix, 'annoncekatalog.conf');
  await writeFile(siteFile, site);
  const temp = (name: string) => path.join(options.prefix, 'temp', name);
  const main = [
    `load_module ${BROTLI_STATIC_MODULE};`,
    // Started as root (a CI container), the workers would run as nobody and could not read the test's folders.
    ...(process.getuid?.() === 0 ? [`user ${os.userInfo().username};`] : []),
    'daemon off;',
    'worker_processes 1;',
    `pid ${path.join(options.prefix, 'nginx.pid')};`,
    `error_log ${path.join(options.prefix, 'error.log')} warn;`,
    'events { worker_connections 512; }',
    'http {',
    `  access_log ${path.join(options.prefix, 'access.log')};`,
    `  client_body_temp_path ${temp('body')};`,
    `  proxy_temp_path ${temp('proxy')};`,
    `  fastcgi_temp_path ${temp('fastcgi')};`,
    `  uwsgi_temp_path ${temp('uwsgi')};`,
    `  scgi_temp_path ${temp('scgi')};`,
    `  include ${siteFile};`,
    '}',
    '',
  ].join('\n');
  const mainFile = path.join(options.prefix, 'nginx.conf');
  await writeFile(mainFile, main);
  return mainFile;
}

/** Resolves once something accepts connections on the port (or rejects after `timeoutMs`). */
export async function waitForPort(port: number, timeoutMs: number, stillRunning: () => boolean = () => true, name = 'nginx'): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (!stillRunning()) throw new Error(`${name} exited before listening on ${port}`);
    if (Date.now() > until) throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** nginx's arguments for the config `writeNginxConfig` wrote into `prefix` (in the foreground: `daemon off`). */
export function nginxArgs(prefix: string): string[] {
  return ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', path.join(prefix, 'error.log')];
}

export type TestNginx = {
  url: string;
  prefix: string;
  /** nginx's access log so far (the default combined format, one line per request). */
  accessLog: () => Promise<string>;
  stop: () => Promise<void>;
};

/** nginx in front of `upstreams`, serving `root`, on a free port; checks the config first. */
export async function startNginx(options: Omit<NginxOptions, 'prefix'>): Promise<TestNginx> {
  requireNginx();
  const prefix = await mkdtemp(path.join(os.tmpdir(), 'annonce-nginx-'));
  await writeNginxConfig({ ...options, prefix });
  const check = spawn(NGINX, ['-t', '-q', ...nginxArgs(prefix)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  check.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => check.on('exit', resolve));
  if (code !== 0) throw new Error(`nginx -t refused the configuration:\n${output}`);
  const child = spawn(NGINX, nginxArgs(prefix), { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitForPort(options.port, 10_000, () => child.exitCode === null);
  } catch (error) {
    child.kill('SIGTERM');
    throw new Error(`${(error as Error).message}\n${errors}${await readFile(path.join(prefix, 'error.log'), 'utf8').catch(() => '')}`, { cause: error });
  }
  return {
    url: `http://127.0.0.1:${options.port}`,
    prefix,
    accessLog: () => readFile(path.join(prefix, 'access.log'), 'utf8').catch(() => ''),
    stop: async () => {
      // SIGQUIT: nginx's graceful stop.
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      await rm(prefix, { recursive: true, force: true });
    },
  };
}
