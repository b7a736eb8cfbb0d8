/**
 * Writes dist/_redirects (run after `astro build` on Netlify), so that a deployment without our server in
 * front answers what our server answers for paths without a built page (docs/decisions/032-old-addresses.md):
 * - a 301 for every moved public address (an SEO page given a new address, a renamed city: the API's
 *   frontend pathredirects, the same list our server answers from memory);
 * - a 301 from every built advert's bare id (`/annonce/{id}/`, both languages) to its page, read from the
 *   built output itself;
 * - the old site's advert addresses (`/P/{slug}--{old id}.html/`, issue 18: the API's frontend
 *   legacyredirects): a 301 to the imported advert's page, or 410 Gone with the not-found page;
 * - the /api/*, /media/* and hub proxies to API_URL.
 * Netlify applies a rule only where no file is, as our server does.
 */
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const apiUrl = process.env['API_URL'];
if (!apiUrl || !/^https?:\/\//.test(apiUrl)) {
  console.error('Set API_URL to the address of the API server, e.g. https://api.example.dk');
  process.exit(1);
}
const base = apiUrl.replace(/\/$/, '');
const outDir = process.env['SITE_OUT_DIR'] ?? 'dist';

async function fromApi<T>(call: string): Promise<T> {
  const answer = await fetch(`${base}/api/frontend/${call}`);
  if (!answer.ok) {
    console.error(`GET ${base}/api/frontend/${call} answered ${answer.status}`);
    process.exit(1);
  }
  return (await answer.json()) as T;
}

/** The built advert pages under `{prefix}annonce/`: their folder names, `{slug}-{id}`. */
async function builtAdverts(prefix: string): Promise<{ id: string; folder: string }[]> {
  const entries = await readdir(path.join(outDir, prefix, 'annonce'), { withFileTypes: true }).catch(() => []);
  return entries.flatMap((entry) => {
    const match = entry.isDirectory() ? /^.+-(\d{1,9})$/.exec(entry.name) : null;
    return match ? [{ id: match[1]!, folder: entry.name }] : [];
  });
}

const moved = await fromApi<{ fromPath: string; toPath: string }[]>('pathredirects');
const legacy = await fromApi<{ fromPath: string; toPath: string | null; status: 301 | 410 }[]>('legacyredirects');
/** A path as _redirects takes it: no spaces (they separate the columns). */
const safe = (p: string) => /^\/[^\s]*$/.test(p);

const adverts: string[] = [];
for (const prefix of ['', 'en/']) {
  for (const advert of await builtAdverts(prefix)) adverts.push(`/${prefix}annonce/${advert.id}/  /${prefix}annonce/${advert.folder}/  301`);
}
const lines = [
  ...moved.filter((row) => safe(row.fromPath) && safe(row.toPath)).map((row) => `${row.fromPath}  ${row.toPath}  301`),
  ...adverts,
  ...legacy
    .filter((row) => safe(row.fromPath) && (row.toPath === null || safe(row.toPath)))
    .map((row) => (row.status === 301 ? `${row.fromPath}  ${row.toPath}  301` : `${row.fromPath}  /404.html  410`)),
  `/api/*  ${base}/api/:splat  200`,
  `/media/*  ${base}/media/:splat  200`,
  `/notificationhub  ${base}/notificationhub  200`,
];
await writeFile(path.join(outDir, '_redirects'), `${lines.join('\n')}\n`);
console.log(
  `wrote ${path.join(outDir, '_redirects')} (${moved.length} moved addresses, ${adverts.length} advert ids, ${legacy.length} old addresses)`,
);
