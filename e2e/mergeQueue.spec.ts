import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { runCli } from '../test-support/droverProcess';
import { commitFiles, git, makeRepo } from '../test-support/gitRepo';
import { addAgent, agentPane, paneMenuAction, screenshot } from './support/agents';
import { openInbox } from './support/agentBridge';
import { expect, test, type DroverWorld } from './support/droverHost';
import { openRepoWithShell, privatePortBlocks, worktreeFolder } from './support/worktrees';

type Listed = { agent: string; branch: string; state: string; reason?: string }[];

/** Runs the drover CLI against the test's host, from the repository. */
async function drover(world: DroverWorld, repo: string, ...args: string[]): Promise<string> {
  const result = await runCli(['--data-dir', world.dataDir, ...args], { cwd: repo, env: { ...process.env, DROVER_SOCKET: '', DROVER_PROJECT_ID: '', DROVER_AGENT_ID: '' } });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

async function queueFromPalette(page: Page, agent: string): Promise<void> {
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await page.keyboard.type(`queue ${agent}`);
  await expect(palette.getByRole('option', { name: `Queue ${agent} for merge` })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
}

test('the merge queue lands A and C on main in order, each checked, hands B back with its conflict, and a failing check back with its last lines', async ({ page, drover: world }) => {
  test.setTimeout(180_000);
  const restorePorts = privatePortBlocks(world);
  try {
    const repo = makeRepo(path.join(world.root, 'shop'), { 'cart.txt': 'total\nsum\n', 'README.md': 'shop\n' });
    const projectId = await openRepoWithShell(page, world, repo);
    for (const [name, role] of [
      ['alpha', 'Edits the cart'],
      ['gamma', 'Edits the readme'],
      ['beta', 'Edits the cart too'],
    ] as const) {
      await addAgent(page, name, role, 'POSIX shell');
    }
    commitFiles(worktreeFolder(repo, 'alpha'), { 'cart.txt': 'total by alpha\nsum\n' }, 'alpha edits the cart');
    commitFiles(worktreeFolder(repo, 'gamma'), { 'README.md': 'shop by gamma\n' }, 'gamma edits the readme');
    commitFiles(worktreeFolder(repo, 'beta'), { 'cart.txt': 'total by beta\nsum\n' }, 'beta edits the cart');

    // Each check records what it checked, and waits for the gate: the panes can be seen mid-queue.
    const checks = path.join(world.root, 'checks.log');
    const gate = path.join(world.root, 'gate');
    await drover(world, repo, 'merge-queue', 'check-command', '--project', projectId, `git log -1 --format=%s >> '${checks}'; while [ ! -f '${gate}' ]; do sleep 0.1; done`);
    expect(await drover(world, repo, 'merge-queue', 'check-command', '--project', projectId)).toContain(checks);

    await paneMenuAction(page, 'alpha', 'Queue for merge');
    await queueFromPalette(page, 'gamma');
    await drover(world, repo, 'merge-queue', 'add', 'beta', '--project', projectId);
    await expect(agentPane(page, 'alpha').getByText('checking for merge')).toBeVisible();
    await expect(agentPane(page, 'gamma').getByText('queued for main')).toBeVisible();
    await expect(agentPane(page, 'beta').getByText('queued for main')).toBeVisible();
    // The check runs as a background task, shown in the work state.
    await expect(page.getByRole('region', { name: 'Work state' }).getByText('merge check of alpha')).toBeVisible();
    await screenshot(page, 'merge-queue-checking.png');
    fs.writeFileSync(gate, '');

    await expect(agentPane(page, 'beta').getByText('handed back')).toBeVisible({ timeout: 60_000 });
    await expect(agentPane(page, 'alpha').getByText('merged into main')).toBeVisible();
    await expect(agentPane(page, 'gamma').getByText('merged into main')).toBeVisible();
    const listed = JSON.parse(await drover(world, repo, 'merge-queue', 'list', '--project', projectId, '--json')) as Listed;
    expect(listed.map(({ agent, state, reason }) => ({ agent, state, reason }))).toEqual([
      { agent: 'alpha', state: 'merged', reason: undefined },
      { agent: 'gamma', state: 'merged', reason: undefined },
      { agent: 'beta', state: 'handed-back', reason: 'conflicts with main in cart.txt' },
    ]);
    expect(git(repo, 'log', '--format=%s', 'main').split('\n')).toEqual(['gamma edits the readme', 'alpha edits the cart', 'first commit']);
    expect(fs.readFileSync(checks, 'utf8')).toBe('alpha edits the cart\ngamma edits the readme\n');
    await screenshot(page, 'merge-queue-done.png');
    const betaInbox = await openInbox(page, agentPane(page, 'beta'), 'beta');
    await expect(betaInbox).toContainText(/conflicts in 1 file: cart\.txt/);
    await page.keyboard.press('Escape');

    // A check that fails hands its entry back with the check's last lines; main stays where it was.
    // This time set in the Worktrees settings.
    await page.getByRole('button', { name: /^Worktrees: 3/ }).click();
    const settings = page.getByRole('dialog', { name: 'Worktrees' });
    const checkField = settings.getByRole('textbox', { name: 'Merge check command' });
    await checkField.fill("echo 'running 12 tests'; echo 'FAIL: the total is off by one'; exit 1");
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect(settings).toBeHidden();
    expect(await drover(world, repo, 'merge-queue', 'check-command', '--project', projectId)).toContain('FAIL: the total is off by one');
    const delta = await addAgent(page, 'delta', 'Adds a file', 'POSIX shell');
    commitFiles(worktreeFolder(repo, 'delta'), { 'delta.txt': 'delta\n' }, 'delta adds a file');
    const mainBefore = git(repo, 'rev-parse', 'main');
    await paneMenuAction(page, 'delta', 'Queue for merge');
    await expect(delta.getByText('handed back')).toBeVisible({ timeout: 60_000 });
    expect(git(repo, 'rev-parse', 'main')).toBe(mainBefore);
    const deltaInbox = await openInbox(page, delta, 'delta');
    await expect(deltaInbox).toContainText('its check failed');
    await expect(deltaInbox).toContainText('FAIL: the total is off by one');
  } finally {
    restorePorts();
  }
});

test('a host killed mid-check comes back and checks the entry again: the queue goes on, nothing merged twice, nothing lost', async ({ page, drover: world }) => {
  test.setTimeout(180_000);
  const restorePorts = privatePortBlocks(world);
  try {
    const repo = makeRepo(path.join(world.root, 'shop'), { 'cart.txt': 'total\n', 'README.md': 'shop\n' });
    const projectId = await openRepoWithShell(page, world, repo);
    const alpha = await addAgent(page, 'alpha', 'Edits the cart', 'POSIX shell');
    const gamma = await addAgent(page, 'gamma', 'Edits the readme', 'POSIX shell');
    commitFiles(worktreeFolder(repo, 'alpha'), { 'cart.txt': 'total by alpha\n' }, 'alpha edits the cart');
    commitFiles(worktreeFolder(repo, 'gamma'), { 'README.md': 'shop by gamma\n' }, 'gamma edits the readme');
    const checks = path.join(world.root, 'checks.log');
    const gate = path.join(world.root, 'gate');
    await drover(world, repo, 'merge-queue', 'check-command', '--project', projectId, `echo "$(git log -1 --format=%s)" >> '${checks}'; while [ ! -f '${gate}' ]; do sleep 0.1; done`);
    await drover(world, repo, 'merge-queue', 'add', 'alpha', '--project', projectId);
    await drover(world, repo, 'merge-queue', 'add', 'gamma', '--project', projectId);
    await expect(alpha.getByText('checking for merge')).toBeVisible();
    await expect.poll(() => fs.existsSync(checks) && fs.readFileSync(checks, 'utf8')).toBe('alpha edits the cart\n');

    const killed = world.host().hostPid();
    process.kill(killed, 'SIGKILL');
    await expect.poll(() => world.host().hostAlive() && world.host().hostPid() !== killed, { timeout: 30_000 }).toBe(true);
    // The new host takes alpha again from the start: rebased, checked anew.
    await expect.poll(() => fs.readFileSync(checks, 'utf8'), { timeout: 30_000 }).toBe('alpha edits the cart\nalpha edits the cart\n');
    await expect(alpha.getByText('checking for merge')).toBeVisible({ timeout: 30_000 });
    await expect(gamma.getByText('queued for main')).toBeVisible();
    fs.writeFileSync(gate, '');

    await expect(gamma.getByText('merged into main')).toBeVisible({ timeout: 60_000 });
    await expect(alpha.getByText('merged into main')).toBeVisible();
    expect(git(repo, 'log', '--format=%s', 'main').split('\n')).toEqual(['gamma edits the readme', 'alpha edits the cart', 'first commit']);
    expect(fs.readFileSync(path.join(repo, 'cart.txt'), 'utf8')).toBe('total by alpha\n');
    const listed = JSON.parse(await drover(world, repo, 'merge-queue', 'list', '--project', projectId, '--json')) as Listed;
    expect(listed.map(({ agent, state }) => [agent, state])).toEqual([
      ['alpha', 'merged'],
      ['gamma', 'merged'],
    ]);
  } finally {
    restorePorts();
  }
});
