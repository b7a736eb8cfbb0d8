/**
 * Rebuilds the public site now, from a running server's API, into DATA_DIR/site and swaps it in
 * atomically (the server serves the new build at once). `npm run rebuild-site`.
 * The server also does this itself on a schedule and after content changes. The build's bulk call
 * (fullprofiles) needs the server's SITE_BUILD_TOKEN: set the same value for the server and this script.
 */
import 'dotenv/config';
import { loadConfig } from '#server/config.ts';
import { createLogger } from '#server/logger.ts';
import { buildSite } from '#server/jobs/site-build.ts';

const config = loadConfig();
const log = createLogger(config.logLevel, config.logFormat);
const apiUrl = process.env['API_URL'] ?? `http://127.0.0.1:${config.port}`;
if (!config.siteBuildToken) {
  console.error('Set SITE_BUILD_TOKEN to the value the server runs with: the build reads every advert through a call only the site build may make.');
  process.exit(1);
}
try {
  const result = await buildSite({ siteDir: config.paths.site, apiUrl, siteUrl: config.siteUrl, log, siteBuildToken: config.siteBuildToken, precompress: config.sitePrecompress });
  console.log(`Built ${result.pages} pages in ${(result.durationMs / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(`The build failed; the last good site stays online.\n${String(error)}`);
  process.exit(1);
}
