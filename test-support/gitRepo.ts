import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Runs real git in `cwd` and returns what it printed (trimmed); throws with git's stderr on failure. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Writes files (creating folders) under `root`. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  }
}

/**
 * A git repository on branch `main` with `files` in its first commit, and its own committer
 * identity (agents' commits in its worktrees use it too), whatever the machine's git config says.
 */
export function makeRepo(folder: string, files: Record<string, string>): string {
  fs.mkdirSync(folder, { recursive: true });
  git(folder, 'init', '--quiet', '--initial-branch=main');
  git(folder, 'config', 'user.name', 'Test Person');
  git(folder, 'config', 'user.email', 'person@example.invalid');
  git(folder, 'config', 'commit.gpgsign', 'false');
  writeFiles(folder, files);
  git(folder, 'add', '--all');
  git(folder, 'commit', '--quiet', '-m', 'first commit');
  return fs.realpathSync(folder);
}

/** Writes files and commits them all. */
export function commitFiles(folder: string, files: Record<string, string>, message: string): string {
  writeFiles(folder, files);
  git(folder, 'add', '--all');
  git(folder, 'commit', '--quiet', '-m', message);
  return git(folder, 'rev-parse', 'HEAD');
}

/** Local branches whose names start with `prefix`. */
export function branchesStartingWith(folder: string, prefix: string): string[] {
  return git(folder, 'for-each-ref', '--format=%(refname:short)', `refs/heads/${prefix}*`)
    .split('\n')
    .filter((name) => name.length > 0);
}

/** Files through which a test holds a git command: it touches `started`, waits for `gate`, touches `done`. */
export interface GitHold {
  started: string;
  gate: string;
  done: string;
}

/** A shell script that waits (at most a minute) for the hold's gate, then runs `then`. */
function holdingScript(dir: string, name: string, then: string): { hold: GitHold; script: string } {
  const hold = { started: path.join(dir, `${name}-started`), gate: path.join(dir, `${name}-gate`), done: path.join(dir, `${name}-done`) };
  const script = `#!/bin/sh\ntouch '${hold.started}'\ni=0\nwhile [ ! -f '${hold.gate}' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done\ntouch '${hold.done}'\n${then}`;
  return { hold, script };
}

/**
 * Sets the repository's filter driver `hold-smudge` or `hold-clean` (files marked
 * `filter=hold-smudge` or `filter=hold-clean` in .gitattributes) so that its one step waits until
 * the test opens the gate, as a slow filter (git-lfs, say) would: git holds the index lock
 * meanwhile, smudging while it writes a checkout (a rebase), cleaning while it stages files (`git add`).
 */
export function holdGitFilter(repo: string, dir: string, step: 'smudge' | 'clean'): GitHold {
  const { hold, script } = holdingScript(dir, `filter-${step}`, 'exec cat\n');
  const file = path.join(dir, `filter-${step}.sh`);
  fs.writeFileSync(file, script, { mode: 0o755 });
  git(repo, 'config', `filter.hold-${step}.${step}`, file);
  return hold;
}

/**
 * Holds `git worktree add` (as a slow filter such as git-lfs's would) until the test opens its
 * gate: a committed file the smudge filter checks out. Drover's git runs no hooks, so a hook
 * could not hold it.
 */
export function holdWorktreeCreation(repo: string, dir: string): GitHold {
  commitFiles(repo, { 'held.dat': 'held\n', '.gitattributes': 'held.dat filter=hold-smudge\n' }, 'a file whose checkout waits');
  return holdGitFilter(repo, dir, 'smudge');
}

/** A bare repository at `bare` as `repo`'s origin, with `main` pushed to it (the push remote of forge tests). */
export function addBareOrigin(repo: string, bare: string): string {
  fs.mkdirSync(bare, { recursive: true });
  git(bare, 'init', '--quiet', '--bare', '--initial-branch=main');
  git(repo, 'remote', 'add', 'origin', bare);
  git(repo, 'push', '--quiet', 'origin', 'main');
  return fs.realpathSync(bare);
}
