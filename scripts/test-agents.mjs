#!/usr/bin/env node
// `npm run test:agents [-- --latest] [claude|codex|gemini|copilot ...]`: the real-CLI suite alone, for the
// pinned CLI set or (--latest) the newest version of each on npm, installed into the same cache.
// Runs one CLI at a time (their screens are timed; vitest's global setup bundles `drover` first),
// and ends with one line per CLI: its version and whether its scenarios passed.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'test-support', 'realCli', 'agentClis.json'), 'utf8'));
const args = process.argv.slice(2);
const latest = args.includes('--latest');
const known = Object.keys(manifest.bins);
const asked = args.filter((arg) => !arg.startsWith('--'));
const unknown = asked.filter((name) => !known.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`No real-CLI scenarios for ${unknown.join(', ')}; known: ${known.join(', ')}.\n`);
  process.exit(2);
}
const clis = asked.length > 0 ? asked : known;
const env = { ...process.env, DROVER_AGENT_CLIS: latest ? 'latest' : 'pinned' };

const setDir = execFileSync(process.execPath, [path.join(root, 'scripts', 'install-agent-clis.mjs')], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
const versionOf = (bin) => JSON.parse(fs.readFileSync(path.join(setDir, 'node_modules', ...manifest.bins[bin].split('/'), 'package.json'), 'utf8')).version;

const reportsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-agent-reports-'));
const results = clis.map((bin) => {
  const report = path.join(reportsDir, `${bin}.json`);
  spawnSync('npx', ['vitest', 'run', `e2e/realCli/${bin}.test.ts`, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { cwd: root, env, stdio: 'inherit' });
  let vitest;
  try {
    vitest = JSON.parse(fs.readFileSync(report, 'utf8'));
  } catch {
    vitest = undefined;
  }
  const passed = vitest?.numPassedTests ?? 0;
  const failed = vitest ? vitest.numFailedTests + vitest.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length : 1;
  return { cli: bin, package: manifest.bins[bin], version: versionOf(bin), passed, failed };
});
fs.rmSync(reportsDir, { recursive: true, force: true });

process.stdout.write(`\nReal-CLI scenarios (${latest ? 'newest on npm' : 'pinned'}):\n`);
for (const r of results) process.stdout.write(`${r.failed === 0 ? 'PASS' : 'FAIL'} ${r.package}@${r.version}: ${r.passed} passed, ${r.failed} failed\n`);
if (process.env.GITHUB_STEP_SUMMARY) {
  const rows = results.map((r) => `| ${r.package} | ${r.version} | ${r.failed === 0 ? 'pass' : 'fail'} | ${r.passed} | ${r.failed} |`);
  fs.appendFileSync(process.env.GITHUB_STEP_SUMMARY, ['| CLI | version | result | passed | failed |', '| --- | --- | --- | --- | --- |', ...rows, ''].join('\n'));
}
process.exitCode = results.every((r) => r.failed === 0) ? 0 : 1;
