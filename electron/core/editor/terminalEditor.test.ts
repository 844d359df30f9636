import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EDITOR_PRESETS } from '../../../shared/editor';
import { makeRepo } from '../../../test-support/gitRepo';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { openWorktreeCore, type WorktreeCore } from '../../../test-support/worktreeCore';

const FAKE_TERMINAL_EDITOR = path.resolve(__dirname, '../../../test-support/fixtures/fake-terminal-editor.sh');
const TERMINAL_PRESET = EDITOR_PRESETS.find((preset) => preset.name === 'Terminal editor ($VISUAL / $EDITOR)')?.command ?? '';

describe('Open in a terminal editor (a real Shell agent in a PTY, real git worktrees)', () => {
  let dir: string;
  let drover: WorktreeCore;

  const boot = async (editorEnv: NodeJS.ProcessEnv) => {
    dir = fs.realpathSync(makeTempDir('drover-terminal-editor-'));
    const repo = makeRepo(path.join(dir, 'repo'), { 'src/app.ts': 'one\ntwo\n', 'README.md': 'hi\n' });
    const env = { ...process.env, SHELL: '/bin/sh', VISUAL: '', EDITOR: '', ...editorEnv };
    drover = await openWorktreeCore(dir, repo, env);
    await drover.core.api.updateAppSettings({ settings: { editorCommand: TERMINAL_PRESET } });
    return repo;
  };
  const screenOf = async (agentId: string) => (await drover.core.api.readAgentScreen({ agentId })).text;

  afterEach(async () => {
    await drover.close();
    removeDir(dir);
  });

  it("opens the file at the line in $VISUAL, in a new Shell pane in the agent's worktree, which stays a shell when the editor exits", async () => {
    await boot({ VISUAL: `${FAKE_TERMINAL_EDITOR} --from-visual`, EDITOR: 'not-this-one' });
    const projectId = drover.project.id;
    expect(await drover.core.api.getTerminalEditor({})).toEqual({ variable: 'VISUAL', command: `${FAKE_TERMINAL_EDITOR} --from-visual` });
    const writer = await drover.addAgent('writer');
    const worktree = await drover.worktreeOf(writer);

    const result = await drover.core.api.openInEditor({ projectId, agentId: writer.id, file: 'src/app.ts', line: 2, column: 3 });
    expect(result).toMatchObject({ file: path.join(worktree.path, 'src/app.ts'), line: 2, column: 3, argv: [`${FAKE_TERMINAL_EDITOR} --from-visual`, '+2', 'src/app.ts'] });
    const agentId = result.agentId ?? '';
    const { agents, sessions } = await drover.core.api.getWorkState({ projectId });
    expect(agents.find((agent) => agent.id === agentId)).toMatchObject({ name: 'Edit app.ts', profileId: 'shell' });
    expect(sessions.find((session) => session.agentId === agentId)?.state).not.toBe('exited');

    const ran = await waitFor(async () => {
      const screen = await screenOf(agentId);
      return screen.includes('fake-editor cwd:') ? screen : null;
    }, 'the fake editor to print where it ran');
    expect(ran).toContain('fake-editor arg: --from-visual\nfake-editor arg: +2\nfake-editor arg: src/app.ts\n');
    expect(ran).toContain(`fake-editor cwd: ${worktree.path}\n`);

    await drover.core.api.writeAgentInput({ agentId, data: 'echo "still a shell in $(pwd -P)"\r' });
    await waitFor(async () => (await screenOf(agentId)).includes(`still a shell in ${worktree.path}\n`), 'the shell to answer once the editor exited');
  });

  it('runs $EDITOR when $VISUAL is unset, in the project folder for a file of the project, and names a second pane apart', async () => {
    const repo = await boot({ EDITOR: FAKE_TERMINAL_EDITOR });
    const projectId = drover.project.id;
    expect(await drover.core.api.getTerminalEditor({})).toEqual({ variable: 'EDITOR', command: FAKE_TERMINAL_EDITOR });

    const first = await drover.core.api.openInEditor({ projectId, file: 'README.md', line: 7 });
    const second = await drover.core.api.openInEditor({ projectId, file: path.join(repo, 'README.md') });
    const { agents } = await drover.core.api.getWorkState({ projectId });
    expect(agents.map((agent) => agent.name).sort()).toEqual(['Edit README.md', 'Edit README.md (2)']);

    await waitFor(async () => {
      const screen = await screenOf(first.agentId ?? '');
      return screen.includes('fake-editor arg: +7\nfake-editor arg: README.md\n') && screen.includes(`fake-editor cwd: ${repo}\n`);
    }, "the editor to run in the project folder at line 7");
    await waitFor(async () => (await screenOf(second.agentId ?? '')).includes('fake-editor arg: +1\n'), 'the second editor to run at line 1');
  });

  it('refuses, saying what to do, when the host has neither $VISUAL nor $EDITOR, and starts no pane', async () => {
    await boot({});
    const projectId = drover.project.id;
    expect(await drover.core.api.getTerminalEditor({})).toBeNull();
    await expect(drover.core.api.openInEditor({ projectId, file: 'README.md' })).rejects.toThrow(
      'Neither $VISUAL nor $EDITOR is set in the Drover host’s environment: set one before starting the host, or choose another editor in Settings → Editor.',
    );
    expect((await drover.core.api.getWorkState({ projectId })).agents).toEqual([]);
  });

  it("takes the pane away again when its shell cannot start, saying why", async () => {
    await boot({ VISUAL: FAKE_TERMINAL_EDITOR, SHELL: '/nonexistent/no-such-shell' });
    const projectId = drover.project.id;
    await expect(drover.core.api.openInEditor({ projectId, file: 'README.md' })).rejects.toThrow(/Edit README\.md/);
    expect((await drover.core.api.getWorkState({ projectId })).agents).toEqual([]);
  });
});
