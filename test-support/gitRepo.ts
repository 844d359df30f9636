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

/**
 * A post-checkout hook holds `git worktree add` (as a slow hook of a real repository would) until
 * the test opens its gate; the host is killed meanwhile.
 */
export function holdWorktreeCreation(repo: string, dir: string): { started: string; gate: string; done: string } {
  const files = { started: path.join(dir, 'hook-started'), gate: path.join(dir, 'hook-gate'), done: path.join(dir, 'hook-done') };
  const hook = path.join(repo, '.git', 'hooks', 'post-checkout');
  fs.writeFileSync(
    hook,
    `#!/bin/sh\ntouch '${files.started}'\ni=0\nwhile [ ! -f '${files.gate}' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done\ntouch '${files.done}'\n`,
    { mode: 0o755 },
  );
  return files;
}

/** A bare repository at `bare` as `repo`'s origin, with `main` pushed to it (the push remote of forge tests). */
export function addBareOrigin(repo: string, bare: string): string {
  fs.mkdirSync(bare, { recursive: true });
  git(bare, 'init', '--quiet', '--bare', '--initial-branch=main');
  git(repo, 'remote', 'add', 'origin', bare);
  git(repo, 'push', '--quiet', 'origin', 'main');
  return fs.realpathSync(bare);
}
