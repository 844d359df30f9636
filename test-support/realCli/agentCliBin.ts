import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../buildOnce';

let setDir: string | undefined;

/**
 * The folder of the agent CLI set the suite runs: the pinned one, or the newest on npm when
 * DROVER_AGENT_CLIS=latest (`npm run test:agents -- --latest`). Installed on first use by
 * scripts/install-agent-clis.mjs into a cache outside node_modules. Throws when they cannot be
 * installed: the real-CLI suite never skips.
 */
function agentCliSetDir(): string {
  setDir ??= execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'install-agent-clis.mjs')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  return setDir;
}

/** The folder holding the real agent CLIs (claude, codex, gemini, copilot) of the set the suite runs. */
export function agentCliBinDir(): string {
  return path.join(agentCliSetDir(), 'node_modules', '.bin');
}

/** The folder of an agent CLI's package in the set the suite runs. */
export function installedCliPackageDir(packageName: string): string {
  return path.join(agentCliSetDir(), 'node_modules', ...packageName.split('/'));
}

/** The version of an agent CLI's package in the set the suite runs, as installed. */
export function installedCliVersion(packageName: string): string {
  const manifest = path.join(installedCliPackageDir(packageName), 'package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}
