// `npm test`: build, typecheck, lint (with the architecture rules), unit tests, e2e. Every step runs
// even when an earlier one fails, and the last line is a plain summary of all tests.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const reportsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-test-reports-'));
const REAL_CLI_SUITE = 'e2e/realCli';
const playwrightReport = path.join(reportsDir, 'playwright.json');
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];
/** Each failed test as `file › name: first line of its error`, printed just above the summary. */
const failedTests = [];
/** Tests that failed once and passed on their retry, named the same way: flaky, and said so. */
const flakyTests = [];
/** How long each step took, printed above the summary: where a slow CI run's time went. */
const stepTimes = [];

function firstLine(text) {
  return String(text ?? '').split('\n').find((line) => line.trim() !== '')?.trim().slice(0, 200) ?? '';
}

function step(name, command, args, env = {}) {
  process.stdout.write(`\n=== ${name}: ${[command, ...args].join(' ')}\n`);
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  stepTimes.push(`${name} ${Math.round((performance.now() - started) / 1000)} s`);
  const ok = result.status === 0;
  if (!ok) failedSteps.push(name);
  return ok;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const npx = 'npx';
const built = step('build', 'npm', ['run', 'build', '--silent']);
// Typecheck and lint count as one check each in the summary.
for (const ok of [step('typecheck', npx, ['tsc', '-p', 'tsconfig.json', '--noEmit']), step('lint', 'npm', ['run', 'lint', '--silent'])]) {
  if (ok) totals.passed++;
  else totals.failed++;
}

/** A vitest run, counted into the totals from its JSON report. */
function vitestStep(name, args) {
  const report = path.join(reportsDir, `${name}.json`);
  // One retry, as a loaded machine can time a real process out once; each test that needed it is listed.
  step(name, npx, ['vitest', 'run', ...args, '--retry=1', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
  const vitest = readJson(report);
  if (!vitest) {
    totals.failed++;
    return;
  }
  totals.passed += vitest.numPassedTests;
  // A suite that fails to load has no failed test but must still count.
  totals.failed += vitest.numFailedTests + vitest.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length;
  totals.skipped += vitest.numPendingTests + vitest.numTodoTests;
  for (const file of vitest.testResults) {
    const where = path.relative(process.cwd(), file.name);
    if (file.status === 'failed' && file.assertionResults.length === 0) failedTests.push(`${where}: ${firstLine(file.message)}`);
    for (const test of file.assertionResults) {
      const named = `${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`;
      if (test.status === 'failed') failedTests.push(named);
      // A passed test keeps the errors of the attempt that failed before its retry.
      else if (test.status === 'passed' && test.failureMessages?.length > 0) flakyTests.push(named);
    }
  }
}

/** Every Playwright test that did not end as expected, from the JSON report's nested suites. */
function collectPlaywrightFailures(suite) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      const firstError = test.results?.find((result) => result.error)?.error;
      const named = `${spec.file}:${spec.line} › ${spec.title}: ${firstLine(firstError?.message)}`;
      if (test.status === 'unexpected') failedTests.push(named);
      else if (test.status === 'flaky') flakyTests.push(named);
    }
  }
  for (const child of suite.suites ?? []) collectPlaywrightFailures(child);
}

vitestStep('unit', ['--exclude', `${REAL_CLI_SUITE}/**`]);
// The real agent CLIs (installed into a cache on first use), two at a time: each mostly waits on its
// screens and the fake model, and more at once would time their screens under a load no person's
// machine puts them under.
vitestStep('real-cli', [REAL_CLI_SUITE, '--maxWorkers=2']);

if (built) {
  step('e2e', npx, ['playwright', 'test', '--retries=1', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport });
  const playwright = readJson(playwrightReport);
  if (playwright) {
    totals.passed += playwright.stats.expected + playwright.stats.flaky;
    totals.failed += playwright.stats.unexpected;
    totals.skipped += playwright.stats.skipped;
    for (const suite of playwright.suites ?? []) collectPlaywrightFailures(suite);
  } else totals.failed++;
} else {
  totals.failed++;
}

fs.rmSync(reportsDir, { recursive: true, force: true });
process.stdout.write(`\nSteps took: ${stepTimes.join(', ')}\n`);
if (flakyTests.length > 0) process.stdout.write(`\nFlaky (failed once, passed on the retry):\n${flakyTests.map((line) => `  ${line}`).join('\n')}\n`);
if (failedTests.length > 0) process.stdout.write(`\nFailed tests:\n${failedTests.map((line) => `  ${line}`).join('\n')}\n`);
if (failedSteps.length > 0) process.stdout.write(`\nFailed steps: ${failedSteps.join(', ')}\n`);
const flakyNote = flakyTests.length > 0 ? ` (${flakyTests.length} of them on a retry)` : '';
process.stdout.write(`\n${totals.passed} passed${flakyNote}, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`);
process.exitCode = failedSteps.length > 0 || totals.failed > 0 ? 1 : 0;
