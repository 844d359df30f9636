import { execFile, spawn, spawnSync } from 'node:child_process';
import { fail } from '../errors';
import { GitSession } from './session';

/** `git merge-tree --write-tree` (a merge checked without touching any checkout) came with git 2.38. */
export const MIN_GIT_VERSION: readonly [number, number] = [2, 38];
const MIN_VERSION_TEXT = MIN_GIT_VERSION.join('.');

/** Diffs larger than this are refused rather than held in memory whole. */
const MAX_OUTPUT_BYTES = 128 * 1024 * 1024;

/** Variables that would point git at another repository than the folder it runs in. */
const REPOSITORY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
];

/**
 * What Drover's own git never does, whatever the person's or a repository's config says: run hooks
 * or an fsmonitor command (a relative core.hooksPath points into the worktree an agent writes),
 * take a path for a pathspec pattern (a file named `:(exclude)*` fed back to git would turn a
 * restore into nothing), or run git inside a submodule's folder (to check it out, diff, summarize,
 * fetch or push it), where the agent can plant a git dir whose config runs commands. Any git these
 * commands start inherits the settings too.
 */
const SAFETY_ARGS = [
  ...['core.fsmonitor=false', 'core.hooksPath=/dev/null', 'submodule.recurse=false', 'diff.submodule=short', 'status.submoduleSummary=false', 'fetch.recurseSubmodules=false', 'push.recurseSubmodules=no'].flatMap(
    (setting) => ['-c', setting],
  ),
];

/**
 * An agent's worktree as Drover's git reaches it: its files, and its git dir as the repository
 * records it, never as the agent-writable `.git` file in the folder names it.
 */
export interface RecordedCheckout {
  workTree: string;
  gitDir: string;
}

/** Where a command runs: a folder git finds its repository from (the person's own), or an agent's recorded checkout. */
export type GitPlace = string | RecordedCheckout;

/** The folder a command at `place` runs in: the top of its work tree. */
export function workTreeOf(place: GitPlace): string {
  return typeof place === 'string' ? place : place.workTree;
}

/** The folder a command runs in, and what tells git its repository there. */
function located(place: GitPlace): { cwd: string; env: Record<string, string> } {
  if (typeof place === 'string') return { cwd: place, env: {} };
  return { cwd: place.workTree, env: { GIT_DIR: place.gitDir, GIT_WORK_TREE: place.workTree } };
}

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface GitOptions {
  /** Exit codes that are answers rather than failures (merge-tree exits 1 on conflicts). */
  okCodes?: readonly number[];
  env?: Record<string, string>;
  /** What git reads on its standard input (paths for `--stdin`). */
  input?: string;
  /** The command speaks to a remote (a push): it gets the environment given for that (see Git's constructor). */
  remote?: boolean;
  /**
   * False for git check-ignore, which refuses `--literal-pathspecs` (it takes no pathspec magic but
   * `:(top)`): its caller makes each path literal itself.
   */
  literalPathspecs?: false;
}

/** The arguments git runs with: the safety settings, literal pathspecs unless refused, then the command's. */
function argsOf(args: readonly string[], options: GitOptions): string[] {
  return [...SAFETY_ARGS, ...(options.literalPathspecs === false ? [] : ['--literal-pathspecs']), ...args];
}

/** Parses `git version 2.39.5` (and vendor suffixes such as `.windows.1`). */
export function parseGitVersion(text: string): [number, number, number] | null {
  const match = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  if (!match) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

function firstLines(text: string, count = 4): string {
  return text.trim().split('\n').slice(0, count).join(' ').trim();
}

/**
 * Runs git for the core (worktrees, turns, the forge): with a clean environment (no inherited GIT_DIR, no prompts),
 * no hooks, no fsmonitor, no submodule recursion, literal pathspecs, an agent's worktree through its recorded git dir, and
 * one clear error for a missing or too old git. The version is checked once, before the first command.
 */
export class Git {
  private readonly env: Record<string, string>;
  private versionChecked = false;

  /** `remoteEnv` is added for commands that speak to a remote only (the host's GitHub tokens, for a credential helper). */
  constructor(
    baseEnv: NodeJS.ProcessEnv,
    private readonly remoteEnv: Record<string, string> = {},
  ) {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(baseEnv)) if (value !== undefined && !REPOSITORY_VARIABLES.includes(key)) env[key] = value;
    // Optional locks off: Drover's own status and diff calls never rewrite the index, so watching a
    // worktree never sees its own reads as changes.
    this.env = { ...env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' };
    // Nobody can answer a prompt here: ssh must fail rather than wait for a passphrase or a host key.
    if (!env.GIT_SSH_COMMAND && !env.GIT_SSH) this.env.GIT_SSH_COMMAND = 'ssh -o BatchMode=yes';
  }

  /** Fails with a clear message when git is missing or older than 2.38. */
  async ensureUsable(): Promise<void> {
    if (this.versionChecked) return;
    const result = await this.exec(process.cwd(), ['--version'], { okCodes: [0] });
    this.checkVersion(result.stdout);
  }

  ensureUsableSync(): void {
    if (this.versionChecked) return;
    this.checkVersion(this.runSync(process.cwd(), ['--version']).stdout);
  }

  /** Runs git at `place`; a non-zero exit outside `okCodes` fails with git's own words. */
  async run(place: GitPlace, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
    await this.ensureUsable();
    return this.exec(place, args, options);
  }

  /** The same, blocking: for the boot reconciliation, which runs before anything is served. */
  runSync(place: GitPlace, args: readonly string[], options: GitOptions = {}): GitResult {
    const { cwd, env } = this.placed(place, options);
    const result = spawnSync('git', argsOf(args, options), { cwd, env, input: options.input ?? '', encoding: 'utf8', maxBuffer: MAX_OUTPUT_BYTES });
    if (result.error) this.failToRun(result.error as NodeJS.ErrnoException, args, cwd);
    const outcome = { stdout: result.stdout, stderr: result.stderr, code: result.status ?? 1 };
    return this.checked(outcome, args, cwd, options);
  }

  /**
   * A git kept running at `place` for requests on its standard input (see GitSession), with the
   * environment and settings `run` gives git; ended after `idleMs` without a request.
   */
  session(place: GitPlace, args: readonly string[], idleMs: number): GitSession {
    const { cwd, env } = this.placed(place, {});
    return new GitSession(`git ${args[0] ?? ''} in ${cwd}`, () => this.ensureUsable(), () => spawn('git', argsOf(args, {}), { cwd, env }), idleMs);
  }

  /** The folder a command runs in and its whole environment. */
  private placed(place: GitPlace, options: GitOptions): { cwd: string; env: Record<string, string> } {
    const { cwd, env } = located(place);
    return { cwd, env: { ...this.env, ...(options.remote ? this.remoteEnv : {}), ...env, ...options.env } };
  }

  private exec(place: GitPlace, args: readonly string[], options: GitOptions): Promise<GitResult> {
    const { cwd, env } = this.placed(place, options);
    return new Promise((resolve, reject) => {
      const child = execFile('git', argsOf(args, options), { cwd, env, encoding: 'utf8', maxBuffer: MAX_OUTPUT_BYTES }, (error, stdout, stderr) => {
        try {
          if (error && typeof error.code !== 'number') this.failToRun(error as NodeJS.ErrnoException, args, cwd);
          const code = error ? (error.code as unknown as number) : 0;
          resolve(this.checked({ stdout, stderr, code }, args, cwd, options));
        } catch (failure) {
          reject(failure);
        }
      });
      // Git that ends without reading its input (a failure) must not turn into an unhandled EPIPE; its exit says why.
      child.stdin?.on('error', () => {});
      child.stdin?.end(options.input ?? '');
    });
  }

  /** Reports a command that failed, in git's own words. */
  raise(result: GitResult, args: readonly string[], cwd: string): never {
    fail('invalid-state', `git ${args[0] ?? ''} failed in ${cwd}: ${firstLines(result.stderr || result.stdout) || `exit code ${result.code}`}`);
  }

  private checked(result: GitResult, args: readonly string[], cwd: string, options: GitOptions): GitResult {
    if ((options.okCodes ?? [0]).includes(result.code)) return result;
    this.raise(result, args, cwd);
  }

  private failToRun(error: NodeJS.ErrnoException, args: readonly string[], cwd: string): never {
    // Once git answered --version, ENOENT means the folder it was to run in is gone.
    if (error.code === 'ENOENT' && args[0] !== '--version') fail('invalid-path', `Cannot run git in ${cwd}: the folder does not exist.`);
    if (error.code === 'ENOENT') {
      fail('invalid-state', `git was not found on PATH. Worktrees need git ${MIN_VERSION_TEXT} or newer: install it and try again.`);
    }
    if (error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
      fail('invalid-state', `git ${args[0] ?? ''} printed more than ${MAX_OUTPUT_BYTES / 1024 / 1024} MB in ${cwd}; run it there yourself.`);
    }
    fail('invalid-state', `Cannot run git: ${error.message}`);
  }

  private checkVersion(output: string): void {
    const version = parseGitVersion(output);
    if (!version) fail('invalid-state', `Cannot tell which git this is (it printed "${firstLines(output, 1)}"); worktrees need git ${MIN_VERSION_TEXT} or newer.`);
    const [major, minor] = version;
    if (major < MIN_GIT_VERSION[0] || (major === MIN_GIT_VERSION[0] && minor < MIN_GIT_VERSION[1])) {
      fail(
        'invalid-state',
        `git ${version.join('.')} is too old: worktrees need git ${MIN_VERSION_TEXT} or newer (for git merge-tree --write-tree, which checks a merge without touching any checkout). Update git and try again.`,
      );
    }
    this.versionChecked = true;
  }
}
