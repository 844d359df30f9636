import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { METHODS } from '../../../shared/contract';
import { makeRepo } from '../../../test-support/gitRepo';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { openWorktreeCore, type WorktreeCore } from '../../../test-support/worktreeCore';

const FAKE_EDITOR = path.resolve(__dirname, '../../../test-support/fixtures/fake-editor.mjs');

describe('Open in editor (a real editor process, real git worktrees)', () => {
  let dir: string;
  let repo: string;
  let out: string;
  let drover: WorktreeCore;

  const setEditor = (editorCommand: string) => drover.core.api.updateAppSettings({ settings: { editorCommand } });
  const opened = () => (fs.existsSync(out) ? fs.readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as string[]) : []);

  beforeEach(async () => {
    dir = fs.realpathSync(makeTempDir('drover-editor-'));
    repo = makeRepo(path.join(dir, 'repo'), { 'src/app.ts': 'one\ntwo\n', 'README.md': 'hi\n' });
    out = path.join(dir, 'opened.jsonl');
    drover = await openWorktreeCore(dir, repo);
  });
  afterEach(async () => {
    await drover.close();
    removeDir(dir);
  });

  it("runs the editor command as argv, with the file of an agent's worktree or of a task's folder at the line", async () => {
    await setEditor(`'${FAKE_EDITOR}' '${out}' --goto {file}:{line}:{column} "line {line}"`);
    const agent = await drover.addAgent('Ada');
    const worktree = await drover.worktreeOf(agent);
    const projectId = drover.project.id;

    const result = await drover.core.api.openInEditor({ projectId, agentId: agent.id, file: 'src/app.ts', line: 2, column: 4 });
    expect(result).toEqual({ file: path.join(worktree.path, 'src/app.ts'), line: 2, column: 4, argv: [FAKE_EDITOR, out, '--goto', `${worktree.path}/src/app.ts:2:4`, 'line 2'] });

    const task = await drover.core.api.createTask({ projectId, command: 'true', cwd: path.join(repo, 'src') });
    await drover.core.api.openInEditor({ projectId, taskId: task.id, file: '../README.md', line: 7 });
    await drover.core.api.openInEditor({ projectId, file: path.join(repo, 'src/app.ts') });

    await waitFor(() => opened().length === 3, 'the editor to have run three times');
    expect(opened()).toEqual([
      ['--goto', `${worktree.path}/src/app.ts:2:4`, 'line 2'],
      ['--goto', `${repo}/README.md:7:1`, 'line 7'],
      ['--goto', `${repo}/src/app.ts:1:1`, 'line 1'],
    ]);
    await waitFor(async () => (await drover.core.api.getTask({ taskId: task.id })).state === 'succeeded', 'the task to end');
  });

  it('refuses a file outside the project and its worktrees, however it is reached, and runs nothing', async () => {
    await setEditor(`'${FAKE_EDITOR}' '${out}' {file}`);
    const projectId = drover.project.id;
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'not yours\n');
    fs.symlinkSync(path.join(dir, 'secret.txt'), path.join(repo, 'link.txt'));

    for (const file of [path.join(dir, 'secret.txt'), '../secret.txt', 'link.txt']) {
      await expect(drover.core.api.openInEditor({ projectId, file })).rejects.toThrow(/is outside the project and its worktrees/);
    }
    await expect(drover.core.api.openInEditor({ projectId, file: 'gone.ts' })).rejects.toThrow(/gone\.ts does not exist/);
    await expect(drover.core.api.openInEditor({ projectId, file: 'src' })).rejects.toThrow(/src is not a file/);
    expect(opened()).toEqual([]);
  });

  it('says what to do when no editor is set, when it cannot start, and when it fails at once', async () => {
    const projectId = drover.project.id;
    await expect(drover.core.api.openInEditor({ projectId, file: 'README.md' })).rejects.toThrow('No editor is set: choose one in Settings → Editor.');

    await setEditor('no-such-editor-here {file}');
    await expect(drover.core.api.openInEditor({ projectId, file: 'README.md' })).rejects.toThrow(/Could not start your editor: no-such-editor-here was not found \(PATH: .*\)\. Check the command in Settings → Editor\./);

    await setEditor(`sh -c 'echo "cannot open display" >&2; exit 3' {file}`);
    await expect(drover.core.api.openInEditor({ projectId, file: 'README.md' })).rejects.toThrow('Your editor (sh) exited with code 3: cannot open display. Check the command in Settings → Editor.');
  });

  it('leaves an editor that stays up running on its own, writing to its stderr after the host stopped reading it', async () => {
    const go = path.join(dir, 'go');
    const alive = path.join(dir, 'alive');
    await setEditor(`sh -c 'while [ ! -e "$1" ]; do sleep 0.05; done; echo "still here" >&2; echo up > "$2"' editor '${go}' '${alive}' {file}`);
    await drover.core.api.openInEditor({ projectId: drover.project.id, file: 'README.md' });
    fs.writeFileSync(go, '');
    await waitFor(() => fs.existsSync(alive), 'the editor to go on after writing to its stderr');
  });

  it('refuses, at the door, an editor command that cannot open a file', () => {
    const params = METHODS.updateAppSettings.params;
    expect(params.safeParse({ settings: { editorCommand: 'code -g {file}:{line}' } }).success).toBe(true);
    expect(params.safeParse({ settings: { editorCommand: '' } }).success).toBe(true);
    const refused = params.safeParse({ settings: { editorCommand: 'code -g' } });
    expect(refused.error?.issues[0]?.message).toBe('The editor command must say where the file goes: put {file} in one of its arguments.');
    expect(params.safeParse({ settings: { editorCommand: 'code "{file}' } }).success).toBe(false);
  });
});
