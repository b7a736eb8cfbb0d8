/**
 * `npm run soak`: runs test files again and again on a loaded machine, to find the tests that fail by
 * chance (issue 35) before they cost a landing. Beside the runs, SOAK_BURNERS processes (default 1) each
 * keep a core busy, as a busy CI machine would; every run's results are read from the runner's JSON report,
 * and the summary gives each file's runs and failures, with the first lines of each failure.
 *
 *   npm run soak -- [--runs N] [--project unit|integration|e2e] [file ...]
 *
 * Defaults: 20 runs of the integration project (every file, or the files named). With DATABASE_URL (and
 * REDIS_URL) set, the integration files run on PostgreSQL, as CI's second run does. e2e runs Playwright's
 * projects (`npx playwright test`), a fresh server each run. Exits 1 when any run failed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: '20' }, project: { type: 'string', default: 'integration' } },
});
const runs = Number(values.runs);
const project = values.project;
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of at least 1, not ${values.runs}`);
if (!['unit', 'integration', 'e2e'].includes(project)) throw new Error(`--project must be unit, integration or e2e, not ${project}`);

/** One test's outcome in one run, as both runners' JSON reports give it. */
type Outcome = { file: string; title: string; passed: boolean; message: string };

const burners = Array.from({ length: Number(process.env['SOAK_BURNERS'] ?? 1) }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopBurners = () => burners.forEach((burner) => burner.kill('SIGKILL'));
process.on('exit', stopBurners);
process.on('SIGINT', () => process.exit(130));

const folder = mkdtempSync(path.join(tmpdir(), 'annonce-soak-'));
const relative = (file: string) => path.relative(process.cwd(), file);

function vitestRun(report: string): Outcome[] {
  spawnSync('npx', ['vitest', 'run', '--project', project, ...positionals, '--reporter=json', `--outputFile=${report}`], { stdio: 'ignore' });
  const json = JSON.parse(readFileSync(report, 'utf8')) as {
    testResults: { name: string; status: string; message?: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
  };
  return json.testResults.flatMap((file) => [
    ...file.assertionResults.map((test) => ({ file: relative(file.name), title: test.fullName, passed: test.status !== 'failed', message: test.failureMessages[0] ?? '' })),
    // A file that failed outside its tests (an import, a hook) has no failed test to show for it.
    ...(file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed') ? [{ file: relative(file.name), title: '(the file)', passed: false, message: file.message ?? '' }] : []),
  ]);
}

type PlaywrightSuite = { file: string; specs?: { title: string; tests: { projectName: string; results: { status: string; error?: { message?: string } }[] }[] }[]; suites?: PlaywrightSuite[] };

function playwrightRun(report: string): Outcome[] {
  const result = spawnSync('npx', ['playwright', 'test', ...positionals, '--reporter=json'], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: report }, maxBuffer: 1 << 30 });
  let json: { suites: PlaywrightSuite[]; errors?: { message?: string }[] };
  try {
    json = JSON.parse(readFileSync(report, 'utf8')) as typeof json;
  } catch {
    return [{ file: '(playwright)', title: '(no report)', passed: false, message: `exit ${result.status}` }];
  }
  const outcomes: Outcome[] = (json.errors ?? []).map((error) => ({ file: '(playwright)', title: '(set-up)', passed: false, message: error.message ?? '' }));
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const failed = test.results.find((one) => one.status !== 'passed' && one.status !== 'skipped');
        outcomes.push({ file: `tests/e2e/${suite.file}`, title: `[${test.projectName}] ${spec.title}`, passed: !failed, message: failed?.error?.message ?? failed?.status ?? '' });
      }
    }
    suite.suites?.forEach(walk);
  };
  json.suites.forEach(walk);
  return outcomes;
}

const perFile = new Map<string, { runs: number; failures: { run: number; title: string; message: string }[] }>();
try {
  for (let run = 1; run <= runs; run += 1) {
    const started = Date.now();
    const report = path.join(folder, `run-${run}.json`);
    const outcomes = project === 'e2e' ? playwrightRun(report) : vitestRun(report);
    for (const file of new Set(outcomes.map((outcome) => outcome.file))) {
      const entry = perFile.get(file) ?? { runs: 0, failures: [] };
      entry.runs += 1;
      perFile.set(file, entry);
    }
    const failed = outcomes.filter((outcome) => !outcome.passed);
    for (const failure of failed) perFile.get(failure.file)!.failures.push({ run, title: failure.title, message: failure.message });
    console.log(`run ${run}/${runs}: ${outcomes.length - failed.length} passed, ${failed.length} failed (${Math.round((Date.now() - started) / 1000)} s)`);
  }
} finally {
  stopBurners();
  rmSync(folder, { recursive: true, force: true });
}

const failing = [...perFile].filter(([, entry]) => entry.failures.length > 0);
console.log(`\n${perFile.size} files, ${runs} runs each, beside ${burners.length} busy core(s): ${failing.length} with a failure`);
for (const [file, entry] of failing) {
  console.log(`\n${file}: failed in ${new Set(entry.failures.map((failure) => failure.run)).size} of ${entry.runs} runs`);
  for (const failure of entry.failures) console.log(`  run ${failure.run}: ${failure.title}\n    ${failure.message.split('\n').slice(0, 4).join('\n    ')}`);
}
process.exitCode = failing.length > 0 ? 1 : 0;
