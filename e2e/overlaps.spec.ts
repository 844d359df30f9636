import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { commitFiles, makeRepo } from '../test-support/gitRepo';
import { runCli } from '../test-support/droverProcess';
import { addAgent, screenshot, terminalOf, typeLine } from './support/agents';
import { openInbox, startFromPane } from './support/agentBridge';
import { needsYouButton } from './support/attention';
import { expect, test } from './support/droverHost';
import { openRepoWithShell, privatePortBlocks, worktreeFolder } from './support/worktrees';

/** The agent's shell writes `file` as given and commits it. */
async function commitFile(page: Page, pane: Locator, agent: string, file: string, content: string): Promise<void> {
  const terminal = terminalOf(pane, agent);
  // The typed line holds $((6*7)), the output 42: what the terminal shows after the command ran.
  await typeLine(page, terminal, `printf '${content}' > ${file} && git commit -qam '${agent} edits' && echo "${agent}-committed-$((6*7))"`);
  await expect(terminal).toContainText(`${agent}-committed-42`);
}

/** What the radar says in an agent's pane header. */
const radarNotes = (pane: Locator) => pane.getByRole('note', { name: /^(overlaps|conflicts with) / });

test('the overlap radar: two agents changing the same line conflict, a third elsewhere overlaps nobody, and the panes follow the worktrees', async ({ page, drover }) => {
  test.setTimeout(150_000);
  const restorePorts = privatePortBlocks(drover);
  try {
    const repo = makeRepo(path.join(drover.root, 'shop'), { 'shared.txt': 'one\ntwo\nthree\n', 'other.txt': 'one\n' });
    await openRepoWithShell(page, drover, repo);
    const alpha = await addAgent(page, 'alpha', 'Edits the shared file', 'POSIX shell');
    const beta = await addAgent(page, 'beta', 'Edits it too', 'POSIX shell');
    const gamma = await addAgent(page, 'gamma', 'Edits another file', 'POSIX shell');
    for (const pane of [alpha, beta, gamma]) await startFromPane(pane);

    await commitFile(page, alpha, 'alpha', 'shared.txt', 'one\\nalpha was here\\nthree\\n');
    await commitFile(page, beta, 'beta', 'shared.txt', 'one\\nbeta was here\\nthree\\n');
    await commitFile(page, gamma, 'gamma', 'other.txt', 'gamma\\n');

    await expect(radarNotes(alpha)).toHaveText(['conflicts with beta']);
    await expect(radarNotes(beta)).toHaveText(['conflicts with alpha']);
    await expect(radarNotes(alpha)).toHaveAttribute('title', 'Both change shared.txt (line 2). Merging their branches conflicts in shared.txt.');
    await expect(radarNotes(gamma)).toHaveCount(0);
    await screenshot(page, 'overlaps-panes.png');

    const cli = await runCli(['--data-dir', drover.dataDir, 'worktree', 'overlaps', '--json'], { cwd: repo });
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual([{ agents: ['alpha', 'beta'], files: [{ path: 'shared.txt', lines: [[2, 2]] }], conflict: true }]);

    // An uncommitted change is seen as the files change: gamma now touches the shared file too, on another line.
    fs.writeFileSync(path.join(worktreeFolder(repo, 'gamma'), 'shared.txt'), 'one\ntwo\nthree\nfour\n');
    await expect(radarNotes(gamma)).toHaveText(['overlaps alpha: 1 file', 'overlaps beta: 1 file']);
    await expect(radarNotes(alpha)).toHaveText(['conflicts with beta', 'overlaps gamma: 1 file']);

    // Compare agents lists the pairs among the agents compared.
    await page.getByRole('button', { name: 'Compare agents' }).click();
    const compare = page.getByRole('dialog', { name: 'Compare agents' });
    await expect(compare.getByRole('list', { name: 'Overlaps' }).getByRole('listitem')).toHaveText([
      'alpha and beta both change shared.txt (line 2); merging their branches conflicts in shared.txt.',
      'alpha and gamma both change shared.txt.',
      'beta and gamma both change shared.txt.',
    ]);
  } finally {
    restorePorts();
  }
});

test('with conflict alerts on, two agents whose branches start to conflict need the person, and Tell both agents puts a note in each inbox', async ({ page, drover }) => {
  test.setTimeout(120_000);
  const restorePorts = privatePortBlocks(drover);
  try {
    const repo = makeRepo(path.join(drover.root, 'shop'), { 'shared.txt': 'one\ntwo\nthree\n' });
    await openRepoWithShell(page, drover, repo);
    const alpha = await addAgent(page, 'alpha', 'Edits the shared file', 'POSIX shell');
    const beta = await addAgent(page, 'beta', 'Edits it too', 'POSIX shell');
    await page.getByRole('button', { name: /^Worktrees: 2/ }).click();
    const settings = page.getByRole('dialog', { name: 'Worktrees' });
    await settings.getByRole('checkbox', { name: 'Conflict alerts' }).check();
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect(settings).toBeHidden();
    const alerts = await runCli(['--data-dir', drover.dataDir, 'worktree', 'overlaps', '--alerts', 'on'], { cwd: repo });
    expect(alerts.stdout, alerts.stderr).toMatch(/^Conflict alerts are on for shop/);

    commitFiles(worktreeFolder(repo, 'alpha'), { 'shared.txt': 'one\nalpha was here\nthree\n' }, 'alpha edits');
    commitFiles(worktreeFolder(repo, 'beta'), { 'shared.txt': 'one\nbeta was here\nthree\n' }, 'beta edits');

    await needsYouButton(page, 1).click();
    const queue = page.getByRole('dialog', { name: 'Needs you' });
    const item = queue.getByRole('listitem', { name: /^alpha and beta: Branches conflict/ });
    await expect(item).toContainText('conflict in shared.txt');
    await screenshot(page, 'overlaps-alert.png');
    await item.getByRole('button', { name: 'Tell alpha and beta where their branches conflict' }).click();
    await expect(item).toBeHidden();
    await page.keyboard.press('Escape');

    for (const [pane, name, other] of [
      [alpha, 'alpha', 'beta'],
      [beta, 'beta', 'alpha'],
    ] as const) {
      const inbox = await openInbox(page, pane, name);
      await expect(inbox).toContainText(`shared.txt: you change line 2; ${other} changes line 2`);
      await expect(inbox).toContainText(`Agree with ${other}`);
      await page.keyboard.press('Escape');
    }
  } finally {
    restorePorts();
  }
});
