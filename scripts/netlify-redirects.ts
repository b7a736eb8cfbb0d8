/** Writes dist/_redirects with the /api/* and /media/* proxies to API_URL (run after `astro build` on Netlify). */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

const apiUrl = process.env['API_URL'];
if (!apiUrl || !/^https?:\/\//.test(apiUrl)) {
  console.error('Set API_URL to the address of the API server, e.g. https://api.example.dk');
  process.exit(1);
}
const base = apiUrl.replace(/\/$/, '');
const outDir = process.env['SITE_OUT_DIR'] ?? 'dist';
const lines = [
  `/api/*  ${base}/api/:splat  200`,
  `/media/*  ${base}/media/:splat  200`,
  `/notificationhub  ${base}/notificationhub  200`,
];
await writeFile(path.join(outDir, '_redirects'), `${lines.join('\n')}\n`);
console.log(`wrote ${path.join(outDir, '_redirects')}`);
