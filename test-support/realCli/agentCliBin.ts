import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../buildOnce';

let binDir: string | undefined;

/**
 * The folder holding the pinned real agent CLIs (claude, codex, gemini), installed on first use by
 * scripts/install-agent-clis.mjs into a cache outside node_modules. Throws when they cannot be
 * installed: the real-CLI suite never skips.
 */
export function agentCliBinDir(): string {
  binDir ??= path.join(
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'install-agent-clis.mjs')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim(),
    'node_modules',
    '.bin',
  );
  return binDir;
}
