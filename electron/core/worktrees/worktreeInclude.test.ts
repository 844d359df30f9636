import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { git, makeRepo, writeFiles } from '../../../test-support/gitRepo';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { openWorktreeCore, type WorktreeCore } from '../../../test-support/worktreeCore';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/** Every file under `folder`, relative to it. */
function filesUnder(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort();
}

describe('.worktreeinclude copies', () => {
  let dir: string;
  let repo: string;
  let elsewhere: string;
  let drover: WorktreeCore;

  beforeEach(async () => {
    dir = makeTempDir();
    elsewhere = path.join(dir, 'elsewhere');
    fs.mkdirSync(elsewhere);
    repo = makeRepo(path.join(dir, 'repo'), {
      'conf/settings.json': '{}\n',
      'settings/readme.md': 'tracked\n',
      '.gitignore': '.env\nsecrets/\nprivate/\nconf/.env\nconf/private/\n',
      '.worktreeinclude': '.env\nsecrets/\nconf/.env\nconf/private/\n',
    });
    writeFiles(repo, { '.env': 'TOP=1\n', 'secrets/key.pem': 'KEY\n', 'private/.env': 'NESTED=1\n', 'conf/.env': 'CONF=1\n', 'conf/private/token': 'TOKEN\n' });
    for (const file of ['.env', 'secrets/key.pem', 'private/.env', 'conf/.env', 'conf/private/token']) fs.chmodSync(path.join(repo, file), 0o600);
    for (const folder of ['secrets', 'private']) fs.chmodSync(path.join(repo, folder), 0o700);
    drover = await openWorktreeCore(dir, repo);
  });
  afterEach(async () => {
    await drover.close();
    removeDir(dir);
  });

  /** A branch of main on which `change` replaced files, committed with everything it staged. */
  const baseBranch = (name: string, change: (tree: string) => void) => {
    const tree = path.join(dir, `make-${name}`);
    git(repo, 'worktree', 'add', '--quiet', '-b', name, tree);
    change(tree);
    git(tree, 'add', '--all', '--force');
    git(tree, 'commit', '--quiet', '-m', `${name}: symlinks`);
    git(repo, 'worktree', 'remove', '--force', tree);
  };

  it('keeps each copied secret at its mode, and the folders made for them at theirs', async () => {
    const { path: tree } = await drover.worktreeOf(await drover.addAgent('private'));
    expect(fs.readFileSync(path.join(tree, 'private', '.env'), 'utf8')).toBe('NESTED=1\n');
    for (const file of ['.env', 'secrets/key.pem', 'private/.env', 'conf/.env', 'conf/private/token']) expect([file, modeOf(path.join(tree, file))]).toEqual([file, 0o600]);
    for (const folder of ['secrets', 'private']) expect([folder, modeOf(path.join(tree, folder))]).toEqual([folder, 0o700]);
  });

  it('refuses to write through a symlink the base branch tracks where the checkout has a folder, and leaves nothing behind', async () => {
    baseBranch('linked', (tree) => {
      fs.rmSync(path.join(tree, 'conf'), { recursive: true });
      fs.symlinkSync(elsewhere, path.join(tree, 'conf'));
    });
    const before = git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads');
    const refusal = await drover.addAgent('linked', { kind: 'new-worktree', base: 'linked' }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(filesUnder(elsewhere)).toEqual([]);
    expect(refusal).toBeInstanceOf(Error);
    expect((refusal as Error).message).toMatch(new RegExp(`Cannot copy conf/\\.env into the new worktree: conf there is a symbolic link to ${elsewhere}, outside the worktree`));
    expect((await drover.core.api.getWorkState({ projectId: drover.project.id })).agents).toEqual([]);
    expect(git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads')).toBe(before);
    expect(git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((line) => line.startsWith('worktree '))).toEqual([`worktree ${repo}`]);
  });

  it('never writes through a symlink the base branch tracks in place of an included file or inside an included folder', async () => {
    baseBranch('planted', (tree) => {
      fs.symlinkSync(path.join(elsewhere, 'dotenv'), path.join(tree, '.env'));
      fs.mkdirSync(path.join(tree, 'secrets'));
      fs.symlinkSync(path.join(elsewhere, 'key'), path.join(tree, 'secrets', 'key.pem'));
    });
    const { path: tree } = await drover.worktreeOf(await drover.addAgent('planted', { kind: 'new-worktree', base: 'planted' }));
    expect(filesUnder(elsewhere)).toEqual([]);
    // The branch's own symlinks stay as it has them.
    expect(fs.readlinkSync(path.join(tree, '.env'))).toBe(path.join(elsewhere, 'dotenv'));
    expect(fs.readlinkSync(path.join(tree, 'secrets', 'key.pem'))).toBe(path.join(elsewhere, 'key'));
    expect(fs.readFileSync(path.join(tree, 'conf', '.env'), 'utf8')).toBe('CONF=1\n');
  });

  it('follows a symlink that stays inside the worktree', async () => {
    baseBranch('inside', (tree) => {
      fs.rmSync(path.join(tree, 'conf'), { recursive: true });
      fs.symlinkSync('settings', path.join(tree, 'conf'));
    });
    const { path: tree } = await drover.worktreeOf(await drover.addAgent('inside', { kind: 'new-worktree', base: 'inside' }));
    expect(fs.readFileSync(path.join(tree, 'settings', '.env'), 'utf8')).toBe('CONF=1\n');
    expect(fs.readFileSync(path.join(tree, 'settings', 'private', 'token'), 'utf8')).toBe('TOKEN\n');
    expect(filesUnder(elsewhere)).toEqual([]);
  });
});
