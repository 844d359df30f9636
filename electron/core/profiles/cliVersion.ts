import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { AgentCliVersion } from '../../../shared/entities/sessions';

interface TestedCli {
  /** The npm package that installs it: its package.json next to the executable names the version. */
  packageName: string;
  /** The newest version the real-CLI suite passed with (`npm run test:agents -- --latest`). */
  newestTested: string;
  /**
   * Whether `--version` may be asked when no package.json says it (a native install). Gemini CLI
   * 0.61.0 writes its projects registry even for `--version`, racing the agent's own start.
   */
  asksVersion: boolean;
}

/**
 * The tested agent CLIs, by the command that runs them (the README's tested versions). Raise a
 * `newestTested` only after its scenarios pass.
 */
export const TESTED_CLIS: Readonly<Record<string, TestedCli>> = {
  claude: { packageName: '@anthropic-ai/claude-code', newestTested: '2.1.332', asksVersion: true },
  codex: { packageName: '@openai/codex', newestTested: '0.171.0', asksVersion: true },
  gemini: { packageName: '@google/gemini-cli', newestTested: '0.61.0', asksVersion: false },
  copilot: { packageName: '@github/copilot', newestTested: '1.0.102', asksVersion: true },
  opencode: { packageName: 'opencode-ai', newestTested: '1.18.33', asksVersion: true },
};

const VERSION_TIMEOUT_MS = 10_000;
/** How far above the executable its package.json may be (`node_modules/<scope>/<name>/bin/<file>`). */
const PACKAGE_DEPTH = 4;

/** The first `major.minor.patch` in what a CLI printed ("2.1.332 (Claude Code)", "codex-cli 0.171.0"). */
export function parseCliVersion(printed: string): string | null {
  return /\b(\d+)\.(\d+)\.(\d+)\b/.exec(printed)?.[0] ?? null;
}

/** Whether version `a` is newer than `b` (both `major.minor.patch`). */
export function isNewerVersion(a: string, b: string): boolean {
  const [x, y] = [a, b].map((version) => version.split('.').map(Number));
  for (let i = 0; i < 3; i++) {
    const difference = (x?.[i] ?? 0) - (y?.[i] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return false;
}

/** The tested CLI a profile's command runs, by its file name; undefined for any other command. */
export function testedCliOf(command: string): TestedCli | undefined {
  const name = path.basename(command);
  return Object.hasOwn(TESTED_CLIS, name) ? TESTED_CLIS[name] : undefined;
}

/** The version in the CLI's own package.json, found above its executable (symlinks followed). */
function packageVersion(file: string, packageName: string): string | null {
  let dir: string;
  try {
    dir = path.dirname(fs.realpathSync(file));
  } catch {
    return null;
  }
  for (let level = 0; level <= PACKAGE_DEPTH; level++, dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === packageName && typeof manifest.version === 'string') return parseCliVersion(manifest.version);
    } catch {
      // No package.json here: look further up.
    }
  }
  return null;
}

function askVersion(file: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(file, ['--version'], { env, timeout: VERSION_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout) => resolve(error ? null : parseCliVersion(stdout)));
  });
}

/**
 * A tested agent CLI's version and whether it is newer than the newest tested: from the package.json
 * it was installed with, else (where that is safe) from `<file> --version`. Null when the command is
 * not one of the tested CLIs or no version was found in time: the agent runs all the same.
 */
export async function readCliVersion(command: string, file: string, env: NodeJS.ProcessEnv): Promise<AgentCliVersion | null> {
  const cli = testedCliOf(command);
  if (!cli) return null;
  const version = packageVersion(file, cli.packageName) ?? (cli.asksVersion ? await askVersion(file, env) : null);
  return version ? { version, newerThanTested: isNewerVersion(version, cli.newestTested) ? cli.newestTested : null } : null;
}
