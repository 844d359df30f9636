import { execFile } from 'node:child_process';
import path from 'node:path';
import type { AgentCliVersion } from '../../../shared/entities';

/**
 * The newest version of each agent CLI that the real-CLI suite passed with (`npm run test:agents
 * -- --latest`; the README's tested versions), by the command that runs it. Raise one only after
 * its scenarios pass.
 */
export const NEWEST_TESTED_CLI_VERSIONS: Readonly<Record<string, string>> = {
  claude: '2.1.332',
  codex: '0.171.0',
  gemini: '0.61.0',
};

const VERSION_TIMEOUT_MS = 10_000;

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
export function testedCliOf(command: string): string | undefined {
  const name = path.basename(command);
  return Object.hasOwn(NEWEST_TESTED_CLI_VERSIONS, name) ? name : undefined;
}

/**
 * Asks a tested agent CLI its version (`<file> --version`, in the env it runs in) and says whether
 * it is newer than the newest tested. Null when the command is not one of the tested CLIs or it
 * printed no version in time: the agent runs all the same.
 */
export function readCliVersion(command: string, file: string, env: NodeJS.ProcessEnv): Promise<AgentCliVersion | null> {
  const cli = testedCliOf(command);
  if (!cli) return Promise.resolve(null);
  const newestTested = NEWEST_TESTED_CLI_VERSIONS[cli] as string;
  return new Promise((resolve) => {
    execFile(file, ['--version'], { env, timeout: VERSION_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout) => {
      const version = error ? null : parseCliVersion(stdout);
      resolve(version ? { version, newerThanTested: isNewerVersion(version, newestTested) ? newestTested : null } : null);
    });
  });
}
