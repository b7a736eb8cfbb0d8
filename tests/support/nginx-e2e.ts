/**
 * Writes the nginx configuration for the browser tests' project `public-through-nginx`
 * (playwright.config.ts): the deploy files in front of the e2e server, serving its data folder's site.
 * Usage: node tests/support/nginx-e2e.ts <prefix> <port> <server host:port> <site folder>; then
 * playwright.config.ts runs nginx on it in the foreground. Fails with what to install when nginx is missing.
 */
import { mkdir } from 'node:fs/promises';
import { requireNginx, writeNginxConfig } from './nginx.ts';

const [prefix, port, upstream, root] = process.argv.slice(2);
if (!prefix || !port || !upstream || !root) {
  console.error('usage: node tests/support/nginx-e2e.ts <prefix> <port> <server host:port> <site folder>');
  process.exit(2);
}
try {
  requireNginx();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
await mkdir(prefix, { recursive: true });
await writeNginxConfig({ prefix, port: Number(port), upstreams: [upstream], root });
