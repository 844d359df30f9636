import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { git, makeRepo } from '../../../test-support/gitRepo';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { GitSession } from './session';

const OBJECT_ID = /^[0-9a-f]{40}$/;

describe('a git kept running for requests (real git)', () => {
  let dir: string;
  let repo: string;
  let started: ChildProcessWithoutNullStreams[];
  let sessions: GitSession[];

  beforeEach(() => {
    dir = makeTempDir();
    repo = makeRepo(path.join(dir, 'repo'), { 'a.txt': 'a\n' });
    started = [];
    sessions = [];
  });
  afterEach(() => {
    for (const session of sessions) session.close();
    removeDir(dir);
  });

  /** A session of `git args` in the repository that keeps each git it starts in `started`. */
  function sessionOf(args: string[], idleMs = 60_000): GitSession {
    const session = new GitSession(`git ${args[0]} in ${repo}`, async () => {}, () => {
      const child = spawn('git', args, { cwd: repo });
      started.push(child);
      return child;
    }, idleMs);
    sessions.push(session);
    return session;
  }

  it('answers requests in the order they came, from one git', async () => {
    const names = sessionOf(['cat-file', '--batch-check=%(objectname)']);
    const [head, tree] = await Promise.all([names.request('HEAD\n', 1), names.request('HEAD^{tree}\n', 1)]);
    expect(head).toEqual([git(repo, 'rev-parse', 'HEAD')]);
    expect(tree).toEqual([git(repo, 'rev-parse', 'HEAD^{tree}')]);
    expect(await names.request('HEAD\nHEAD^{tree}\n', 2)).toEqual([...head, ...tree]);
    expect(started).toHaveLength(1);
  });

  it('ends an answer of any length at the line that says so, an empty one too', async () => {
    const diffs = sessionOf(['diff-tree', '--stdin', '--name-only']);
    const empty = git(repo, 'hash-object', '-t', 'tree', '-w', '/dev/null');
    const head = git(repo, 'rev-parse', 'HEAD^{tree}');
    const ended = (line: string) => line === 'end';
    const [changed, same] = await Promise.all([diffs.request(`${empty} ${head}\nend\n`, ended), diffs.request(`${head} ${head}\nend\n`, ended)]);
    expect(changed).toEqual([`${empty} ${head}`, 'a.txt', 'end']);
    expect(same).toEqual([`${head} ${head}`, 'end']);
    expect(started).toHaveLength(1);
  });

  it('starts git again for a request when the one that was waiting was killed, and answers it', async () => {
    const names = sessionOf(['cat-file', '--batch-check=%(objectname)']);
    await names.request('HEAD\n', 1);
    started[0]?.kill('SIGKILL');
    // Asked before the death is seen: the request goes to the dead git, then to a fresh one.
    expect(await names.request('HEAD\n', 1)).toEqual([git(repo, 'rev-parse', 'HEAD')]);
    expect(started).toHaveLength(2);
    // And after it is seen: straight to a fresh one.
    const second = started[1] as ChildProcessWithoutNullStreams;
    second.kill('SIGKILL');
    await once(second, 'close');
    expect(await names.request('HEAD\n', 1)).toEqual([git(repo, 'rev-parse', 'HEAD')]);
    expect(started).toHaveLength(3);
  });

  it("fails in git's words when a fresh git ends without answering, and starts another for the next request", async () => {
    const refs = sessionOf(['update-ref', '--stdin']);
    await expect(refs.request(`start\nupdate refs/drover/x ${'1'.repeat(40)}\ncommit\n`, 2)).rejects.toThrow(
      `git update-ref in ${repo} failed: fatal: commit: cannot update ref 'refs/drover/x': trying to write ref 'refs/drover/x' with nonexistent object ${'1'.repeat(40)}`,
    );
    expect(started).toHaveLength(1);
    const head = git(repo, 'rev-parse', 'HEAD');
    expect(await refs.request(`start\nupdate refs/drover/x ${head}\ncommit\n`, 2)).toEqual(['start: ok', 'commit: ok']);
    expect(git(repo, 'rev-parse', 'refs/drover/x')).toBe(head);
  });

  it('asks a fresh git again when the one that was waiting gives an answer the caller cannot use', async () => {
    const names = sessionOf(['cat-file', '--batch-check=%(objectname)']);
    const isId = ([line = '']: string[]) => OBJECT_ID.test(line);
    await names.request('HEAD\n', 1, isId);
    // The folder the waiting git works in is removed and made again: it no longer finds the repository there.
    removeDir(repo);
    makeRepo(repo, { 'b.txt': 'another repository at the same place\n' });
    expect(await names.request('HEAD\n', 1, isId)).toEqual([git(repo, 'rev-parse', 'HEAD')]);
    expect(started).toHaveLength(2);
    // A fresh git's answer is the answer, usable or not.
    expect(await names.request('refs/heads/none\n', 1, isId)).toEqual(['refs/heads/none missing']);
  });

  it('ends git after the idle time without a request, and starts it again on the next', async () => {
    const names = sessionOf(['cat-file', '--batch-check=%(objectname)'], 10);
    await names.request('HEAD\n', 1);
    const first = started[0] as ChildProcessWithoutNullStreams;
    const [code] = (await once(first, 'close')) as [number | null];
    expect(code).toBe(0);
    expect(await names.request('HEAD\n', 1)).toEqual([git(repo, 'rev-parse', 'HEAD')]);
    expect(started).toHaveLength(2);
  });
});
