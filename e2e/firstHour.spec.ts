import fs from 'node:fs';
import path from 'node:path';
import { git, makeRepo } from '../test-support/gitRepo';
import { addAgent, agentPane, openWorkspace, paneMenuAction, saveProfiles, SHELL_AGENT_PROFILE, stateBadge, terminalOf, typeLine } from './support/agents';
import { runCli } from '../test-support/droverProcess';
import { expect, test, type DroverWorld } from './support/droverHost';
import { holdReplies } from './support/heldFrames';
import { openProject, runTask, taskRow } from './support/workState';
import { connectToDrover } from '../electron/cli/socketClient';
import { waitFor } from '../test-support/waitFor';

/** Waits until the task has ended, asking the host over its local socket. */
async function waitForTaskEnd(drover: DroverWorld, taskId: string): Promise<void> {
  const client = await connectToDrover(path.join(drover.dataDir, 'drover.sock'));
  try {
    await waitFor(async () => ['succeeded', 'failed', 'cancelled', 'interrupted'].includes((await client.rpc.call('getTask', { taskId })).state), `task ${taskId} to end`);
  } finally {
    client.close();
  }
}

async function withAgents(drover: DroverWorld, projectId: string, names: readonly string[]): Promise<void> {
  const client = await connectToDrover(path.join(drover.dataDir, 'drover.sock'));
  try {
    for (const name of names) await client.rpc.call('createAgent', { projectId, name, role: '', profileId: 'sh' });
  } finally {
    client.close();
  }
}

test.describe('item 1: a new repository can get an agent', () => {
  test('a repository with no commit yet defaults Add agent to the project folder and adds the agent', async ({ page, drover }) => {
    const folder = drover.makeFolder('fresh');
    git(folder, 'init', '--quiet', '--initial-branch=main');
    const url = await drover.startHost(['--project', folder]);
    const projectId = await saveProfiles(drover, folder, [SHELL_AGENT_PROFILE]);
    await openWorkspace(page, url, projectId);

    await page.getByRole('button', { name: 'Add agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add agent' });
    await expect(dialog.getByText('main has no commits yet')).toBeVisible();
    await expect(dialog.getByRole('radio', { name: 'The project folder' })).toBeChecked();
    await expect(dialog.getByRole('radio', { name: 'Its own worktree, on a new branch' })).toBeDisabled();
    await dialog.getByLabel('Name', { exact: true }).fill('first');
    await dialog.getByLabel('Profile').selectOption({ label: 'POSIX shell' });
    await dialog.getByRole('button', { name: 'Add agent' }).click();
    await expect(dialog).toBeHidden();
    await expect(agentPane(page, 'first')).toBeVisible();
  });

  test('the place a person picked before the repository answered is kept', async ({ page, drover }) => {
    const folder = makeRepo(path.join(drover.root, 'repo'), { 'README.md': 'hello\n' });
    const url = await drover.startHost(['--project', folder]);
    const projectId = await saveProfiles(drover, folder, [SHELL_AGENT_PROFILE]);
    const gitAnswer = await holdReplies(page, 'getProjectGit');
    await openWorkspace(page, url, projectId);

    await page.getByRole('button', { name: 'Add agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add agent' });
    await expect(dialog.getByText('Looking at the project’s repository…')).toBeVisible();
    await dialog.getByRole('radio', { name: 'The project folder' }).click();
    gitAnswer.release();
    await expect(dialog.getByRole('radio', { name: 'Its own worktree, on a new branch' })).toBeEnabled();
    await expect(dialog.getByRole('radio', { name: 'The project folder' })).toBeChecked();
    await dialog.getByLabel('Name', { exact: true }).fill('here');
    await dialog.getByLabel('Profile').selectOption({ label: 'POSIX shell' });
    await dialog.getByRole('button', { name: 'Add agent' }).click();
    await expect(dialog).toBeHidden();
    await expect(agentPane(page, 'here')).toBeVisible();
    expect(fs.readdirSync(folder)).toEqual(['.git', 'README.md']);
    expect(git(folder, 'worktree', 'list').split('\n')).toHaveLength(1);
  });
});

test('item 3: the palette lists the command whose name matches first, and Enter runs it', async ({ page, drover }) => {
  const folder = drover.makeFolder('history');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, []);
  const broken = await runTask(drover, folder, 'exit 1', 'broken');
  const long = await runTask(drover, folder, 'sleep 0.2', 'long');
  await waitForTaskEnd(drover, broken);
  await waitForTaskEnd(drover, long);
  const panel = await openProject(page, url, projectId);
  await taskRow(panel, 'long').click();
  await page.getByRole('dialog', { name: /long/ }).getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'Commands' }).click();
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  // The project's name spells r-e-t-r-y too, so "Go to broken (task failed, history)" also matches.
  await palette.getByRole('combobox').pressSequentially('retry');
  await expect(palette.getByRole('option', { name: /Go to broken/ })).toBeVisible();
  await expect(palette.getByRole('option').first()).toHaveText(/^Retry long/);
  await expect(palette.getByRole('option', { selected: true })).toHaveText(/^Retry long/);
  await page.keyboard.press('Enter');
  await expect(taskRow(panel, 'long').filter({ hasText: '#2' })).toBeVisible();
});

test('item 12: the profile form says what is wrong in words, with a bad pattern’s reason and every bad Environment line', async ({ page, drover }) => {
  const folder = drover.makeFolder('forms');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, []);
  await openWorkspace(page, url, projectId);
  await page.getByRole('button', { name: 'Profiles' }).click();
  await page.getByRole('dialog', { name: 'Agent profiles' }).getByRole('button', { name: 'New profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'New profile' });
  await dialog.getByRole('textbox', { name: /^Id\b/ }).fill('mine');
  await dialog.getByRole('textbox', { name: /^Quiet period \(ms\)/ }).fill('20');
  await dialog.getByRole('textbox', { name: /^Prompt pattern/ }).fill('(unclosed');
  await dialog.getByRole('textbox', { name: /^Environment/ }).fill('GOOD=1\nnonsense\n1BAD=2');
  await dialog.getByRole('button', { name: 'Save profile' }).click();

  await expect(dialog.getByText('Give the profile a name.')).toBeVisible();
  await expect(dialog.getByText('A quiet period is a whole number of milliseconds, from 50 to 60000.')).toBeVisible();
  await expect(dialog.getByText('Not a regular expression: Unterminated group.')).toBeVisible();
  await expect(dialog.getByText('line 2 (nonsense), line 3 (1BAD=2)')).toBeVisible();
  await expect(dialog.getByText(/expected|Too small|>=/)).toHaveCount(0);
});

test('item 9: a shell agent’s note points at drover inbox, which reads it; the inbox counts in the words its messages show', async ({ page, drover }) => {
  const folder = drover.makeFolder('inbox');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [SHELL_AGENT_PROFILE]);
  await openWorkspace(page, url, projectId);
  const pane = await addAgent(page, 'sheller', '', 'POSIX shell');
  const terminal = terminalOf(pane, 'sheller');
  await pane.getByRole('button', { name: 'Start' }).click();
  await expect(stateBadge(pane, 'Ready')).toBeVisible();
  const long = `sh -c 'exit 1' ${'--an-option-that-makes-it-long '.repeat(30)}`;
  const result = await runCli(['--data-dir', drover.dataDir, 'task', 'run', '--agent', 'sheller', '--', long], { cwd: folder });
  expect(result.code, result.stderr).toBe(0);
  await expect(terminal).toContainText('failed: exit code 1');
  await expect(terminal).toContainText('drover inbox shows the full text');

  await pane.getByRole('button', { name: /^Inbox, / }).click();
  const inbox = page.getByRole('dialog', { name: 'sheller inbox' });
  await expect(inbox.getByText('1 message, 1 new: 1 delivered.')).toBeVisible();
  await inbox.getByRole('button', { name: 'Close' }).click();

  await typeLine(page, terminal, 'clear; drover inbox');
  await expect(terminal).toContainText('Task result from Drover');
  await pane.getByRole('button', { name: /^Inbox, / }).click();
  await expect(inbox.getByText('1 message: 1 read.')).toBeVisible();
});

test.describe('item 16: smaller things', () => {
  test('a shell agent reads Busy while its command runs, Ready at its prompt again', async ({ page, drover }) => {
    const folder = drover.makeFolder('busy');
    const url = await drover.startHost(['--project', folder]);
    const projectId = await saveProfiles(drover, folder, [SHELL_AGENT_PROFILE]);
    await openWorkspace(page, url, projectId);
    const pane = await addAgent(page, 'sleeper', '', 'POSIX shell');
    await pane.getByRole('button', { name: 'Start' }).click();
    await expect(stateBadge(pane, 'Ready')).toBeVisible();
    await typeLine(page, terminalOf(pane, 'sleeper'), 'sleep 3');
    await expect(stateBadge(pane, 'Busy')).toBeVisible();
    await expect(stateBadge(pane, 'Ready')).toBeVisible({ timeout: 15_000 });
  });

  test('merge is offered only with something to merge; removing an agent shows its progress', async ({ page, drover }) => {
    const folder = makeRepo(path.join(drover.root, 'repo'), { 'README.md': 'hello\n' });
    const url = await drover.startHost(['--project', folder]);
    const projectId = await saveProfiles(drover, folder, [SHELL_AGENT_PROFILE]);
    // Routing takes only sockets opened after it: before the page opens its one.
    const removal = await holdReplies(page, 'removeAgent');
    await openWorkspace(page, url, projectId);
    const pane = await addAgent(page, 'idle', '', 'POSIX shell');
    await pane.getByRole('button', { name: /Changes/ }).click();
    const changes = page.getByRole('dialog', { name: 'Changes of idle' });
    await expect(changes.getByText('No changes yet')).toBeVisible();
    await expect(changes.getByRole('button', { name: 'Merge into main…' })).toBeDisabled();
    await changes.getByRole('button', { name: 'Close' }).click();

    await paneMenuAction(page, 'idle', 'Remove agent…');
    const confirm = page.getByRole('alertdialog', { name: 'Remove idle?' });
    await confirm.getByRole('button', { name: 'Remove agent' }).click();
    await expect(confirm.getByRole('status')).toHaveText('Removing idle: stopping its session, saving and deleting its worktree…');
    await expect(confirm.getByRole('button', { name: 'Removing…' })).toBeDisabled();
    removal.release();
    await expect(confirm).toBeHidden();
    await expect(pane).toBeHidden();
  });

  test('the output viewer shows a command of several lines line by line', async ({ page, drover }) => {
    const folder = drover.makeFolder('lines');
    const url = await drover.startHost(['--project', folder]);
    const projectId = await saveProfiles(drover, folder, []);
    const taskId = await runTask(drover, folder, 'echo one\nfor i in; do\necho two', 'two lines');
    await waitForTaskEnd(drover, taskId);
    const panel = await openProject(page, url, projectId);
    await taskRow(panel, 'two lines').click();
    const lines = page.getByRole('list', { name: 'Command' });
    await expect(lines.getByRole('listitem')).toHaveText(['echo one', 'for i in; do', 'echo two']);
  });
});

test('item 6: the agents grid keeps its shape while the task list grows', async ({ page, drover }) => {
  const folder = drover.makeFolder('grid');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [SHELL_AGENT_PROFILE]);
  const client = await connectToDrover(path.join(drover.dataDir, 'drover.sock'));
  try {
    for (const name of ['one', 'two', 'three']) await client.rpc.call('createAgent', { projectId, name, role: '', profileId: 'sh' });
    await page.setViewportSize({ width: 1200, height: 800 });
    const panel = await openProject(page, url, projectId);
    const boxes = () => Promise.all(['one', 'two', 'three'].map(async (name) => agentPane(page, name).boundingBox()));
    const before = await boxes();
    for (let i = 0; i < 12; i++) await client.rpc.call('createTask', { projectId, command: 'true', label: `task ${i}` });
    await expect(panel.getByText('12 tasks', { exact: true })).toBeVisible();
    expect(await boxes()).toEqual(before);
  } finally {
    client.close();
  }
});

test('item 14: at phone width the breadcrumb leads back to Projects, and the agent picked there maximises nothing on a wide window', async ({ page, drover }) => {
  const folder = drover.makeFolder('pocket');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [SHELL_AGENT_PROFILE]);
  await withAgents(drover, projectId, ['left', 'right']);
  await page.setViewportSize({ width: 390, height: 844 });
  await openWorkspace(page, url, projectId);
  const back = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Projects' });
  await expect(back).toBeVisible();
  await page.getByRole('tab', { name: /right/ }).click();
  await expect(agentPane(page, 'right')).toBeVisible();
  await expect(agentPane(page, 'left')).toBeHidden();

  await page.setViewportSize({ width: 1400, height: 900 });
  await expect(agentPane(page, 'left')).toBeVisible();
  await expect(agentPane(page, 'right')).toBeVisible();
  await expect(agentPane(page, 'right').getByRole('button', { name: 'Maximise' })).toHaveAttribute('aria-pressed', 'false');

  await page.setViewportSize({ width: 390, height: 844 });
  await back.click();
  await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
});

test('item 7: a removed agent’s tasks keep its name, Retry only where it can run, and its kept branch can be attached or deleted', async ({ page, drover }) => {
  test.setTimeout(90_000);
  const repo = makeRepo(path.join(drover.root, 'repo'), { 'README.md': 'hello\n' });
  const url = await drover.startHost(['--project', repo]);
  const projectId = await saveProfiles(drover, repo, [SHELL_AGENT_PROFILE]);
  const client = await connectToDrover(path.join(drover.dataDir, 'drover.sock'));
  try {
    const kept: Record<string, string> = {};
    for (const name of ['alpha', 'beta']) {
      const agent = await client.rpc.call('createAgent', { projectId, name, role: 'builds things', profileId: 'sh', workspace: { kind: 'new-worktree' } });
      const worktree = (await client.rpc.call('getWorkState', { projectId })).worktrees.find((candidate) => candidate.agentId === agent.id);
      if (!worktree) throw new Error(`no worktree of ${name}`);
      fs.writeFileSync(path.join(worktree.path, `${name}.txt`), `${name}'s work\n`);
      git(worktree.path, 'add', '.');
      git(worktree.path, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-qm', `${name} works`);
      const task = await client.rpc.call('createTask', { projectId, ownerAgentId: agent.id, command: 'exit 4', label: `${name} check` });
      await waitForTaskEnd(drover, task.id);
      if (name === 'alpha') {
        const removed = await client.rpc.call('removeAgent', { agentId: agent.id });
        kept[name] = removed.keptBranch ?? '';
        await expect(client.rpc.call('retryTask', { taskId: task.id })).rejects.toThrow(`its folder ${worktree.path} no longer exists: it was alpha's worktree, removed with the agent`);
      } else kept[name] = worktree.branch;
    }

    const panel = await openProject(page, url, projectId);
    const alphaRow = taskRow(panel, 'alpha check');
    await expect(alphaRow.getByRole('gridcell').nth(2)).toHaveText(/^alpha \(removed\)/);
    await expect(alphaRow.getByRole('button', { name: 'Retry' })).toBeDisabled();
    await expect(taskRow(panel, 'beta check').getByRole('button', { name: 'Retry' })).toBeEnabled();

    await client.rpc.call('removeAgent', { agentId: (await client.rpc.call('getWorkState', { projectId })).agents.find((agent) => agent.name === 'beta')?.id ?? '' });
    await page.getByRole('button', { name: 'Kept branches 2' }).click();
    const dialog = page.getByRole('dialog', { name: 'Kept branches' });
    await expect(dialog.getByRole('listitem')).toHaveText([new RegExp(`^${kept.alpha} alpha’s, from main`), new RegExp(`^${kept.beta} beta’s, from main`)]);
    await dialog.screenshot({ path: 'e2e-artifacts/kept-branches.png' });

    await dialog.getByRole('button', { name: `Delete ${kept.alpha}` }).click();
    await expect(dialog.getByRole('alert')).toHaveText(`Not deleted: ${kept.alpha} holds 1 commit that main lacks: merge it first, or confirm to delete it with its work.`);
    expect(git(repo, 'branch', '--list', kept.alpha ?? '')).toContain(kept.alpha);
    await dialog.getByRole('button', { name: `Delete with its work: ${kept.alpha}` }).click();
    await expect(dialog.getByRole('listitem')).toHaveCount(1);
    expect(git(repo, 'branch', '--list', kept.alpha ?? '').trim()).toBe('');

    await dialog.getByRole('button', { name: `Attach ${kept.beta}` }).click();
    await expect(dialog).toBeHidden();
    const beta = agentPane(page, 'beta');
    await expect(beta.getByText(kept.beta ?? '')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Kept branches/ })).toBeHidden();
  } finally {
    client.close();
  }
});

test('item 8: the Run task hint states where the task runs, and a folder outside the project is refused as outside', async ({ page, drover }) => {
  const repo = makeRepo(path.join(drover.root, 'repo'), { 'README.md': 'hello\n' });
  const url = await drover.startHost(['--project', repo]);
  const projectId = await saveProfiles(drover, repo, [SHELL_AGENT_PROFILE]);
  const client = await connectToDrover(path.join(drover.dataDir, 'drover.sock'));
  const worktreePath = await (async () => {
    try {
      const agent = await client.rpc.call('createAgent', { projectId, name: 'alpha', role: '', profileId: 'sh', workspace: { kind: 'new-worktree' } });
      return (await client.rpc.call('getWorkState', { projectId })).worktrees.find((worktree) => worktree.agentId === agent.id)?.path ?? '';
    } finally {
      client.close();
    }
  })();
  const panel = await openProject(page, url, projectId);
  await panel.getByRole('button', { name: 'Run task…' }).click();
  const form = page.getByRole('dialog', { name: 'Run task' });
  const folder = form.getByRole('textbox', { name: 'Working folder' });
  const rule = "A relative folder is taken from there; it must stay inside the project or an agent's worktree.";
  await expect(folder).toHaveAccessibleDescription(`Empty: the project folder, ${repo}. ${rule}`);
  await form.getByRole('combobox', { name: 'Owner agent' }).selectOption({ label: 'alpha' });
  await expect(folder).toHaveAccessibleDescription(`Empty: alpha's worktree, ${worktreePath}. ${rule}`);

  await form.getByRole('textbox', { name: 'Command' }).fill('pwd');
  await folder.fill('../../etc');
  await form.getByRole('button', { name: 'Run task' }).click();
  await expect(form.getByRole('alert')).toContainText(`is outside the project (${repo}) and its agents' worktrees; tasks run inside their project. A relative folder is taken from ${worktreePath}.`);
});

test('item 11: a relative path is refused, a folder without git says where agents work, and a folder added twice opens its project saying so', async ({ page, drover }) => {
  const folder = drover.makeFolder('plain');
  await page.goto(await drover.startHost());
  const field = page.getByLabel('Project folder');
  await field.fill('code/plain');
  await page.getByRole('button', { name: 'Add project' }).click();
  await expect(page.getByRole('alert')).toHaveText("code/plain is a relative path: give the folder's full path, starting with /.");
  const client = await connectToDrover(path.join(drover.dataDir, 'drover.sock'));
  try {
    await expect(client.rpc.call('addProject', { path: 'code/plain' })).rejects.toThrow("code/plain is a relative path: give the folder's full path, starting with /.");
  } finally {
    client.close();
  }

  await field.fill(folder);
  await page.getByRole('button', { name: 'Add project' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added plain.' })).toHaveText(
    `Added plain. ${folder} is not in a git repository: its agents work in the folder itself (no worktree of their own).`,
  );

  await page.getByRole('link', { name: 'Projects', exact: true }).click();
  await field.fill(`${folder}/`);
  await page.getByRole('button', { name: 'Add project' }).click();
  await expect(page.getByRole('heading', { name: 'plain', level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'already added' })).toHaveText(`${folder} was already added: this is its project.`);
  await expect(page.getByRole('listitem').filter({ hasText: folder })).toHaveCount(0);
});
