/**
 * The cluster's globalSetup (playwright.cluster.config.ts): two instances behind nginx on PostgreSQL, Redis
 * and S3 (tests/support/cluster.ts). Answers the teardown, which Playwright runs after the tests, also after
 * failures.
 */
import { startCluster } from '../support/cluster.ts';
import { supportAdmin } from '../e2e/fixtures.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const started = Date.now();
  const stop = await startCluster({
    dir: process.env['CLUSTER_DIR']!,
    stateFile: process.env['CLUSTER_STATE_FILE']!,
    nginxPort: Number(process.env['CLUSTER_NGINX_PORT']),
    ports: { a: Number(process.env['CLUSTER_PORT_A']), b: Number(process.env['CLUSTER_PORT_B']) },
    siteBuildToken: process.env['E2E_SITE_BUILD_TOKEN']!,
    supportAdmin,
  });
  console.log(`cluster started in ${((Date.now() - started) / 1000).toFixed(1)} s (instance A built and published the site, B fetched it, nginx in front)`);
  return stop;
}
